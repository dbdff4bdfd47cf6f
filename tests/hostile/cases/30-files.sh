# Temporary files under signals. -o FILE is written as a file with no name
# (O_TMPFILE) that gets FILE's name only when complete, so a writer killed
# by any signal leaves nothing; where O_TMPFILE is refused (here: the
# LD_PRELOAD shim no_tmpfile.c) the named FILE.tmp.XXXXXX is removed on
# SIGINT, SIGTERM and SIGHUP. A server's upload has no name either.
h_umask_mode=$(printf '%o' $((0666 & ~$(umask))))
h_no_tmpfile=
if cc -shared -fPIC -o "$H_IN/no_tmpfile.so" tests/hostile/no_tmpfile.c -ldl 2>/dev/null; then
	# a sanitizer build wants its runtime first unless told otherwise
	h_no_tmpfile="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 LD_PRELOAD=$H_IN/no_tmpfile.so"
else
	echo "note hostile: no C compiler, the O_TMPFILE fallback cases are skipped"
fi
# h_killed SIGNAL [PREFIX]: a command that writes a long synth to
# $H_OUT/x.json, lists $H_OUT into $H_ROOT/during after 1 s, then sends
# SIGNAL and waits (its exit status is the writer's: 128 + the signal); a
# writer the signal did not end is killed (137) 0.3 s later. A background
# job of a script ignores SIGINT: INT needs env --default-signal=INT; HUP
# too, for a run under nohup (which ignores SIGHUP for all it starts).
h_killed() {
	echo "${2-} \"\$GPUPROF\" synth --size 4G -o \"\$H_OUT/x.json\" & p=\$!; sleep 1; ls -A \"\$H_OUT\" >\"\$H_ROOT/during\"; kill -$1 \$p; sleep 0.3; kill -KILL \$p 2>/dev/null; wait \$p 2>/dev/null"
}
h_during_empty() { [ ! -s "$H_ROOT/during" ]; }
h_during_named() { grep -q '^x\.json\.tmp\.' "$H_ROOT/during"; }
h_mode() { [ "$(stat -c %a "$1")" = "$h_umask_mode" ]; }

h_case files-synth-kill 137 "" 5 "$(h_killed KILL)"
h_check "files-synth-kill: nothing named while writing" h_during_empty
h_case files-synth-term 143 "" 5 "$(h_killed TERM)"
h_check "files-synth-term: nothing named while writing" h_during_empty
h_case files-synth-int 130 "" 5 "$(h_killed INT "env --default-signal=INT")"
h_check "files-synth-int: nothing named while writing" h_during_empty
# an existing target is replaced whole (linked to a fresh name, renamed over)
"$GPUPROF" synth --size 100K -o - >"$H_IN/want.json" 2>/dev/null
h_keep x.json
h_case files-replace 0 "" 10 'printf "OLD\n" >"$H_OUT/x.json" && "$GPUPROF" synth --size 100K -o "$H_OUT/x.json" 2>/dev/null'
h_check "files-replace: the new content" cmp -s "$H_IN/want.json" "$H_OUT/x.json"
h_keep x.json
h_case files-create 0 "" 10 '"$GPUPROF" synth --size 100K -o "$H_OUT/x.json" 2>/dev/null'
h_check "files-create: the content" cmp -s "$H_IN/want.json" "$H_OUT/x.json"
h_check "files-create: mode 0666 less the umask" h_mode "$H_OUT/x.json"

if [ -n "$h_no_tmpfile" ]; then
	h_case files-fallback-term 143 "" 5 "$(h_killed TERM "$h_no_tmpfile")"
	h_check "files-fallback-term: the named fallback was written" h_during_named
	h_case files-fallback-int 130 "" 5 "$(h_killed INT "env --default-signal=INT $h_no_tmpfile")"
	h_check "files-fallback-int: the named fallback was written" h_during_named
	h_case files-fallback-hup 129 "" 5 "$(h_killed HUP "env --default-signal=HUP $h_no_tmpfile")"
	h_keep x.json
	h_case files-fallback-replace 0 "" 10 'printf "OLD\n" >"$H_OUT/x.json" && '"$h_no_tmpfile"' "$GPUPROF" synth --size 100K -o "$H_OUT/x.json" 2>/dev/null'
	h_check "files-fallback-replace: the new content" cmp -s "$H_IN/want.json" "$H_OUT/x.json"
	h_check "files-fallback-replace: mode 0666 less the umask" h_mode "$H_OUT/x.json"
