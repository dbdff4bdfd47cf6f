# The trace reader under hostile input: a gzip bomb of valid events against
# --max-memory, out-of-spec strings and numbers counted as anomalies, gzip
# cut inside its header, and raw bytes quoted in messages.

# A gzip bomb of valid events: 2,000,001 tiny X events (~100 MB of JSON,
# ~0.6 MB compressed, ~90 MB of tables once loaded). With --max-memory 32M
# the load stops at the first check past 32 MiB, about a third of the way
# in: one line with the file, the uncompressed offset and the limit.
{
	printf '['
	yes '{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1},' | head -n 2000000
	printf '{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1}]'
} | gzip -1 >"$H_IN/bomb.json.gz"
bomb_msg='bomb\.json\.gz: byte [0-9]+ \(uncompressed\): the trace needs more than 32\.0 MiB of memory \(--max-memory\)'
h_case bomb-max-memory 2 "$bomb_msg" 10 \
	'"$GPUPROF" --max-memory 32M summary "$H_IN/bomb.json.gz" -o "$H_OUT/s.txt"'
h_case bomb-max-memory-1thread 2 "$bomb_msg" 10 \
	'GPUPROF_THREADS=1 "$GPUPROF" summary --max-memory=32M "$H_IN/bomb.json.gz" -o "$H_OUT/s.txt"'
# the offset is where the limit was reached: past 32 MiB of JSON (tables
# cost less than the text), before its end
h_check bomb-offset-in-range awk -v m="$(sed -n 's/.*byte \([0-9]*\) .*/\1/p' "$H_ROOT/stderr")" \
	'BEGIN { exit !(m > 33554432 && m < 100000000) }'
# the server loads its files under the same limit
h_case bomb-serve 2 "$bomb_msg" 10 \
	'"$GPUPROF" --max-memory 32M serve -q --port 0 "$H_IN/bomb.json.gz"'
# within the limit the same trace loads: 2,000,001 events
h_keep i.csv
h_case bomb-within-limit 0 "" 20 \
	'"$GPUPROF" --max-memory 1G info -q --format csv "$H_IN/bomb.json.gz" -o "$H_OUT/i.csv"'
h_check bomb-within-limit-events grep -qx 'events,2000001' "$H_ROOT/out-bomb-within-limit/i.csv"
# ... and each upload: the bomb posted to a server started with the limit
# is refused with the same message (400), and the server keeps serving
srv_out=$H_ROOT/serve.out
"$GPUPROF" --max-memory 32M serve -q --port 0 >"$srv_out" 2>&1 &
srv_pid=$!
srv_url=
for _ in $(seq 50); do
	srv_url=$(sed -n 's/.* at \(http[^ ]*\) .*/\1/p' "$srv_out" 2>/dev/null)
	[ -n "$srv_url" ] && break
	sleep 0.1
done
h_check bomb-upload-server-started test -n "$srv_url"
code=$(curl -s -m 20 -o "$H_ROOT/upload.body" -w '%{http_code}' \
	"${srv_url}api/upload?name=bomb.json.gz" --data-binary @"$H_IN/bomb.json.gz")
h_check bomb-upload-400 test "$code" = 400
h_check bomb-upload-message grep -Eq "bomb\.json\.gz at byte [0-9]+ \(uncompressed\): the trace needs more than 32\.0 MiB of memory \(--max-memory\)" "$H_ROOT/upload.body"
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "${srv_url}api/files")
h_check bomb-upload-still-serving test "$code" = 200
kill "$srv_pid" 2>/dev/null
wait "$srv_pid" 2>/dev/null

# Out-of-spec strings and numbers are counted, each with the offset of the
# first: a bare NaN and Infinity (nonstandard_json, at byte 80), an invalid
# \u escape (bad_escape, kept as written, at the quote at byte 131), a raw
# NUL (nul_in_string, read as U+FFFD, at the quote at byte 206).
printf '[{"ph":"X","cat":"cpu_op","name":"n","pid":1,"tid":1,"ts":1,"dur":1,"args":{"a":NaN,"b":Infinity}},{"ph":"X","cat":"cpu_op","name":"a\\u00zzb","pid":1,"tid":1,"ts":2,"dur":1},{"ph":"X","cat":"cpu_op","name":"c\000d","pid":1,"tid":1,"ts":3,"dur":1}]' >"$H_IN/odd.json"
h_keep i.csv
h_case odd-strings-info 0 "" 5 '"$GPUPROF" info -q --format csv "$H_IN/odd.json" -o "$H_OUT/i.csv"'
odd_csv=$H_ROOT/out-odd-strings-info/i.csv
h_check odd-nonstandard grep -q '^nonstandard_json,2,80,' "$odd_csv"
h_check odd-bad-escape grep -q '^bad_escape,1,131,' "$odd_csv"
h_check odd-nul grep -q '^nul_in_string,1,206,' "$odd_csv"
h_check odd-offsets-by-hand test "$(grep -abo 'NaN' "$H_IN/odd.json" | cut -d: -f1)" = 80 -a \
	"$(grep -abo '"a.u00zz' "$H_IN/odd.json" | cut -d: -f1)" = 131 -a \
	"$(grep -abo '"c.d"' "$H_IN/odd.json" | cut -d: -f1)" = 206
# the NUL no longer cuts the name: c, U+FFFD, d
h_keep o.csv
h_case odd-strings-ops 0 "" 5 '"$GPUPROF" ops -q --format csv "$H_IN/odd.json" -o "$H_OUT/o.csv"'
h_check odd-nul-name grep -q "^$(printf 'c\357\277\275d'),1," "$H_ROOT/out-odd-strings-ops/o.csv"
h_check odd-bad-escape-name grep -qF 'a\u00zzb,1,' "$H_ROOT/out-odd-strings-ops/o.csv"
h_case odd-strings-strict 2 'odd\.json: 4 input anomalies \(--strict\); first: nonstandard_json at byte 80' 5 \
	'"$GPUPROF" --strict summary "$H_IN/odd.json" -o "$H_OUT/s.txt"'

# A gzip cut in its first bytes is a truncated gzip, at the compressed
# offset where it ends, not an empty input.
"$GPUPROF" synth --size 64K --seed 3 -o "$H_IN/small.json" 2>/dev/null
gzip -c <"$H_IN/small.json" >"$H_IN/small.json.gz"
for n in 5 10 19; do
	head -c "$n" "$H_IN/small.json.gz" >"$H_IN/cut$n.json.gz"
	h_case "gzip-cut-$n" 2 "cut$n\\.json\\.gz: byte $n: truncated gzip (header|member): the input ends after $n bytes" 5 \
		"\"\$GPUPROF\" summary \"\$H_IN/cut$n.json.gz\" -o \"\$H_OUT/s.txt\""
done

# Raw bytes in a message are escaped: a control byte where JSON wants a
# token, and a file name holding a newline and an escape sequence, each on
# one printable line.
printf '[{"ph":"X"\001}]' >"$H_IN/ctl.json"
h_case control-byte-quoted 2 "ctl\\.json: byte 10: expected ',' or '\\}', found an unexpected byte '\\\\x01'\$" 5 \
	'"$GPUPROF" summary "$H_IN/ctl.json" -o "$H_OUT/s.txt"'
cp "$H_IN/ctl.json" "$H_IN/$(printf 'we\nird\033[31m.json')"
h_case control-bytes-in-name 2 'we\\nird\\x1b\[31m\.json: byte 10' 5 \
	'"$GPUPROF" summary "$H_IN"/we*ird* -o "$H_OUT/s.txt"'
