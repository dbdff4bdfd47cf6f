#!/bin/sh
# `gpuprof rank-summary --merge`: merges group in any way and order to the
# same bytes ((a+b)+c = a+(b+c) = c+(a+b) = one flat merge), keep every
# worker object as its input holds it, and `gpuprof dist` over a merge
# prints what it prints over the parts (in rank order) and over the
# traces. A worker or rank given twice, bad input and misuse: exit 2, one
# line (and the usage hint), nothing written. The Slurm recipe's scripts pass `sh -n`.
# The closing line is "fleetmerge: N passed, N failed".
set -u
root=$(pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL fleetmerge: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-merge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case $GPUPROF in /*) G=$GPUPROF ;; *) G=$root/$GPUPROF ;; esac

# 6 synthetic ranks: traces t<r>.pt.trace.json, summaries s<r>.json
cd "$tmp" || exit 1
for r in 0 1 2 3 4 5; do
	"$G" -q synth --ranks 6 --rank $r --steps 2 --seed $((r + 1)) -o t$r.pt.trace.json || bad "synth rank $r"
	"$G" -q rank-summary t$r.pt.trace.json -o s$r.json || bad "rank-summary rank $r"
done
m() { # m OUT IN...: merge, counted
	o=$1
	shift
	if "$G" -q rank-summary --merge "$@" -o "$o" 2>"$tmp/err"; then ok; else bad "merge $*: $(cat "$tmp/err")"; fi
}
cd "$tmp" || exit 1
m ab.json s0.json s1.json
m ab_c.json ab.json s2.json
m bc.json s1.json s2.json
m a_bc.json s0.json bc.json
m c_ab.json s2.json ab.json
m flat.json s2.json s0.json s1.json
m flat.json.gz s1.json s2.json s0.json
for f in a_bc.json c_ab.json flat.json; do
	cmp -s ab_c.json $f && ok || bad "(a+b)+c differs from $f"
done
gzip -dc flat.json.gz | cmp -s - ab_c.json && ok || bad "-o .gz differs from the plain merge"
# the merge is its parts' objects, each line a summary as rank-summary wrote it, by rank
cat s0.json s1.json s2.json | cmp -s - ab_c.json && ok || bad "a merge is not its parts in rank order"
m all.json s5.json s3.json ab_c.json s4.json
m all2.json bc.json s5.json s0.json s4.json s3.json
cmp -s all.json all2.json && ok || bad "merges of the six ranks in other groupings differ"
cat s0.json s1.json s2.json s3.json s4.json s5.json | cmp -s - all.json && ok || bad "six ranks: not the parts in rank order"
m again.json all.json
cmp -s all.json again.json && ok || bad "a merge of one merge is not itself"

# dist over a merge = over the parts = over the traces, every format and mode
for fmt in table csv json; do
	"$G" -q dist --format $fmt t0.pt.trace.json t1.pt.trace.json t2.pt.trace.json t3.pt.trace.json t4.pt.trace.json t5.pt.trace.json >want 2>&1
	"$G" -q dist --format $fmt s0.json s1.json s2.json s3.json s4.json s5.json >parts 2>&1
	"$G" -q dist --format $fmt all.json >got 2>&1
	"$G" -q dist --format $fmt ab_c.json s3.json t4.pt.trace.json s5.json >mixed 2>&1
	cmp -s want parts && ok || bad "dist ($fmt): summaries differ from the traces"
	cmp -s want got && ok || bad "dist ($fmt): the merge differs from the traces"
	cmp -s want mixed && ok || bad "dist ($fmt): a merge, summaries and a trace differ from the traces"
done
"$G" -q dist --table commops all.json >got && "$G" -q dist --table commops t0.pt.trace.json t1.pt.trace.json t2.pt.trace.json t3.pt.trace.json t4.pt.trace.json t5.pt.trace.json >want && cmp -s want got && ok || bad "dist --table commops over a merge"
[ "$(grep -c '^{"kind":"gpuprof-rank-summary"' all.json)" -eq 6 ] && ok || bad "six worker objects in the merge"
for r in 0 1 2 3 4 5; do
	"$G" -q rank-summary --tb-compat t$r.pt.trace.json -o c$r.json || bad "rank-summary --tb-compat $r"
done
m call.json --tb-compat c3.json c1.json c5.json c0.json c2.json c4.json
"$G" -q dist --tb-compat call.json >got && "$G" -q dist --tb-compat t0.pt.trace.json t1.pt.trace.json t2.pt.trace.json t3.pt.trace.json t4.pt.trace.json t5.pt.trace.json >want && cmp -s want got && ok || bad "dist --tb-compat over a --tb-compat merge"
# keys this version skips travel through a merge unchanged
sed 's/"schema_version":2,/"schema_version":2,"later_key":{"x":[1,2]},/' s3.json >s3x.json
m x.json s3x.json s1.json
grep -q '"later_key":{"x":\[1,2\]}' x.json && ok || bad "an unknown key was lost"
# worker names: the workers table names t0..t5 in rank order
"$G" -q dist --format csv --table workers all.json >w.csv && [ "$(cut -d, -f1 w.csv | tr '\n' ' ')" = "worker t0 t1 t2 t3 t4 t5 " ] && ok || bad "the merge's workers: $(cut -d, -f1 w.csv | tr '\n' ' ')"

# refused: exit 2, one line naming the files, no output
refused() { # what regex args...
	what=$1 re=$2
	shift 2
	rm -f out.json
	"$G" -q rank-summary "$@" -o out.json >out 2>err
	rc=$?
	if [ $rc -eq 2 ] && [ ! -e out.json ] && [ "$(wc -l <err)" -le 2 ] && grep -Eq -- "$re" err; then ok; else bad "$what: exit $rc: $(cat err)"; fi
}
refused "the same worker twice" "s1\.json: worker 't1' is also in ab\.json" --merge ab.json s1.json
refused "one summary twice" "s2\.json: worker 't2' is also in s2\.json" --merge s2.json s2.json
sed 's/"name":"t4"/"name":"other"/' s4.json >s4b.json
refused "one rank under two names" "rank 4 is both 'other' and 't4'|rank 4 is both 't4' and 'other'" --merge s4.json s4b.json
refused "modes mixed" "c1\.json.*tb-compat" --merge s0.json c1.json
refused "--tb-compat over plain ones" "s0\.json.*tb-compat" --merge --tb-compat c1.json s0.json
head -c 200 all.json >cut.json
refused "a cut summary" "cut\.json.*cut short" --merge s0.json cut.json
{
	cat s0.json
	echo '[1]'
} >junk.json
refused "text after a worker" "junk\.json: byte [0-9]+: more text after" --merge junk.json
refused "a trace given to --merge" "t0\.pt\.trace\.json" --merge t0.pt.trace.json s1.json
refused "no summary" "no SUMMARY given" --merge
refused "--merge --name" "--name does not apply" --merge --name x s0.json
refused "--merge --step" "--step and --range" --merge --step 1 s0.json
"$G" -q dist --names a all.json >out 2>err
[ $? -eq 2 ] && grep -q 'several workers' err && ok || bad "dist --names over a merge: $(cat err)"
[ -z "$(ls | grep '\.tmp')" ] && ok || bad "a temporary file was left"

# the Slurm recipe: syntax, then its map tasks and reduce job run here as
# Slurm would run them (no Slurm here: a stand-in sbatch records the calls)
sl=$root/contrib/slurm
for s in "$sl"/*.sh; do
	bash -n "$s" 2>"$tmp/err" && sh -n "$s" 2>>"$tmp/err" && ok || bad "$s: $(cat "$tmp/err")"
done
cd "$tmp" || exit 1
mkdir bin
cat >bin/sbatch <<'SB'
#!/bin/sh
echo "$*" >>"$SBATCH_LOG"
echo 4242
SB
chmod +x bin/sbatch
for r in 0 1 2 3 4 5; do echo "$tmp/t$r.pt.trace.json"; done >list
PATH="$tmp/bin:$PATH" SBATCH_LOG="$tmp/sbatch.log" GPUPROF="$G" sh "$sl/submit.sh" list slurm --account=a >out 2>err && ok || bad "submit.sh: $(cat err)"
grep -q '^--parsable --array=0-5%64 .*--account=a .*/map.sh .*/list .*slurm$' sbatch.log && grep -q '^--parsable --dependency=afterok:4242 .*reduce.sh .*slurm 6$' sbatch.log && ok || bad "submit.sh's sbatch calls: $(cat sbatch.log)"
for i in 0 1 2 3 4 5; do
	SLURM_ARRAY_TASK_ID=$i GPUPROF="$G" sh "$sl/map.sh" list slurm 2>err || bad "map.sh task $i: $(cat err)"
done
FAN_IN=4 GPUPROF="$G" sh "$sl/reduce.sh" slurm 6 >out 2>err && ok || bad "reduce.sh: $(cat err)"
"$G" -q dist slurm/summaries/*.json -o want.txt 2>err
cmp -s slurm/dist.txt want.txt && ok || bad "reduce.sh's dist differs from dist over the summaries"
"$G" -q rank-summary --merge slurm/summaries/*.json -o flat.json 2>err
cmp -s slurm/merged.json flat.json && ok || bad "reduce.sh's tree of merges differs from one merge"
[ ! -e slurm/reduce.tmp ] && ok || bad "reduce.sh left its temporary folder"
SLURM_ARRAY_TASK_ID=9 GPUPROF="$G" sh "$sl/map.sh" list slurm 2>err
[ $? -eq 2 ] && grep -q 'no line 10' err && ok || bad "map.sh past the list: $(cat err)"
echo "$tmp/cut.json" >badlist
SLURM_ARRAY_TASK_ID=0 GPUPROF="$G" sh "$sl/map.sh" badlist slurm 2>err
[ $? -eq 2 ] && grep -q '1 tries' err && ok || bad "map.sh retried a refused input: $(cat err)"
echo "fleetmerge: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
