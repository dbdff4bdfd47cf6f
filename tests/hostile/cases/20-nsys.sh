# Nsight Systems exports and run directories that try to break the readers
# (inputs made at test time by tests/hostile/nsys_gen.py; python3 needed).
#  - values near +-2^63 and values of the wrong type: exit 2, one line that
#    names the file, the table and rowid (or the CSV line) and what was
#    expected, never a wrapped total;
#  - 5,000 and 20,000 nested NVTX ranges (SQLite steps and a run directory's
#    CSV): the analysis is linear (a quadratic one took 2.6 s / 815 MB and
#    85 s / 12.8 GB, writing 2.5 GB), nesting past the scope cap is pooled
#    and warned about, the answer stays small;
#  - a 4 MB StringIds name shared by 1,000 kernels: read once (a copy per
#    row took 66 s / 3.9 GB), printed cut with an ellipsis;
#  - CSV errors name the line and column.
if command -v python3 >/dev/null 2>&1; then
	ng() { python3 tests/hostile/nsys_gen.py "$@"; }
	for w in kernel-max kernel-min kernel-text kernel-real nvtx-max nvtx-sum op-max; do
		ng big-int "$H_IN/$w.sqlite" "$w"
	done
	k=CUPTI_ACTIVITY_KIND_KERNEL
	h_case nsys-kernel-sum 2 "kernel-max\.sqlite: $k row 2: the durations of its group sum past 64 bits" 5 \
		'"$GPUPROF" nsys "$H_IN/kernel-max.sqlite" kernels -o "$H_OUT/k.txt"'
	h_case nsys-gpus-sum 2 "kernel-max\.sqlite: $k row 2: the durations of its group sum past 64 bits" 5 \
		'"$GPUPROF" nsys "$H_IN/kernel-max.sqlite" gpus -o "$H_OUT/g.txt"'
	h_case nsys-kernel-diff 2 "kernel-min\.sqlite: $k row 1: end - start does not fit 64 bits" 5 \
		'"$GPUPROF" nsys "$H_IN/kernel-min.sqlite" kernels -o "$H_OUT/k.txt"'
	h_case nsys-kernel-text 2 "kernel-text\.sqlite: $k row 1: end: expected an integer, found text" 5 \
		'"$GPUPROF" nsys "$H_IN/kernel-text.sqlite" gpus -o "$H_OUT/g.txt"'
	h_case nsys-kernel-real 2 "kernel-real\.sqlite: $k row 1: end: expected an integer, found a real" 5 \
		'"$GPUPROF" nsys "$H_IN/kernel-real.sqlite" kernels -o "$H_OUT/k.txt"'
	h_case nsys-nvtx-diff 2 "nvtx-max\.sqlite: NVTX_EVENTS row 3: end - start does not fit 64 bits" 5 \
		'"$GPUPROF" nsys "$H_IN/nvtx-max.sqlite" nvtx -o "$H_OUT/n.txt"'
	h_case nsys-nvtx-sum 2 "nvtx-sum\.sqlite: NVTX_EVENTS row 3: the durations of the ranges named as it sum past 64 bits" 5 \
		'"$GPUPROF" nsys "$H_IN/nvtx-sum.sqlite" nvtx -o "$H_OUT/n.txt"'
	h_case nsys-steps-sum 2 "nvtx-sum\.sqlite: NVTX_EVENTS row 3: its Duration does not fit the 64-bit total" 5 \
		'"$GPUPROF" nsys "$H_IN/nvtx-sum.sqlite" steps -o "$H_OUT/s.json"'
	h_case nsys-op-gtime 2 "kernel-max\.sqlite: NVTX_EVENTS row 1: the GPU time of the operations in the range sums past 64 bits" 5 \
		'"$GPUPROF" nsys "$H_IN/kernel-max.sqlite" steps -o "$H_OUT/s.json"'
	h_case nsys-op-diff 2 "op-max\.sqlite: $k row 1: end - start does not fit 64 bits" 5 \
		'"$GPUPROF" nsys "$H_IN/op-max.sqlite" nvtx -o "$H_OUT/n.txt"'
	ng big-run "$H_IN/bigrun"
	h_case nsys-csv-sum 2 "nsys_nvtx_pushpop_trace\.csv: line 4: its Duration does not fit the 64-bit total" 5 \
		'"$GPUPROF" nsys analyze --run-dir "$H_IN/bigrun" --from-csv'
	h_check "nsys-csv-sum: no analysis.json" test ! -e "$H_IN/bigrun/analysis.json"
	mkdir -p "$H_IN/badint/stats"
	cp "$H_IN/bigrun/manifest.yaml" "$H_IN/badint/"
	printf 'Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,TID,Lvl,NumChild,RangeId,ParentId\n0,1,1,0,1,":a\nb",1,1,0,0,1,\n0,1,1,0,1,:c,1,1,0,0,2\001\n' \
		>"$H_IN/badint/stats/nsys_nvtx_pushpop_trace.csv"
	: >"$H_IN/badint/stats/nsys_nvtx_gpu_proj_trace.csv"
	h_case nsys-csv-where 2 "column 'RangeId': '2\\\\x01' \(line 4, column 11\)" 5 \
		'"$GPUPROF" nsys analyze --run-dir "$H_IN/badint" --from-csv'
	# nested ranges: linear, pooled past the cap, warned, a small answer
	for n in 5000 20000; do
		ng nested-sqlite $n "$H_IN/n$n.sqlite"
		ng nested-run $n "$H_IN/run$n"
	done
	warn="warning: NVTX ranges nest deeper than the scope cap \(64 levels\); 19936 host ranges and 19936 GPU projections"
	h_keep s.json
	h_case nsys-nested-sqlite-20000 0 "$warn" 5 '"$GPUPROF" nsys "$H_IN/n20000.sqlite" steps -o "$H_OUT/s.json"'
	h_check "nsys-nested-sqlite: answer under 200 kB" test "$(wc -c <"$H_ROOT/out-nsys-nested-sqlite-20000/s.json")" -lt 200000
	# every range projects every operation: linear in ranges + operations
	# (visiting each operation once per enclosing range: 20,000 x 100,000, 3.9 s)
	ng nested-ops 20000 100000 "$H_IN/ops.sqlite"
	h_keep s.json
	h_case nsys-nested-ops 0 "$warn" 2 '"$GPUPROF" nsys "$H_IN/ops.sqlite" steps -o "$H_OUT/s.json"'
	h_check "nsys-nested-ops: the ranges project 100000 kernels" \
		grep -q '"gpu_operation_count": 100000' "$H_ROOT/out-nsys-nested-ops/s.json"
	h_check "nsys-nested-ops: projected total 100004 ns" \
		grep -q '"total_ns": 100004' "$H_ROOT/out-nsys-nested-ops/s.json"
	h_check "nsys-nested-ops: the pooled 19936 ranges count 19936 x 100000 operations" \
		grep -q '"gpu_operation_count": 1993600000' "$H_ROOT/out-nsys-nested-ops/s.json"
	h_case nsys-nested-csv-20000 0 "$warn" 5 '"$GPUPROF" nsys analyze --run-dir "$H_IN/run20000" --from-csv -q'
	h_check "nsys-nested-csv: answer under 200 kB" test "$(wc -c <"$H_IN/run20000/analysis.json")" -lt 200000
	h_check "nsys-nested-csv: pooled group of 19936" grep -q '"instances": 19936' "$H_IN/run20000/analysis.json"
	h_case nsys-nested-csv-5000 0 "4936 host ranges" 2 '"$GPUPROF" nsys analyze --run-dir "$H_IN/run5000" --from-csv -q'
	# a 4 MB kernel name, 1,000 rows: read once, printed cut
	ng long-name 4000000 "$H_IN/longname.sqlite"
	h_keep k.json
	h_case nsys-long-name 0 "" 5 '"$GPUPROF" nsys "$H_IN/longname.sqlite" kernels --format json -o "$H_OUT/k.json"'
	h_check "nsys-long-name: answer under 10 kB" test "$(wc -c <"$H_ROOT/out-nsys-long-name/k.json")" -lt 10000
	h_check "nsys-long-name: cut with an ellipsis" grep -q 'kkkk…"' "$H_ROOT/out-nsys-long-name/k.json"
	h_check "nsys-long-name: 1000 instances" grep -q '"instances": 1000' "$H_ROOT/out-nsys-long-name/k.json"
else
	h_bad "nsys cases: python3 is needed"
fi
