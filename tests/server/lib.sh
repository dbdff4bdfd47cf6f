# lib.sh: what the API test scripts of tests/server share; sourced after
# setting `part` (the name on the closing line "PART: N passed, N failed")
# from the repository root with GPUPROF set. Gives ok/bad (counting),
# tmp (a private folder, removed by finish), status/expect/message over
# curl (the answer lands in $tmp/body), start_server FILES... (url= the
# server's URL, pid= its process; a server that does not start ends the
# script) and finish (stops the server, prints the closing line, exits).
set -u
pass=0
fail=0
pid=
url=
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL server $part: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-$part.XXXXXX")
finish() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	rm -rf "$tmp"
	echo "$part: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
# status URL [curl options...]: the HTTP status; the body in $tmp/body
status() { u=$1; shift; curl -s -o "$tmp/body" -w '%{http_code}' "$@" "$u"; }
# expect WANT DESCRIPTION URL [curl options...]
expect() {
	want=$1; what=$2; shift 2
	got=$(status "$@")
	[ "$got" = "$want" ] && ok || bad "$what: HTTP $got, want $want ($(head -c 300 "$tmp/body"))"
}
# message TEXT: the last answer contains TEXT
message() { grep -qF -- "$1" "$tmp/body" && ok || bad "message: want '$1' in $(cat "$tmp/body")"; }
# start_server FILES...: `gpuprof serve -q --port 0 FILES...` in the background
start_server() {
	# emptied here, not only by the redirection below: that one happens in
	# the background child, maybe after the loop has read a previous
	# server's URL from the file
	: >"$tmp/out"
	"$GPUPROF" serve -q --port 0 "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	url=
	for _ in $(seq 1 200); do
		url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tmp/out" 2>/dev/null)
		[ -n "$url" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$url" ] && ok || { bad "server did not start with $*: $(cat "$tmp/err")"; finish; }
}
