#!/bin/sh
# API tests of the file table of `gpuprof serve` and of its connection
# limits (called by tests/server/check.sh; run from the repository root
# with GPUPROF set). Checks:
#   - DELETE /api/file/ID: 200 with the remaining files (what /api/files
#     says then), the file's views 404 after it (a cached answer too), a
#     second DELETE 404, a file of the command line removable as well;
#     403 from another Origin, 405 on other paths, 400 with a parameter;
#   - eviction: with the table full (64 files: one from the command line,
#     63 uploads) an upload evicts the upload used least recently (a view
#     asked counts as a use; the command line's file is never evicted);
#   - removal while views of the file are being computed: each answer is
#     the CLI's or 404, never another error;
#   - tests/server/conns.py: the 33rd connection from one address is closed
#     at once while another address is answered; a chunked upload (here
#     declaring a 0x7fffffffffffffff-byte chunk) is answered 411 within 1 s,
#     before any of its body is read.
# Closing line "files: N passed, N failed".
part=files
. tests/server/lib.sh
small=tests/golden/_inputs/memory.json
fix=examples/resnet_like.json.gz
start_server --max-upload 64K tests/golden/_inputs/steps.json
# ids URL-BODY: the ids listed in the last answer, in order, one line
ids() { sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body" | tr '\n' ' ' | sed 's/ $//'; }
upload() { status "${url}api/upload?name=$1" --data-binary @"$small"; }
# ---- eviction: ids 2..64 are uploads
i=2
while [ "$i" -le 64 ]; do
	got=$(upload "u$i.json")
	[ "$got" = 200 ] && [ "$(ids)" = "$i" ] || bad "upload $i: HTTP $got, ids $(ids)"
	i=$((i + 1))
done
ok
expect 200 "a use of upload 2" "${url}api/file/2/memory"
"$GPUPROF" memory --format json "$small" >"$tmp/want" 2>/dev/null
cmp -s "$tmp/want" "$tmp/body" && ok || bad "upload 2's memory differs from the CLI's"
expect 200 "upload 65 with the table full" "${url}api/upload?name=u65.json" --data-binary @"$small"
[ "$(ids)" = 65 ] && ok || bad "upload 65: answer lists $(ids)"
expect 200 "files after an eviction" "${url}api/files"
want="1 2$(seq -s ' ' 4 65 | sed 's/^/ /')"
[ "$(ids)" = "$want" ] && ok || bad "after evicting: ids $(ids), want $want"
expect 404 "the evicted upload" "${url}api/file/3/memory"
message "no file 3"
expect 200 "upload 66" "${url}api/upload?name=u66.json" --data-binary @"$small"
expect 404 "the next evicted (4: 2 was used after it)" "${url}api/file/4/memory"
expect 200 "upload 2 stays" "${url}api/file/2/memory"
# ---- DELETE
expect 200 "a cached answer" "${url}api/file/5/memory"
hit=$(curl -s -D - -o /dev/null "${url}api/file/5/memory" | tr -d '\r' | sed -n 's/^X-Gpuprof-Cache: //p')
[ "$hit" = hit ] && ok || bad "upload 5's memory not from the cache: '$hit'"
expect 200 "DELETE upload 5" "${url}api/file/5" -X DELETE
case " $(ids) " in *" 5 "*) bad "DELETE 5: still listed: $(ids)" ;; *" 1 "*) ok ;; *) bad "DELETE 5: answer lacks file 1: $(ids)" ;; esac
n=$(ids | wc -w)
[ "$n" = 63 ] && ok || bad "DELETE 5: $n files listed, want 63"
expect 404 "a removed file's cached view" "${url}api/file/5/memory"
message "no file 5"
expect 404 "DELETE it again" "${url}api/file/5" -X DELETE
message "no file 5"
expect 403 "DELETE from another site" "${url}api/file/6" -X DELETE -H "Origin: http://evil.example"
expect 200 "file 6 stays" "${url}api/file/6/memory"
expect 405 "DELETE /api/files" "${url}api/files" -X DELETE
expect 405 "DELETE a view" "${url}api/file/6/memory" -X DELETE
expect 400 "DELETE with a parameter" "${url}api/file/6?x=1" -X DELETE
message "DELETE takes no parameter 'x'"
expect 200 "DELETE the command line's file" "${url}api/file/1" -X DELETE
expect 404 "its views after" "${url}api/file/1/steps"
expect 200 "an upload after removals" "${url}api/upload?name=again.json" --data-binary @"$small"
[ "$(ids)" = 67 ] && ok || bad "upload after removals: id $(ids), want 67"
finish_files_server() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=; }
finish_files_server
# ---- removal while views of the file are computed
start_server "$fix"
for v in memory timeline trace annotations "summary?step=3" "ops?step=3"; do
	f=$(echo "$v" | tr '?=' '__')
	curl -s -o "$tmp/par-$f" -w '%{http_code}' "${url}api/file/1/$v" >"$tmp/par-$f.code" &
done
expect 200 "DELETE while views are computed" "${url}api/file/1" -X DELETE
wait_curls() { for _ in $(seq 1 100); do [ "$(cat "$tmp"/par-*.code | wc -c)" -ge 18 ] && return; sleep 0.1; done; }
wait_curls
echo "files: during DELETE: $(cd "$tmp" && for c in par-*.code; do printf "%s=%s " "${c%.code}" "$(cat "$c")"; done)"
"$GPUPROF" memory --format json "$fix" >"$tmp/want-memory" 2>/dev/null
"$GPUPROF" summary --step 3 --format json "$fix" >"$tmp/want-summary_step_3" 2>/dev/null
"$GPUPROF" ops --step 3 --format json "$fix" >"$tmp/want-ops_step_3" 2>/dev/null
for v in memory timeline trace annotations summary_step_3 ops_step_3; do
	code=$(cat "$tmp/par-$v.code")
	case $code in
	200)
		if [ -f "$tmp/want-$v" ]; then
			cmp -s "$tmp/want-$v" "$tmp/par-$v" && ok || bad "$v during DELETE: 200 but not the CLI's answer"
		else ok; fi ;;
	404) grep -qF "no file 1" "$tmp/par-$v" && ok || bad "$v during DELETE: 404 $(head -c 200 "$tmp/par-$v")" ;;
	*) bad "$v during DELETE: HTTP $code $(head -c 200 "$tmp/par-$v")" ;;
	esac
done
expect 200 "the server after" "${url}api/files"
[ -z "$(ids)" ] && ok || bad "files after DELETE: $(ids)"
finish_files_server
# ---- connections: the per-address cap, a huge declared chunk
start_server --max-upload 64K
port=$(echo "$url" | sed 's|.*:\([0-9]*\)/$|\1|')
line=$(python3 tests/server/conns.py "$port" 32)
echo "files: conns: $line"
v() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
[ "$(v over_cap)" = closed ] && ok || bad "the 33rd connection from 127.0.0.1 was kept ($line)"
[ "$(v other)" = 200 ] && ok || bad "127.0.0.2 not answered while 127.0.0.1 is at its cap ($line)"
[ "$(v after)" = 200 ] && ok || bad "127.0.0.1 not answered after its connections closed ($line)"
[ "$(v chunk_status)" = 411 ] && ok || bad "a chunked upload declaring 2^63-1 bytes: not a 411 ($line)"
awk -v t="$(v chunk_s)" 'BEGIN { exit !(t < 1) }' && ok ||
	bad "a chunked upload declaring 2^63-1 bytes: answered after 1 s ($line)"
expect 200 "the server after" "${url}api/files"
finish
