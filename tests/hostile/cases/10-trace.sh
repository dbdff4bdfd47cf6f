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
	srv_url=$(sed -n 's/.* at \(http[^ ]*\) .*/\1/p' "$srv_out")
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
