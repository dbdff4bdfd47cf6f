# Fidelity round 2: the readers' new paths on inputs made to break them.
#  - an Nsight Compute report whose legacy duration (gpu__time_duration) is
#    1e300: the kernel table leaves the cell empty (no wrapped integer);
#  - a trace of 60,000 tracks (20,000 threads named by string tids in their
#    events and by integer tids in flow events, 20,000 known only from
#    thread_name metadata): info merges and counts them in O(n log n);
#  - an Nsight Systems export with nothing captured: every table view exits
#    0 with an empty table and one note.
if command -v python3 >/dev/null 2>&1; then
	python3 - "$H_IN/legacy-huge.ncu-rep" <<'PY'
import sys
sys.path.insert(0, "tests/ncu")
import mkreport as m
for x in m.LEGACY:
    if x not in m.STRINGS:
        m.STRINGS.append(x)
k = m.launch(dur_name="gpu__time_duration", sm_name="sm__sol_pct", dur=1e300, sm=float("nan"), rules=())
open(sys.argv[1], "wb").write(m.report([k]))
PY
	h_keep l.csv
	h_case ncu-legacy-huge 0 "" 5 '"$GPUPROF" --format csv ncu list "$H_IN/legacy-huge.ncu-rep" -o "$H_OUT/l.csv"'
	h_check "ncu-legacy-huge: duration and SM % empty" \
		test "$(sed -n 2p "$H_ROOT/out-ncu-legacy-huge/l.csv" | sed 's/"[^"]*"//g' | cut -d, -f6,7)" = ","
	python3 - "$H_IN/threads.json" <<'PY'
import json, sys
n = 20000
ev = []
for i in range(n):
    ev.append({"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": str(i), "ts": i, "dur": 1})
    ev.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": i, "pid": 1, "tid": i, "ts": i})
    ev.append({"ph": "M", "name": "thread_name", "pid": 1, "tid": n + i, "args": {"name": "idle"}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
	h_keep t.csv
	# 0.15 s in the release build, 0.5 s under the sanitizers
	h_case info-60000-tracks 0 "" 10 '"$GPUPROF" --format csv --table trace info "$H_IN/threads.json" -o "$H_OUT/t.csv"'
	h_check "info-60000-tracks: 20000 threads with events" \
		grep -qx "threads,20000" "$H_ROOT/out-info-60000-tracks/t.csv"
	python3 -c "import sys; sys.path.insert(0, 'tests/nsys'); import check_sqlite as c; c.make_bare(sys.argv[1], 'META_DATA_EXPORT', '2024.1')" \
		"$H_IN/bare.sqlite"
	for v in kernels memcpy api nvtx gpus; do
		h_keep "$v.csv"
		h_case "nsys-bare-$v" 0 "the export has no .* table" 5 \
			'"$GPUPROF" --format csv nsys "$H_IN/bare.sqlite" '"$v"' -o "$H_OUT/'"$v"'.csv"'
	done
else
	h_bad "fidelity2 cases: python3 is needed"
fi
