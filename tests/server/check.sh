#!/bin/sh
# API tests of `gpuprof serve`: starts the server on a free loopback port
# (--port 0) with a known trace, checks that every endpoint answers exactly
# what `gpuprof VIEW --format json` prints, and every security rule (Host,
# Origin, paths, sizes), then stops it. Needs curl; closing line
# "server: N passed, N failed".
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL server: $*"; fail=$((fail + 1)); }
if ! command -v curl >/dev/null 2>&1; then
	echo "server: curl not found (tools/setup.sh installs it)"
	echo "server: 0 passed, 1 failed"
	exit 1
fi
fix=examples/resnet_like.json.gz
small=tests/golden/_inputs/memory.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-server.XXXXXX")
"$GPUPROF" serve -q --port 0 --max-upload 64K "$fix" >"$tmp/out" 2>"$tmp/err" &
pid=$!
url=
for _ in $(seq 1 100); do
	url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tmp/out" 2>/dev/null)
	[ -n "$url" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
if [ -z "$url" ]; then
	bad "server did not start: $(cat "$tmp/err")"
	kill "$pid" 2>/dev/null
	rm -rf "$tmp"
	echo "server: $pass passed, $fail failed"
	exit 1
fi
ok
port=${url#http://127.0.0.1:}
port=${port%/}
# status URL [curl options...]: the HTTP status
status() { u=$1; shift; curl -s -o "$tmp/body" -w '%{http_code}' "$@" "$u"; }
expect() { # want description url [curl options...]
	want=$1; what=$2; shift 2
	got=$(status "$@")
	[ "$got" = "$want" ] && ok || bad "$what: HTTP $got, want $want ($(head -c 200 "$tmp/body"))"
}
# same QUERY ARGS...: the API's answer equals the command's JSON, byte for byte
same() {
	q=$1; shift
	got=$(status "${url}api/file/1/$q")
	"$GPUPROF" "$@" --format json "$fix" >"$tmp/want" 2>/dev/null
	if [ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body"; then ok; else bad "$q: HTTP $got, differs from 'gpuprof $*'"; fi
}
same summary summary
same 'summary?tb_compat=1&timeline=1' summary --tb-compat --timeline
same steps steps
same 'steps?step=4-5' steps --step 4-5
same ops ops
same 'ops?group_by=op%2Bshape&sort=host_self&top=5' ops --group-by op+shape --sort host_self --top 5
same 'ops?stack=1&tb_compat=1' ops --stack --tb-compat
same kernels kernels
same 'kernels?group_by=kernel%2Bop&top=3' kernels --group-by kernel+op --top 3
same memory memory
same 'memory?curve=1' memory --curve
same 'memory?curve=1&step_plot=1&events=1' memory --curve --step-plot --events
# the files list and the viewer
expect 200 "files" "${url}api/files"
grep -q '"name": "resnet_like.json.gz"' "$tmp/body" && ok || bad "files: no resnet_like.json.gz"
expect 200 "index" "$url"
curl -s -D - -o /dev/null "$url" | grep -qi '^content-type: text/html' && ok || bad "index: not text/html"
# errors of the API
expect 404 "unknown file" "${url}api/file/9/summary"
expect 404 "unknown view" "${url}api/file/1/timeline"
expect 400 "unknown parameter" "${url}api/file/1/ops?frobnicate=1"
expect 400 "bad group_by" "${url}api/file/1/ops?group_by=kernel"
expect 400 "unknown device" "${url}api/file/1/memory?device=cuda:7"
expect 405 "DELETE" "${url}api/files" -X DELETE
# DNS rebinding and cross-site requests
expect 403 "bad Host" "${url}api/files" -H "Host: evil.example:$port"
expect 403 "Host with another port" "${url}api/files" -H "Host: 127.0.0.1:1"
expect 200 "Host localhost" "${url}api/files" -H "Host: localhost:$port"
expect 403 "bad Origin" "${url}api/files" -H "Origin: http://evil.example"
expect 403 "Origin of another port" "${url}api/files" -H "Origin: http://127.0.0.1:1"
expect 200 "own Origin" "${url}api/files" -H "Origin: http://127.0.0.1:$port"
expect 403 "upload from another site" "${url}api/upload?name=x.json" -H "Origin: http://evil.example" --data-binary @"$small"
# no request path reaches the filesystem
expect 404 "path traversal" "${url}../../../etc/passwd" --path-as-is
expect 404 "encoded traversal" "${url}%2e%2e/%2e%2e/etc/passwd" --path-as-is
expect 404 "absolute-looking path" "${url}/etc/passwd" --path-as-is
expect 404 "source file" "${url}Makefile"
# sizes
long=$(head -c 5000 /dev/zero | tr '\0' a)
expect 414 "long URL" "${url}api/files?$long"
head -c 70000 /dev/zero >"$tmp/big"
expect 413 "oversized upload" "${url}api/upload?name=big.json" --data-binary @"$tmp/big"
expect 413 "oversized chunked upload" "${url}api/upload?name=big.json" -H "Transfer-Encoding: chunked" --data-binary @"$tmp/big"
# uploads
expect 200 "upload" "${url}api/upload?name=memory.json" --data-binary @"$small"
grep -q '"name": "memory.json"' "$tmp/body" && ok || bad "upload: answer lacks the file"
id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
got=$(status "${url}api/file/$id/memory")
"$GPUPROF" memory --format json "$small" >"$tmp/want" 2>/dev/null
[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "uploaded file's memory view differs"
printf 'not a trace' >"$tmp/bad.txt"
expect 400 "bad upload" "${url}api/upload?name=bad.txt" --data-binary @"$tmp/bad.txt"
grep -q 'bad.txt.*expected a trace' "$tmp/body" && ok || bad "bad upload: message: $(cat "$tmp/body")"
expect 400 "empty upload" "${url}api/upload?name=empty.json" --data-binary ''
# stop
kill "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "stop: exit $rc"
# usage errors
"$GPUPROF" serve --port 70000 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--port 70000: want exit 2"
"$GPUPROF" serve --host not-an-address --port 0 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--host not-an-address: want exit 2"
rm -rf "$tmp"
echo "server: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