fi

# The server: an accepted SQLite export (read again for each answer) and an
# upload cut short, then the server killed; nothing may stay in TMPDIR.
h_serve() { # h_serve [PREFIX]: a server in the background: h_url, h_pid
	: >"$H_ROOT/serve.out"
	${1-} "$GPUPROF" serve -q --port 0 >"$H_ROOT/serve.out" 2>"$H_ROOT/serve.err" &
	h_pid=$!
	h_url=
	for _ in $(seq 1 100); do
		h_url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$H_ROOT/serve.out" 2>/dev/null)
		[ -n "$h_url" ] && return 0
		kill -0 "$h_pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# h_upload_killed [PREFIX]: uploads the tiny export, asks for its kernels,
# kills the server; the two HTTP statuses go to $H_ROOT/statuses.
h_upload_killed() {
	h_serve "${1-}" || return 3
	curl -s -o /dev/null -w '%{http_code} ' --data-binary @"$H_IN/tiny.sqlite" "${h_url}api/upload?name=tiny.sqlite" >"$H_ROOT/statuses"
	curl -s -o "$H_ROOT/kernels.json" -w '%{http_code}' "${h_url}api/file/1/nsys/kernels" >>"$H_ROOT/statuses"
	kill -KILL "$h_pid"
	wait "$h_pid" 2>/dev/null
	return 0
}
# h_upload_cut: a 40 MB upload sent at 8 MB/s, the server killed after 1 s
h_upload_cut() {
	h_serve || return 3
	curl -s -o /dev/null --limit-rate 8M --data-binary @"$H_IN/big.json" "${h_url}api/upload?name=big.json" &
	c=$!
	sleep 1
	ls -A "$TMPDIR" >"$H_ROOT/during"
	kill -KILL "$h_pid"
	wait "$h_pid" 2>/dev/null
	wait "$c"
	return 0
}
h_statuses() { [ "$(cat "$H_ROOT/statuses")" = "200 200" ]; }
if python3 -c "import sys; sys.path.insert(0, 'tests/nsys'); import check_sqlite; check_sqlite.make_tiny(sys.argv[1], True)" "$H_IN/tiny.sqlite" 2>/dev/null; then
	h_case files-upload-sqlite-kill 0 "" 10 'h_upload_killed'
	h_check "files-upload-sqlite-kill: accepted and answered (HTTP $(cat "$H_ROOT/statuses"))" h_statuses
	grep -q '"kernels"' "$H_ROOT/kernels.json" 2>/dev/null
	h_check "files-upload-sqlite-kill: the kernels of the export" grep -q '"name"' "$H_ROOT/kernels.json"
	if [ -n "$h_no_tmpfile" ]; then
		h_case files-upload-fallback-kill 0 "" 10 'h_upload_killed "$h_no_tmpfile"'
		h_check "files-upload-fallback-kill: accepted and answered (HTTP $(cat "$H_ROOT/statuses"))" h_statuses
	fi
else
	echo "note hostile: python3 with sqlite3 missing, the SQLite upload cases are skipped"
fi
"$GPUPROF" synth --size 40M -o "$H_IN/big.json" 2>/dev/null
h_case files-upload-cut-kill 0 "" 10 'h_upload_cut'
h_check "files-upload-cut-kill: nothing named in TMPDIR during the upload" h_during_empty
# -o naming a FIFO (or a device such as /dev/null) writes through it: the
# FIFO stays a FIFO, its reader gets every byte, nothing else appears
mkfifo "$H_IN/pipe"
h_case files-fifo 0 "" 10 'cat "$H_IN/pipe" >"$H_ROOT/through" & c=$!; "$GPUPROF" synth --size 100K -o "$H_IN/pipe" 2>/dev/null; r=$?; wait $c; exit $r'
h_check "files-fifo: the reader got the content" cmp -s "$H_IN/want.json" "$H_ROOT/through"
h_check "files-fifo: still a FIFO" test -p "$H_IN/pipe"
