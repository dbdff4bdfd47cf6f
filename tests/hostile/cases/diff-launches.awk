# One step and n launches of kernel "k" lasting (i * m mod 97) + 1 us
# (tests/hostile/cases/33-diff-sets.sh).
BEGIN {
	printf "{\"traceEvents\": [\n"
	printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": %d}", n * 2 + 10
	for (i = 0; i < n; i++)
		printf ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": %d, \"args\": {\"device\": 0}}", i * 2, (i * m) % 97 + 1
	printf "\n]}\n"
}
