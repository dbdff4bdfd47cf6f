# Synthetic fleets at their limits: 8,192 ranks with the full rank list in
# every call (legacy arguments), 100,000 collectives in a step, factors and
# counts past their bounds (refused before a file is made), and a summary
# of an 8,192-rank trace read back by dist.

# 8,192 ranks, 200 all-reduces, full rank lists (~48 KB each in every
# record_param_comms and kernel): about 20 MB, written and summarised fast
h_keep x.sum.json
h_case synth-8192-legacy 0 "" 10 \
	'"$GPUPROF" -q synth --ranks 8192 --rank 8191 --steps 1 --collectives 200 -o "$H_IN/x8192.json" && "$GPUPROF" -q rank-summary "$H_IN/x8192.json" -o "$H_OUT/x.sum.json"'
h_check synth-8192-legacy-world grep -q '"rank":8191,"world_size":8192' "$H_ROOT/out-synth-8192-legacy/x.sum.json"
h_case synth-8192-dist 0 "" 10 \
	'"$GPUPROF" -q dist --fleet --format csv --table balance "$H_ROOT/out-synth-8192-legacy/x.sum.json" >/dev/null'
# 100,000 collectives in one step of the tiny model: ~185 MB of JSON to a pipe
h_case synth-100k-collectives 0 "" 20 \
	'"$GPUPROF" -q synth --model tiny --ranks 2 --steps 1 --collectives 100000 -o - | wc -c >/dev/null'
# past the bounds: exit 2, one line (the usage hint that follows it
# dropped), nothing written
sf_usage() {
	"$GPUPROF" "$@" 2>"$H_ROOT/usage.err"
	sf_rc=$?
	grep -v "^Try 'gpuprof" "$H_ROOT/usage.err" >&2
	return $sf_rc
}
h_case synth-slow-link-huge 2 '^gpuprof: synth: --slow-link takes R:FACTOR' 2 \
	'sf_usage synth --ranks 4 --slow-link 1:1e999 -o "$H_OUT/x.json"'
h_case synth-slow-link-hex 2 '^gpuprof: synth: --slow-link takes R:FACTOR' 2 \
	'sf_usage synth --ranks 4 --slow-link 1:0x10 -o "$H_OUT/x.json"'
h_case synth-slow-link-rank-overflow 2 '^gpuprof: synth: --slow-link takes R:FACTOR' 2 \
	'sf_usage synth --ranks 4 --slow-link 99999999999999999999:2 -o "$H_OUT/x.json"'
h_case synth-collectives-overflow 2 '^gpuprof: synth: bad value for --collectives' 2 \
	'sf_usage synth --model tiny --collectives 99999999999999999999 -o "$H_OUT/x.json"'
h_case synth-ranks-8193 2 '^gpuprof: synth: --ranks must be 1\.\.8192' 2 \
	'sf_usage synth --ranks 8193 -o "$H_OUT/x.json"'
