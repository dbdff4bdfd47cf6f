# `gpuprof sequences` and `trace overlay sequences` under hostile input: bad
# option values, a trace of device events only, 100,000 events nested in
# one another on a thread, 100,000 that overlap their predecessor (HTA's
# stack then never pops its own event), one operator launching 20,000
# kernels with long names (its pattern is 4 MB: the overlay would put it
# on 40,001 events and refuses in one line, writing nothing).
fix=tests/hta/fixtures/sequences.json
h_case seq-min-length-zero 2 "^gpuprof: sequences: --min-length needs a count of at least 1, not '0'$" 5 \
	'"$GPUPROF" sequences --min-length 0 "$fix" 2>&1 | head -1 >&2; exit 2'
h_case seq-empty-operator 2 '^gpuprof: sequences: --operator needs an operator name \(or none: the steps\)$' 5 \
	'"$GPUPROF" sequences --operator "" "$fix" 2>&1 | head -1 >&2; exit 2'
awk 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < 1000; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 1, \"args\": {\"stream\": 7, \"correlation\": %d}}", i ? ",\n" : "", i * 2, i
	printf "\n]}\n" }' >"$H_IN/device-only.json"
h_case seq-device-only 0 '' 5 \
	'"$GPUPROF" -q sequences --format json "$H_IN/device-only.json" | grep -q "\"instances\": 0"'
# nested: op i holds op i+1 (ts i, dur 2n - 2i), the innermost launches a kernel
awk -v n=100000 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < n; i++)
		printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op%d\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": %d},\n", i, i, 2 * n - 2 * i
	printf "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1, \"args\": {\"correlation\": 1}},\n", n
	printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 1, \"args\": {\"stream\": 7, \"correlation\": 1}}\n]}\n", n + 2 }' >"$H_IN/deep.json"
h_case seq-deep 0 '' 20 \
	'"$GPUPROF" -q sequences --operator op99999 --min-length 1 --format csv --table summary "$H_IN/deep.json" | tr "\n" " " | grep -q "depth,99999 instances,1 "'
# each op starts inside the previous one and ends after it
awk -v n=100000 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < n; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 3}", i ? ",\n" : "", 2 * i
	printf "\n]}\n" }' >"$H_IN/overlap.json"
h_case seq-overlap 0 '' 20 \
	'"$GPUPROF" -q sequences --operator op --min-length 1 --format csv --table summary "$H_IN/overlap.json" | grep -qx "candidates,100000"'
awk -v n=20000 'BEGIN { pad = sprintf("%0200d", 0); printf "{\"traceEvents\": [\n"
	printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::big\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": %d}", 10 * n + 10
	for (i = 0; i < n; i++) {
		printf ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1, \"args\": {\"correlation\": %d}}", 10 * i + 1, i + 1
		printf ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"kernel_%d_%s\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 1, \"args\": {\"stream\": 7, \"correlation\": %d}}", i % 7, pad, 10 * i + 5, i + 1
	}
	printf "\n]}\n" }' >"$H_IN/big.json"
h_case seq-big-pattern 0 '' 20 \
	'"$GPUPROF" -q sequences --operator aten::big --format csv --table summary "$H_IN/big.json" | grep -qx "instances,1"'
h_case seq-overlay-too-large 2 'big\.json: the Patterns args would add over 256 MiB .*--top.*--operator$' 20 \
	'"$GPUPROF" -q trace overlay sequences --operator aten::big "$H_IN/big.json" -o "$H_OUT/o.json"'
