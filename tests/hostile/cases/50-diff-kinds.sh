# gpuprof diff of Nsight Systems analyses and Nsight Compute reports that
# try to break it (inputs made at test time by tests/hostile/diff_gen.py;
# python3 needed):
#  - 100,000 ranges and iterations on each side: matched in O(n log n);
#  - arrays nested 100,000 deep: refused at the depth cap, one line;
#  - a count past 2^63 and totals near 1e308: one line naming the entry
#    (they printed as -9223372036854775808 before the check);
#  - a 1 MB range name, values of the wrong types, an iteration index past
#    2^63: read as 0 or skipped, never a crash;
#  - 5,000 launches of one kernel and configuration: each its occurrence,
#    numbered in O(n log n).
if command -v python3 >/dev/null 2>&1; then
	dg() { python3 tests/hostile/diff_gen.py "$@"; }
	dg wide "$H_IN/wide.json" 100000
	h_keep r.csv
	h_case diff-nsys-wide 0 "" 20 \
		'"$GPUPROF" diff --format csv --table ranges "$H_IN/wide.json" "$H_IN/wide.json" -o "$H_OUT/r.csv" && test "$(grep -c ",same," "$H_OUT/r.csv")" -eq 100000'
	h_check diff-nsys-wide-exit1 sh -c '! "$GPUPROF" diff -q --fail-if "nsys.host_inclusive_ns>-1ns" "$H_IN/wide.json" "$H_IN/wide.json" >/dev/null'
	dg deep "$H_IN/deep.json" 100000
	h_case diff-nsys-deep 2 "deep\.json: .*(deeper|nest)" 5 \
		'"$GPUPROF" diff "$H_IN/deep.json" "$H_IN/deep.json" -o "$H_OUT/d.txt"'
	dg huge "$H_IN/huge.json"
	h_case diff-nsys-huge 2 "huge\.json: host_ranges\[0\]\.instances: expected a time or count under 2\^62" 5 \
		'"$GPUPROF" diff --format json "$H_IN/huge.json" "$H_IN/huge.json" -o "$H_OUT/h.json"'
	dg odd "$H_IN/odd.json"
	h_keep o.json
	h_case diff-nsys-odd 0 "" 5 \
		'"$GPUPROF" diff --format json "$H_IN/odd.json" "$H_IN/odd.json" -o "$H_OUT/o.json" && grep -q "\"iteration\": \"-1\"" "$H_OUT/o.json"'
	dg launches "$H_IN/many.ncu-rep" 5000
	h_keep l.csv
	h_case diff-ncu-many 0 "" 20 \
		'"$GPUPROF" diff --format csv --table launches "$H_IN/many.ncu-rep" "$H_IN/many.ncu-rep" -o "$H_OUT/l.csv" && grep -q "^\"tiny grid (4, 2, 1) block (128, 1, 1) #4999\",same," "$H_OUT/l.csv"'
fi
