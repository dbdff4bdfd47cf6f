# `gpuprof critical-path` and its overlay under hostile input: no such
# annotation or instance, a bad --data-load regex, a graph HTA refuses (a
# stream wait between kernels of one stream), an instance without events,
# a deep call stack, a long step of overlapping launches. Each refusal is
# one line, exit 2, nothing written; the large ones stay within seconds.
fix=tests/hta/fixtures/critpath-cpu.json
h_case cp-no-annotation 2 'critpath-cpu\.json: no event of the annotation "nope" \(see --annotation\)$' 5 \
	'"$GPUPROF" -q critical-path --annotation nope "$fix"'
h_case cp-no-instance 2 'annotation "ProfilerStep" has 1 instance\(s\); --instance 7 is not one$' 5 \
	'"$GPUPROF" -q critical-path --instance 7 "$fix"'
h_case cp-negative-instance 2 'instance' 5 \
	'"$GPUPROF" -q critical-path --instance -1 "$fix" 2>&1 | head -1 >&2; exit 2'
h_case cp-huge-instance 2 'instance' 5 \
	'"$GPUPROF" -q critical-path --instance 99999999999999999999999 "$fix" 2>&1 | head -1 >&2; exit 2'
h_case cp-bad-regex 2 '^gpuprof: critical-path: --data-load: "\(" is not a regular expression$' 5 \
	'"$GPUPROF" -q critical-path --data-load "(" "$fix" 2>&1 | head -1 >&2; exit 2'
h_case cp-overlay-no-annotation 2 'no event of the annotation "nope"' 5 \
	'"$GPUPROF" -q trace overlay critical-path "$fix" --annotation nope -o "$H_OUT/o.json"'
# a stream wait whose waiting stream is the recorded one: a sync edge
# between kernels of one stream, which HTA refuses
${PYTHON:-/usr/bin/python3} - "$H_IN" <<'EOF'
import json, sys
d = sys.argv[1]
def X(cat, name, tid, ts, dur, pid=100, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur, "args": a}
same = [X("user_annotation", "ProfilerStep#1", 1, 1000, 300),
        X("cuda_runtime", "cudaLaunchKernel", 1, 1010, 4, correlation=1),
        X("cuda_runtime", "cudaEventRecord", 1, 1016, 2, correlation=2),
        X("cuda_runtime", "cudaStreamWaitEvent", 1, 1022, 2, correlation=3),
        X("cuda_runtime", "cudaLaunchKernel", 1, 1026, 4, correlation=4),
        X("kernel", "a", 7, 1020, 100, pid=0, stream=7, device=0, correlation=1),
        X("cuda_sync", "Stream Wait Event", 7, 1025, 1, pid=0, stream=7, device=0, correlation=3,
          wait_on_stream=7, wait_on_cuda_event_record_corr_id=2),
        X("kernel", "b", 7, 1125, 25, pid=0, stream=7, device=0, correlation=4)]
json.dump({"traceEvents": same}, open(d + "/same-stream.json", "w"))
# an instance whose window holds no node event
json.dump({"traceEvents": [X("user_annotation", "ProfilerStep#1", 1, 1000, 10)]},
          open(d + "/empty-step.json", "w"))
# 10000 nested operators, then 20000 overlapping launches on two threads
deep = [X("user_annotation", "ProfilerStep#1", 1, 1000, 10**6)]
deep += [X("cpu_op", "aten::op%d" % i, 1, 1001 + i, 20000 - 2 * i) for i in range(10000)]
with open(d + "/deep.json", "w") as f:
    json.dump({"traceEvents": deep}, f)
wide = [X("user_annotation", "ProfilerStep#1", 1, 1000, 10**7)]
for i in range(20000):
    wide.append(X("cuda_runtime", "cudaLaunchKernel", 1 + i % 2, 1001 + 100 * i, 150, correlation=i + 1))
    wide.append(X("kernel", "k", 7, 1100 + 100 * i, 90, pid=0, stream=7, device=0, correlation=i + 1))
with open(d + "/wide.json", "w") as f:
    json.dump({"traceEvents": wide}, f)
EOF
h_case cp-same-stream-sync 2 'same-stream\.json: a synchronization edge between kernels of stream 7: HTA refuses such a graph$' 5 \
	'"$GPUPROF" -q critical-path "$H_IN/same-stream.json"'
h_case cp-overlay-same-stream 2 'HTA refuses such a graph$' 5 \
	'"$GPUPROF" -q trace overlay critical-path "$H_IN/same-stream.json" -o "$H_OUT/o.json"'
h_keep e.json
h_case cp-empty-step 0 '' 5 \
	'"$GPUPROF" -q critical-path --format json "$H_IN/empty-step.json" >"$H_OUT/e.json"'
h_check cp-empty-step-no-path ${PYTHON:-/usr/bin/python3} -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["critical_path"]; assert (c["nodes"], c["path_nodes"], d["path"], d["summary"]) == (0, 0, [], []), c' "$H_ROOT/out-cp-empty-step/e.json"
# the deep stack: one chain of operator edges, 20000 nodes on the path
h_keep d.json
h_case cp-deep 0 '' 10 \
	'"$GPUPROF" -q critical-path --format json "$H_IN/deep.json" >"$H_OUT/d.json"'
h_check cp-deep-path ${PYTHON:-/usr/bin/python3} -c 'import json,sys; c=json.load(open(sys.argv[1]))["critical_path"]; assert (c["nodes"], c["path_nodes"]) == (20000, 20000), c' "$H_ROOT/out-cp-deep/d.json"
h_case cp-wide 0 '' 10 \
	'"$GPUPROF" -q critical-path --table graph "$H_IN/wide.json" >/dev/null'
h_keep w.json.gz
h_case cp-wide-overlay 0 '' 10 \
	'"$GPUPROF" -q trace overlay critical-path --all-edges "$H_IN/wide.json" -o "$H_OUT/w.json.gz"'
h_case cp-wide-overlay-back 0 '' 10 \
	'"$GPUPROF" -q critical-path --table critical_path "$H_ROOT/out-cp-wide-overlay/w.json.gz" >/dev/null'
