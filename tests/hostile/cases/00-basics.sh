# Baseline cases: inputs that are missing or not what they claim to be.
h_case missing-input 2 "no-such\.json: cannot open" 5 \
	'"$GPUPROF" summary "$H_IN/no-such.json" -o "$H_OUT/s.txt"'
printf 'not a profile at all\n' >"$H_IN/words.txt"
h_case not-a-profile 2 "words\.txt" 5 '"$GPUPROF" summary "$H_IN/words.txt" -o "$H_OUT/s.txt"'
# a success leaves exactly the file asked for
h_keep s.txt
h_case summary-ok 0 "" 10 '"$GPUPROF" summary examples/resnet_like.json.gz -o "$H_OUT/s.txt"'
