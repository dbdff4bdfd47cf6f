# `gpuprof counters` and `trace overlay counters` under hostile input: a
# queue 100,000 launches deep, bandwidth args that are strings, null or
# overflow to infinity, an overlay into a missing folder, a file that is not
# a trace. Each refusal is one line, exit 2, nothing written.

# 100,000 cudaLaunchKernel at 0..99,999 us, then their kernels on stream 7 at
# 200,000 + i us: the queue climbs to 100,000 and back to 0. At >= 1024 from
# the launch at 1,023 us (length 1,024) to the kernel at 298,975 us (length
# 1,024), which lasts to the next point at 298,976: 297,953 us blocked of the
# trace's 299,999 us (latest minus earliest ts)
awk 'BEGIN {
	printf "{\"traceEvents\": [\n"
	n = 100000
	for (i = 0; i < n; i++)
		printf "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1,\"args\":{\"correlation\":%d}},\n", i, i + 1
	for (i = 0; i < n; i++)
		printf "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":1,\"args\":{\"stream\":7,\"correlation\":%d}}%s\n", 200000 + i, i + 1, i + 1 < n ? "," : ""
	printf "]}\n"
}' >"$H_IN/deep.json"
h_keep b.csv
h_case counters-deep-queue 0 "" 10 \
	'"$GPUPROF" -q counters --table blocked --format csv "$H_IN/deep.json" -o "$H_OUT/b.csv"'
h_check counters-deep-queue-blocked grep -qx '0,7,297953000,0.9931799772665909' "$H_ROOT/out-counters-deep-queue/b.csv"
h_keep q.csv
h_case counters-deep-queue-max 0 "" 10 \
	'"$GPUPROF" -q counters --table queue_length --format csv "$H_IN/deep.json" -o "$H_OUT/q.csv"'
# 200,000 points: 1..100,000 then 99,999..0, mean 50,000, max 100,000
h_check counters-deep-queue-describe grep -q '^0,7,200000,50000,.*,0,.*,100000$' "$H_ROOT/out-counters-deep-queue-max/q.csv"

# bandwidth args: a string and null (no value: NaN points, nothing added),
# two 1e308 copies overlapping (their sum overflows to inf): the tables
# write null for what is not finite, the overlay leaves those points out and
# stays valid JSON
cat >"$H_IN/bw.json" <<'EOF'
{"traceEvents": [
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":10,"dur":1,"args":{"correlation":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":11,"dur":1,"args":{"correlation":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":12,"dur":1,"args":{"correlation":3}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":13,"dur":1,"args":{"correlation":4}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":20,"dur":5,"args":{"stream":7,"correlation":1,"memory bandwidth (GB/s)":"fast"}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":20,"dur":5,"args":{"stream":7,"correlation":2,"memory bandwidth (GB/s)":null}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":20,"dur":5,"args":{"stream":7,"correlation":3,"memory bandwidth (GB/s)":1e308}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":8,"ts":21,"dur":5,"args":{"stream":8,"correlation":4,"memory bandwidth (GB/s)":1e308}}
]}
EOF
h_keep s.json
h_case counters-bad-bandwidth 0 "" 5 \
	'"$GPUPROF" -q counters --series --format json "$H_IN/bw.json" -o "$H_OUT/s.json"'
# the series of Memcpy HtoD: null, null (no value), 1e308, inf (null), then
# the ends: null, null, inf, inf
h_check counters-bad-bandwidth-series ${PYTHON:-/usr/bin/python3} -c 'import json,sys; d=json.load(open(sys.argv[1])); v=[r["memory_bw_gbps"] for r in d["bw_series"]]; assert v == [None, None, 1e308, None, None, None, None, None], v' "$H_ROOT/out-counters-bad-bandwidth/s.json"
h_keep o.json
h_case counters-overlay-bad-bandwidth 0 "" 5 \
	'"$GPUPROF" -q trace overlay counters "$H_IN/bw.json" -o "$H_OUT/o.json"'
# strict JSON (no NaN nor Infinity), the 8 events then 6 queue points and
# the one finite bandwidth point
h_check counters-overlay-valid ${PYTHON:-/usr/bin/python3} -c 'import json,sys
def bad(x): raise ValueError(x)
d=json.load(open(sys.argv[1]), parse_constant=bad); e=d["traceEvents"]
assert len(e) == 8 + 8 + 1, len(e)
assert e[-1] == {"pid": 0, "ts": 20, "args": {"Memcpy BW": 1e308}, "ph": "C", "name": "Memcpy HtoD"}, e[-1]' "$H_ROOT/out-counters-overlay-bad-bandwidth/o.json"

# an overlay into a folder that does not exist: one line, nothing written
h_case counters-overlay-no-folder 2 'no-such-dir/o\.json' 5 \
	'"$GPUPROF" -q trace overlay counters "$H_IN/bw.json" -o "$H_OUT/no-such-dir/o.json"'
# not a trace
printf 'PK\003\004 not a trace' >"$H_IN/zip.json"
h_case counters-not-a-trace 2 'zip\.json' 5 \
	'"$GPUPROF" counters "$H_IN/zip.json"'
