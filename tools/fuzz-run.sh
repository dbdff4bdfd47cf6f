#!/bin/sh
# Runs one libFuzzer target for a while and records the run.
#   sh tools/fuzz-run.sh NAME SECONDS [--merge]
# Builds build/fuzz/fuzz-NAME (make), fuzzes it for SECONDS over the working
# corpus build/fuzz/corpus-NAME (seeded from tests/fuzz/corpus/NAME, which
# it reads but does not change), and appends one line to tests/fuzz/RUNS.md:
# date, target, seconds it ran, execs, cov, ft, findings (crash files left in
# build/fuzz/findings-NAME/). With --merge, the committed corpus is then
# replaced by the minimized union of both (libFuzzer -merge=1) when that
# stays within 300 files and 2 MB.
set -eu
name=${1:?usage: fuzz-run.sh NAME SECONDS [--merge]}
secs=${2:?usage: fuzz-run.sh NAME SECONDS [--merge]}
merge=${3:-}
cd "$(dirname "$0")/.."
# FUZZ_RUN_NO_BUILD=1: the binary as it is (while another make builds)
[ "${FUZZ_RUN_NO_BUILD:-}" = 1 ] || make -s build/fuzz/fuzz-"$name" >/dev/null
bin=build/fuzz/fuzz-$name
work=build/fuzz/corpus-$name
found=build/fuzz/findings-$name
log=build/fuzz/run-$name.log
mkdir -p "$work" "$found" tests/fuzz/corpus/"$name"
before=$(ls "$found" | wc -l)
rc=0
t0=$(date +%s)
"$bin" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}" -max_len=65536 -print_final_stats=1 \
	-artifact_prefix="$found/" "$work" tests/fuzz/corpus/"$name" >"$log" 2>&1 || rc=$?
took=$(($(date +%s) - t0))
execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 | awk '{print $2}')
ft=$(grep -Eo 'ft: [0-9]+' "$log" | tail -n 1 | awk '{print $2}')
findings=$(($(ls "$found" | wc -l) - before)) # this run's only
[ "$rc" -eq 0 ] || findings="$findings (exit $rc; see $log)"
if [ ! -f tests/fuzz/RUNS.md ]; then
	printf '# Fuzzing runs\n\nOne line per run (tools/fuzz-run.sh or by hand): execs, coverage (cov) and\nfeatures (ft) from libFuzzer, findings = crash files produced.\n\n| date | target | seconds | execs | cov | ft | findings |\n|---|---|---|---|---|---|---|\n' >tests/fuzz/RUNS.md
fi
echo "| $(date -u +%Y-%m-%d) | $name | $took | ${execs:-?} | ${cov:-?} | ${ft:-?} | $findings |" >>tests/fuzz/RUNS.md
tail -n 1 tests/fuzz/RUNS.md
if [ "$merge" = --merge ]; then
	tmp=build/fuzz/merge-$name
	rm -rf "$tmp"
	mkdir -p "$tmp"
	"$bin" -merge=1 -max_len=65536 "$tmp" tests/fuzz/corpus/"$name" "$work" >/dev/null 2>&1
	files=$(ls "$tmp" | wc -l)
	kb=$(du -sk "$tmp" | cut -f1)
	# the committed corpora stay small (CI replays each under ASan): a
	# union past 300 files or 2 MB leaves the committed one as it was
	if [ "$files" -le 300 ] && [ "$kb" -le 2048 ]; then
		rm -rf tests/fuzz/corpus/"$name"
		mv "$tmp" tests/fuzz/corpus/"$name"
		echo "corpus $name: $files files"
	else
		rm -rf "$tmp"
		echo "corpus $name: the union has $files files, $kb KB: the committed corpus kept"
	fi
fi
exit "$rc"
