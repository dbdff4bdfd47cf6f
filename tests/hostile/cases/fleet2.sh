# Bad rank summaries of version 2: each refused with exit 2 and one line
# naming the file and the byte of the value at fault, nothing written,
# quickly; and a summary whose sequence numbers span far more than its
# calls (an honest but odd one) neither blows up memory nor time.
f2=tests/fleet/fixtures/input_0.pt.trace.json
"$GPUPROF" -q rank-summary "$f2" -o "$H_IN/v2.json" 2>/dev/null
"$GPUPROF" -q rank-summary tests/fleet/fixtures/input_1.pt.trace.json -o "$H_IN/v2b.json" 2>/dev/null
# the fixture's one call: group 0 (of 1), seq 7
sed 's/"group":0,/"group":1,/' "$H_IN/v2.json" >"$H_IN/group-range.json"
h_case fleet2-group-out-of-range 2 'group-range\.json: byte [0-9]+: group: 1 is out of range' 5 \
	'"$GPUPROF" dist --fleet "$H_IN/group-range.json" -o "$H_OUT/x.txt"'
sed 's/"group":0,/"group":-1,/' "$H_IN/v2.json" >"$H_IN/group-neg.json"
h_case fleet2-group-negative 2 'group-neg\.json: byte [0-9]+: group: -1 is out of range' 5 \
	'"$GPUPROF" dist "$H_IN/group-neg.json" -o "$H_OUT/x.txt"'
sed 's/"group":0,/"group":"0",/' "$H_IN/v2.json" >"$H_IN/group-str.json"
h_case fleet2-group-string 2 'group-str\.json: byte [0-9]+: group: expected an integer' 5 \
	'"$GPUPROF" dist "$H_IN/group-str.json" -o "$H_OUT/x.txt"'
# a second call of the group numbered 9 after 7: a gap
sed 's/^\({"name":0,.*\)"seq":7\(.*\)}\],$/\1"seq":7\2},\n\1"seq":9\2}],/' "$H_IN/v2.json" >"$H_IN/seq-gap.json"
h_case fleet2-seq-gap 2 'seq-gap\.json: byte [0-9]+: collectives\[\]: seq 9 in group .0. where 8 was due' 5 \
	'"$GPUPROF" dist --fleet "$H_IN/seq-gap.json" -o "$H_OUT/x.txt"'
sed 's/"seq":7/"seq":-7/' "$H_IN/v2.json" >"$H_IN/seq-neg.json"
h_case fleet2-seq-negative 2 'seq-neg\.json: byte [0-9]+: seq: -7 is out of range' 5 \
	'"$GPUPROF" dist "$H_IN/seq-neg.json" -o "$H_OUT/x.txt"'
sed 's/"group":0,//' "$H_IN/v2.json" >"$H_IN/seq-nogroup.json"
h_case fleet2-seq-without-group 2 'seq-nogroup\.json: byte [0-9]+: collectives\[\]: a seq needs the call.s group' 5 \
	'"$GPUPROF" dist "$H_IN/seq-nogroup.json" -o "$H_OUT/x.txt"'
sed 's/"input":[0-9]*,//' "$H_IN/v2.json" >"$H_IN/lead.json"
h_case fleet2-lead-incomplete 2 'lead\.json: byte [0-9]+: collectives\[\]: compute, input and idle come together' 5 \
	'"$GPUPROF" dist "$H_IN/lead.json" -o "$H_OUT/x.txt"'
sed 's/^"groups":\[/"groupz":[/' "$H_IN/v2.json" >"$H_IN/nogroups.json"
h_case fleet2-no-groups 2 'nogroups\.json: .*(needs "groups"|"groups" must come first)' 5 \
	'"$GPUPROF" dist "$H_IN/nogroups.json" -o "$H_OUT/x.txt"'
sed 's/"kernels":{/"kernels":[{/; s/"types":{\([^}]*\)}}/"types":{\1}}]/' "$H_IN/v2.json" >"$H_IN/kernels.json"
h_case fleet2-kernels-array 2 'kernels\.json: byte [0-9]+: kernels: expected an object' 5 \
	'"$GPUPROF" dist "$H_IN/kernels.json" -o "$H_OUT/x.txt"'
sed 's/^"memory":\[\]/"memory":[{"device":"cpu","peak_allocated":1.5,"peak_reserved":null}]/' "$H_IN/v2.json" >"$H_IN/peak.json"
h_case fleet2-peak-float 2 'peak\.json: byte [0-9]+: memory\[\] peak: expected an integer' 5 \
	'"$GPUPROF" dist "$H_IN/peak.json" -o "$H_OUT/x.txt"'
sed 's/"gpu_busy":\[{"gpu":0,"busy":[0-9]*}\]/"gpu_busy":[{"gpu":0,"busy":-1}]/' "$H_IN/v2.json" >"$H_IN/busy.json"
h_case fleet2-busy-negative 2 'busy\.json: byte [0-9]+: a time or count: -1 is out of range' 5 \
	'"$GPUPROF" dist "$H_IN/busy.json" -o "$H_OUT/x.txt"'
# two ranks whose one call's numbers are 2^61 apart: instances by call
# number (the span is not the calls'), at once
sed 's/"seq":7/"seq":2305843009213693952/' "$H_IN/v2b.json" >"$H_IN/seq-far.json"
h_case fleet2-seq-far 0 '' 5 \
	'"$GPUPROF" -q dist --fleet --format csv --table skew "$H_IN/v2.json" "$H_IN/seq-far.json" >"$H_IN/far.csv"'
h_check "fleet2-seq-far: one instance of both ranks, call 0" grep -q '^allreduce,0,0,1,2,' "$H_IN/far.csv"
