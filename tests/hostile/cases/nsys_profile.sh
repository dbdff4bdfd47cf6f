# `gpuprof nsys profile` against what a user's machine and program may do:
# a run directory that cannot be made, no nsys on PATH, a program that
# fails, dies by a signal or floods its stderr, capture range names and
# profile names full of shell and YAML characters and bytes of no UTF-8.
# A stand-in nsys ($H_IN/nspbin/nsys) runs the program it is given and
# answers `nsys stats` with tests/nsys/run_small's CSVs. Run directories go
# under $H_IN (the cases check $H_OUT stays empty).
nsp_bin=$H_IN/nspbin
mkdir -p "$nsp_bin"
nsp_csv=$(pwd)/tests/nsys/run_small/stats
cat >"$nsp_bin/nsys" <<EOF
#!/bin/sh
if [ "\$1" = "--version" ]; then echo "NVIDIA Nsight Systems version 2025.1.3"; exit 0; fi
if [ "\$1" = profile ]; then
	shift
	while [ \$# -gt 0 ]; do
		case \$1 in -o) out=\$2; shift 2 ;; -e) shift 2 ;; -*) shift ;; *) break ;; esac
	done
	[ -d "\$(dirname "\$out")" ] || { echo "no run directory" >&2; exit 99; }
	"\$@"
	rc=\$?
	: >"\$out.nsys-rep"
	exit \$rc
fi
for a in "\$@"; do [ "\$p" = --output ] && o=\$a; p=\$a; done
cp "$nsp_csv/nsys_nvtx_pushpop_trace.csv" "\${o}_nvtx_pushpop_trace.csv"
cp "$nsp_csv/nsys_nvtx_gpu_proj_trace.csv" "\${o}_nvtx_gpu_proj_trace.csv"
EOF
chmod +x "$nsp_bin/nsys"
nsp_path=$nsp_bin:$PATH
export nsp_path

# the run directory cannot be made: a file in its way, a name too long
: >"$H_IN/nsp-file"
h_case nsp-dir-under-file 2 "^gpuprof: error: cannot create the run directory: not a directory: .*/nsp-file$" 5 \
	'PATH=$nsp_path "$GPUPROF" nsys profile --run-dir "$H_IN/nsp-file/run" -- true'
nsp_long=$(printf '%0300d' 0)
h_case nsp-dir-name-too-long 2 "^gpuprof: error: cannot create the run directory: File name too long: .*/in/0000" 5 \
	'PATH=$nsp_path "$GPUPROF" nsys profile --run-dir "$H_IN/$nsp_long/run" -- true'
# no nsys: one line saying where to get it, nothing created
h_case nsp-no-nsys 2 "^gpuprof: error: Nsight Systems executable not found: 'nsys'\. .* https://developer\.nvidia\.com/nsight-systems\.$" 5 \
	'PATH=/nonexistent "$GPUPROF" nsys profile --run-dir "$H_IN/nsp-nonsys" -- true'
h_check "nsp-no-nsys: no run directory" test ! -e "$H_IN/nsp-nonsys"
# the program fails (silently: the status alone), or dies by a signal
h_case nsp-program-fails 2 "^gpuprof: error: nsys profile of sh exited with status 7 \(recorded in .*/nsp-fail/manifest\.yaml\)$" 5 \
	'PATH=$nsp_path "$GPUPROF" nsys profile --run-dir "$H_IN/nsp-fail" -- sh -c "exit 7"'
h_check "nsp-program-fails: the manifest records it" grep -qx '  exit_status: 7' "$H_IN/nsp-fail/manifest.yaml"
h_check "nsp-program-fails: no analysis" test ! -e "$H_IN/nsp-fail/analysis.json"
h_check "nsp-program-fails: no manifest temporary" test "$(ls -A "$H_IN/nsp-fail" | tr '\n' ' ')" = "manifest.yaml trace.nsys-rep "
# (the shell of the stand-in says "Killed" on stderr: two lines)
PATH=$nsp_path "$GPUPROF" nsys profile --run-dir "$H_IN/nsp-kill" -- sh -c 'kill -9 $$' 2>"$H_IN/nsp-kill.err"
h_check "nsp-program-killed: exit 2" test $? -eq 2
h_check "nsp-program-killed: the status" \
	sh -c 'tail -n 1 "$1" | grep -q "^gpuprof: error: nsys profile of sh exited with status 137 "' sh "$H_IN/nsp-kill.err"
