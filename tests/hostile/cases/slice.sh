# `gpuprof trace slice|merge` under hostile input: a truncated trace (sliced
# up to its last whole event, a note, a valid trace), a window holding no
# event, bad --from/--to values, standard input, merge of a file that is
# not a trace, a deep and a large trace. Each refusal is one line, exit 2, nothing
# written.
fix=tests/slice/rank0.json
# cut inside the events: what is whole is written, the arrays and object
# are closed, and gpuprof reads it back
head -c 1900 "$fix" >"$H_IN/cut.json"
h_keep cut.json
h_case slice-truncated 0 'note: .*cut\.json: the trace is cut short; the slice ends with its last whole event' 5 \
	'"$GPUPROF" trace slice "$H_IN/cut.json" --from 1000 --to 1100 -o "$H_OUT/cut.json" 2>&1 | grep -v "input anomal" >&2'
# the 11 whole events before the cut (byte 1900, inside the 12th event):
# the 4 metadata events, the global instant, ProfilerStep#1, nccl:all_reduce,
# the launch, its kernel and its two flow events; all in [1000, 1100)
h_check slice-truncated-valid ${PYTHON:-/usr/bin/python3} -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["traceEvents"]) == 11, len(d["traceEvents"]); assert d["traceEvents"][6]["args"]["Collective name"] == "allreduce"' "$H_ROOT/out-slice-truncated/cut.json"
# a window holding no event: exit 2, one line, nothing written
h_case slice-empty-window 2 'rank0\.json: the window holds no events$' 5 \
	'"$GPUPROF" trace slice "$fix" --from 1130 --to 1140 -o "$H_OUT/e.json"'
h_case slice-empty-after-end 2 'rank0\.json: the window holds no events$' 5 \
	'"$GPUPROF" trace slice "$fix" --from 10s -o "$H_OUT/e.json"'
# bad times
h_case slice-bad-from 2 "^gpuprof: trace: --from takes trace µs .* not 'abc'$" 5 \
	'"$GPUPROF" trace slice "$fix" --from abc --to 1100 -o "$H_OUT/e.json" 2>&1 | head -1 >&2; exit ${PIPESTATUS:-2}'
h_case slice-bad-to-unit 2 "^gpuprof: trace: --to takes trace µs .* not '5parsecs'$" 5 \
	'"$GPUPROF" trace slice "$fix" --from 1000 --to 5parsecs -o "$H_OUT/e.json" 2>&1 | head -1 >&2; exit 2'
h_case slice-to-before-from 2 '^gpuprof: trace: --to must be after --from$' 5 \
	'"$GPUPROF" trace slice "$fix" --from 1100 --to 1000 -o "$H_OUT/e.json" 2>&1 | head -1 >&2; exit 2'
h_case slice-huge-time 2 "^gpuprof: trace: --from takes trace µs .* not '99999999999999999999999'$" 5 \
	'"$GPUPROF" trace slice "$fix" --from 99999999999999999999999 -o "$H_OUT/e.json" 2>&1 | head -1 >&2; exit 2'
h_case slice-stdin 2 '^gpuprof: trace: slice reads its file twice: give a file, not standard input$' 5 \
	'"$GPUPROF" trace slice - --step 1 -o "$H_OUT/e.json" <"$fix" 2>&1 | head -1 >&2; exit 2'
# merge of a file that is not a trace: the registry's one line
printf 'SQLite format 3\000' >"$H_IN/db.sqlite"
head -c 4096 /dev/urandom >>"$H_IN/db.sqlite"
h_case merge-not-trace 2 'db\.sqlite.*not a PyTorch trace' 5 \
	'"$GPUPROF" trace merge "$fix" "$H_IN/db.sqlite" -o "$H_OUT/m.json"'
printf 'hello' >"$H_IN/hello.txt"
h_case merge-text 2 'hello\.txt.*expected a trace' 5 \
	'"$GPUPROF" trace merge "$H_IN/hello.txt" "$fix" -o "$H_OUT/m.json.gz"'
h_case merge-missing 2 'nope\.json' 5 \
	'"$GPUPROF" trace merge "$fix" "$H_IN/nope.json" -o "$H_OUT/m.json"'
# deeply nested args (the reader's depth limit is 256) and 200,000 events:
# sliced in well under the bound
{
	printf '{"traceEvents": [{"ph": "X", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000000, "args": {"deep": '
	i=0; while [ $i -lt 200 ]; do printf '['; i=$((i + 1)); done
	i=0; while [ $i -lt 200 ]; do printf ']'; i=$((i + 1)); done
	printf '}}'
	yes ', {"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 5, "dur": 1}' | head -n 200000
	printf ']}'
} >"$H_IN/big.json"
h_keep big-step.json.gz
h_case slice-large 0 '' 20 \
	'"$GPUPROF" -q trace slice "$H_IN/big.json" --from 0 --to 1000 -o "$H_OUT/big-step.json.gz"'
h_check slice-large-events sh -c '[ "$(gzip -dc "$1" | grep -c "\"name\": \"op\"")" = 200000 ]' sh "$H_ROOT/out-slice-large/big-step.json.gz"
