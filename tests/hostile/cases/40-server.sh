# The server under slow clients (tests/hostile/slowloris.py): 70
# connections from 127.0.0.1 sending a request head one byte a second.
# The server keeps 32 of them (its cap per client address; the others are
# closed at once), answers a client at another address (127.0.0.2) within
# 1 s all along, and closes the slow ones at its request deadline
# (--request-timeout 3 here: between 3 s and 3 s plus its watchdog's
# period of 0.75 s, with 0.5 s of slack).
# h_serve ARGS...: `gpuprof serve -q --port 0 ARGS` in the background;
# h_srv_pid and h_srv_port, or h_srv_port empty when it did not start.
h_serve() {
	: >"$H_ROOT/serve.out"
	"$GPUPROF" serve -q --port 0 "$@" >"$H_ROOT/serve.out" 2>"$H_ROOT/serve.err" &
	h_srv_pid=$!
	h_srv_port=
	for _ in $(seq 1 100); do
		h_srv_port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$H_ROOT/serve.out")
		[ -n "$h_srv_port" ] && break
		kill -0 "$h_srv_pid" 2>/dev/null || break
		sleep 0.1
	done
}
h_serve --request-timeout 3
h_check "serve started: $(cat "$H_ROOT/serve.err")" test -n "$h_srv_port"
if [ -n "$h_srv_port" ]; then
	h_case slowloris 0 "" 12 'python3 tests/hostile/slowloris.py "$h_srv_port" 70 3'
	sl=$(cat "$H_ROOT/stdout")
	echo "hostile: slowloris: $sl"
	v() { echo "$sl" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
	h_check "slowloris: 32 kept, 38 refused ($sl)" test "$(v kept) $(v refused)" = "32 38"
	h_check "slowloris: every normal request answered ($sl)" test "$(v asked)" -ge 5 -a "$(v answered)" = "$(v asked)"
	h_check "slowloris: the slowest normal answer within 1 s ($sl)" \
		awk -v w="$(v worst)" 'BEGIN { exit !(w < 1.0) }'
	h_check "slowloris: slow connections closed at the 3 s deadline ($sl)" \
		awk -v a="$(v closed_min)" -v b="$(v closed_max)" \
		'BEGIN { exit !(a != "never" && b != "never" && a >= 2.9 && b <= 4.25) }'
	# their slots are free again: a client at the same address is answered
	h_check "slowloris: 127.0.0.1 answered after the deadline" \
		sh -c "curl -s -m 2 -o /dev/null -w '%{http_code}' http://127.0.0.1:$h_srv_port/api/files | grep -qx 200"
	kill "$h_srv_pid" 2>/dev/null
	wait "$h_srv_pid" 2>/dev/null
fi
# A report's kernel= regexes that regcomp expands to gigabytes or compiles
# for minutes (found by fuzz_http_query: stacked repetitions; optional parts
# nested deep, then repeated): a 400 at once each, and the server answers on.
h_serve tests/golden/_inputs/tiny.ncu-rep
h_check "serve a report: $(cat "$H_ROOT/serve.err")" test -n "$h_srv_port"
if [ -n "$h_srv_port" ]; then
	for rx in "(a(a$(printf '%%2B%.0s' $(seq 1 120))*)*b|a repetition directly after another" \
		"a$(printf '%%3F%.0s' $(seq 1 37))%2B%2B%2B%2B%2B|a repetition directly after another" \
		"$(printf '(%.0s' $(seq 1 16))a$(printf ')%%3F%.0s' $(seq 1 16))%2B|repetitions nested more than 4 deep"; do
		why=${rx#*|}
		rx=${rx%%|*}
		t0=$(h_now)
		code=$(curl -s -m 10 -o "$H_ROOT/rx.json" -w '%{http_code}' "http://127.0.0.1:$h_srv_port/api/file/1/ncu/list?kernel=$rx")
		took=$(h_elapsed "$t0")
		h_check "kernel= $why: 400 ($code $(head -c 200 "$H_ROOT/rx.json"))" test "$code" = 400
		h_check "kernel= $why: the message" \
			grep -qF "kernel: regular expression too complex ($why)" "$H_ROOT/rx.json"
		h_check "kernel= $why: answered within 1 s (took $took s)" \
			awk -v t="$took" 'BEGIN { exit !(t < 1.0) }'
	done
	h_check "kernel= refused: the server answers on" \
		sh -c "curl -s -m 2 -o /dev/null -w '%{http_code}' http://127.0.0.1:$h_srv_port/api/file/1/ncu/list | grep -qx 200"
	kill "$h_srv_pid" 2>/dev/null
	wait "$h_srv_pid" 2>/dev/null
fi