h_check "nsp-program-killed: recorded" grep -qx '  exit_status: 137' "$H_IN/nsp-kill/manifest.yaml"
# a flood on stderr (8 MB, no line break, then a last line): passed on,
# the message keeps only the end, bounded
t0=$(h_now)
PATH=$nsp_path "$GPUPROF" nsys profile --run-dir "$H_IN/nsp-flood" -- \
	sh -c 'head -c 8000000 /dev/zero | tr "\0" x >&2; echo >&2; echo last words >&2; exit 1' \
	>/dev/null 2>"$H_IN/nsp-flood.err"
rc=$?
took=$(h_elapsed "$t0")
h_check "nsp-stderr-flood: exit 2" test "$rc" -eq 2
h_check "nsp-stderr-flood: all of it passed on" test "$(wc -c <"$H_IN/nsp-flood.err")" -gt 8000000
h_check "nsp-stderr-flood: the message ends with the last line" \
	sh -c 'tail -n 1 "$1" | grep -q "; last words\$"' sh "$H_IN/nsp-flood.err"
h_check "nsp-stderr-flood: the message is short" test "$(tail -n 1 "$H_IN/nsp-flood.err" | wc -c)" -lt 1300
h_check "nsp-stderr-flood: within 10 s" awk -v a="$took" 'BEGIN { exit !(a <= 10) }'
rm -f "$H_IN/nsp-flood.err"
# a capture range with shell characters: one argument, never expanded
nsp_cap='a b; touch "$H_IN/pwned" $(touch $H_IN/pwned2) `x` | & * ? '"'"'q'"'"
export nsp_cap
h_case nsp-capture-shell 0 "" 5 \
	'PATH=$nsp_path "$GPUPROF" nsys profile -q --run-dir "$H_IN/nsp-cap" --capture-range "$nsp_cap" --no-analyze -- true'
h_check "nsp-capture-shell: nothing expanded" test ! -e "$H_IN/pwned" -a ! -e "$H_IN/pwned2" -a ! -e x
h_case nsp-capture-print 0 "" 5 \
	'"$GPUPROF" nsys profile --run-dir "$H_IN/nsp-capp" --capture-range "$nsp_cap" --print-command -- true >"$H_IN/nsp-cmd"'
h_case nsp-capture-print-runs 0 "" 5 \
	'PATH=$nsp_path sh "$H_IN/nsp-cmd"'
h_check "nsp-capture-print: the printed line ran, nothing expanded" \
	test -e "$H_IN/nsp-capp/trace.nsys-rep" -a ! -e "$H_IN/pwned" -a ! -e "$H_IN/pwned2"
# a name nsys would read as NAME@DOMAIN: refused before anything is made
"$GPUPROF" nsys profile --run-dir "$H_IN/nsp-at" --capture-range "x@y" -- true 2>"$H_IN/nsp-at.err"
h_check "nsp-capture-at: exit 2" test $? -eq 2
h_check "nsp-capture-at: the message" grep -qx "gpuprof: nsys: profile: --capture-range needs a name without '@' (nsys reads NAME@DOMAIN)" "$H_IN/nsp-at.err"
h_check "nsp-capture-at: nothing made" test ! -e "$H_IN/nsp-at"
# a profile name of YAML syntax, controls and bytes of no UTF-8: the
# manifest stays YAML that gpuprof's reader takes back (U+FFFD for the bad
# bytes), the run is analysed
nsp_name=$(printf '%s' 'x: [y, {z: "q\' ; printf '\001\t\r\n\377\376 &a *a # c %%')
export nsp_name
h_case nsp-yaml-name 0 "" 5 \
	'PATH=$nsp_path "$GPUPROF" nsys profile -q --run-dir "$H_IN/nsp-yaml" --capture-range profile-target --profile-name "$nsp_name" -- true'
h_check "nsp-yaml-name: read back by gpuprof" \
	grep -qF '"profile_name": "x: [y, {z: \"q\\\u0001\t\r\n\ufffd\ufffd &a *a # c %",' "$H_IN/nsp-yaml/analysis.json"
