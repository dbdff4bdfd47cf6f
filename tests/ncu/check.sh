#!/bin/sh
# ncu stage: the real reports in ../shared/data/ncu read through the CLI and
# compared with ncu's own exports (see shared/data/ncu/PROVENANCE.md), plus
# corrupted copies made here (exit 2, one line naming a byte offset).
# Prints "ncu: N passed, N failed"; skips cleanly without ../shared.
set -u
: "${GPUPROF:?}"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL ncu: $*"; fail=$((fail + 1)); }
shared=${GPUPROF_SHARED:-../shared}
D=$shared/data/ncu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Cuts the Python traceback that the 2025.3.1 exports end with.
clean() { sed '/^Traceback (most recent call last):/,$d' "$1"; }

# Cell-by-cell comparison of two all-quoted CSV files (same row order):
# prints "MATCH TOTAL" and the first differences on stderr.
cells() {
	awk -v other="$2" -v skip="${3:-}" 'BEGIN { FS = "\",\"" }
	{ gl[NR] = $0 } END {
		n = 0
		while ((getline line < other) > 0) ml[++n] = line
		match_ = 0; total = 0; shown = 0
		for (r = 1; r <= NR; r++) {
			ng = split(gl[r], g, "\",\""); nm = split(ml[r], m, "\",\"")
			for (c = 1; c <= ng; c++) {
				total++
				if (c <= nm && g[c] == m[c]) match_++
				else if (shown++ < 5) printf "  row %d col %d: want [%s] got [%s]\n", r, c, g[c], m[c] > "/dev/stderr"
			}
		}
		print match_, total
	}' "$1"
}

if [ ! -d "$D" ]; then
	echo "ncu: skipped: $D not found (set GPUPROF_SHARED)"
	echo "ncu: 0 passed, 0 failed"
	exit 0
fi

# 1. every report loads; results and kernel names as ncu.md's ground truth
while read -r file n first; do
	f=$D/$file
	[ -f "$f" ] || { bad "$file missing"; continue; }
	out=$("$GPUPROF" --format csv ncu list "$f" 2>"$tmp/err")
	rc=$?
	[ $rc -eq 0 ] || { bad "$file: list exit $rc: $(cat "$tmp/err")"; continue; }
	got=$(printf '%s\n' "$out" | tail -n +2 | wc -l)
	k=$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f2)
	if [ "$got" -eq "$n" ] && [ "$k" = "$first" ]; then ok; else
		bad "$file: $got results (want $n), first kernel '$k' (want '$first')"; fi
done <<'LIST'
ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report 8 matrixMulCUDA
ncu2021.1_gtx1660s_raytracer.ncu-rep 3 build_meshes
ncu2022.4_a40_full_indexspaces.ncu-rep 5 julia__5_11155
ncu2023.2_a10_default_105kernels.ncu-rep 105 __cuda_linear_fp32_fp16_kernel
ncu2023.3_h800_full_nvtx.ncu-rep 5 distribution_elementwise_grid_stride_kernel
ncu2024.2_t4_full_mlp.ncu-rep 1 matrix_addition2D
ncu2025.2_rtx5060ti_default_transpose.ncu-rep 4 transposeMatrix
ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep 1 probe_timer_only
ncu2025.3_rtx3080ti_full_probeffma.ncu-rep 3 probe_timer_only
ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep 1 probe_timer_only
LIST

# list: kernel type column and the --id / --kernel filters
# (want = the "id,type" pairs of the rows printed, space separated)
while IFS='@' read -r file opts want; do
	got=$("$GPUPROF" --format csv ncu list $opts "$D/$file" 2>&1 | tail -n +2 | cut -d, -f1,3 | tr '\n' ' ')
	if [ "$got" = "$want " ] || { [ -z "$want" ] && [ -z "$got" ]; }; then ok; else
		bad "list $opts $file: got '$got' want '$want'"; fi
done <<'FILTERS'
ncu2025.2_rtx5060ti_default_transpose.ncu-rep@--kernel transposeMatrix(Advanced|Optimized)$@1,Memory 3,Memory
ncu2025.2_rtx5060ti_default_transpose.ncu-rep@--kernel ^transposeMatrix$@0,Memory
ncu2025.2_rtx5060ti_default_transpose.ncu-rep@--kernel no_such_kernel@
ncu2023.2_a10_default_105kernels.ncu-rep@--id 104@104,GEMM
ncu2023.2_a10_default_105kernels.ncu-rep@--id 105@
ncu2023.3_h800_full_nvtx.ncu-rep@--kernel flash@4,Attention
ncu2023.3_h800_full_nvtx.ncu-rep@--id 0@0,Elementwise
ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report@--kernel _int$ --id 5@5,GEMM
ncu2024.2_t4_full_mlp.ncu-rep@--kernel matrix_addition2D@0,Elementwise
ncu2022.4_a40_full_indexspaces.ncu-rep@--id 4@4,Other
FILTERS
# the --kernel filter also matches the demangled name (template arguments)
n=$("$GPUPROF" --format csv ncu list --kernel 'fp16_kernel<\(int\)256, \(int\)4>' "$D/ncu2023.2_a10_default_105kernels.ncu-rep" | tail -n +2 | wc -l)
if [ "$n" -eq 105 ]; then ok; else bad "list --kernel on demangled names: $n rows, want 105"; fi
n=$("$GPUPROF" --format csv ncu details --id 0 "$D/ncu2025.2_rtx5060ti_default_transpose.ncu-rep" | cut -d, -f1 | sort -u | tr '\n' ' ')
if [ "$n" = '"0" "ID" ' ]; then ok; else bad "details --id 0: ids '$n'"; fi

# hints --sort: the first rows (id,section,rule,type,speedup) of the full-set
# report, the row count (34 messages) and the order over all rows
F=$D/ncu2025.3_rtx3080ti_full_probeffma.ncu-rep
while IFS='@' read -r key want; do
	"$GPUPROF" --format csv ncu hints ${key:+--sort $key} "$F" | tail -n +2 >"$tmp/h.csv"
	got=$(head -n 4 "$tmp/h.csv" | cut -d, -f1,3,4,5,8 | tr '\n' ' ')
	n=$(wc -l <"$tmp/h.csv")
	if [ "$got" = "$want " ] && [ "$n" -eq 34 ]; then ok; else
		bad "hints --sort '$key': $n rows, got '$got' want '$want'"; fi
done <<'SORTS'
@0,SpeedOfLight,SOLBottleneck,OPT, 0,SchedulerStats,IssueSlotUtilization,OPT,96.7741935483871 0,Occupancy,AchievedOccupancy,OPT,93.64742086752638 0,WarpStateStats,CPIStall,OPT,71.99046483909416
speedup@0,ComputeWorkloadAnalysis,HighPipeUtilization,OPT,99.99840624242965 1,ComputeWorkloadAnalysis,HighPipeUtilization,OPT,99.90194378609142 2,ComputeWorkloadAnalysis,HighPipeUtilization,OPT,99.72236661813496 0,LaunchStats,LaunchConfiguration,OPT,98.27586206896551
type@0,PmSampling,PMSamplingData,WRN, 0,SpeedOfLight,SOLBottleneck,OPT, 0,SchedulerStats,IssueSlotUtilization,OPT,96.7741935483871 0,Occupancy,AchievedOccupancy,OPT,93.64742086752638
section@0,SpeedOfLight,SOLBottleneck,OPT, 1,SpeedOfLight,SOLBottleneck,OPT, 2,SpeedOfLight,SOLBottleneck,OPT, 0,SpeedOfLight_RooflineChart,SOLFPRoofline,INF,
SORTS
# speedup: non-increasing, rows without a speedup last (25 have one)
"$GPUPROF" --format csv ncu hints --sort speedup "$F" | tail -n +2 | cut -d, -f8 >"$tmp/s.txt"
if awk 'BEGIN { prev = 1e9; seen_empty = 0; n = 0 }
	$0 == "" { seen_empty = 1; next }
	{ if (seen_empty || $0 + 0 > prev) exit 1; prev = $0 + 0; n++ }
	END { exit n == 25 ? 0 : 1 }' "$tmp/s.txt"; then ok; else bad "hints --sort speedup: order"; fi
# type: WRN before OPT before INF over all rows
t=$("$GPUPROF" --format csv ncu hints --sort type "$F" | tail -n +2 | cut -d, -f5 | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }')
if [ "$t" = "WRN:1 OPT:28 INF:5" ]; then ok; else bad "hints --sort type: '$t'"; fi
if "$GPUPROF" ncu hints --sort nope "$F" >/dev/null 2>&1; then bad "hints --sort nope accepted"; else ok; fi

# every verb runs on every report
for f in "$D"/*.ncu-rep "$D"/*.nsight-cuprof-report; do
	for v in raw session details hints; do
		if "$GPUPROF" ncu $v "$f" >/dev/null 2>"$tmp/err"; then ok; else
			bad "ncu $v $(basename "$f"): $(cat "$tmp/err")"; fi
	done
done

# 2. raw CSV against the base-unit golden exports: every cell must match
for b in ncu2025.3_rtx3080ti_basic_sassscope ncu2025.4_rtx3060_basic_srccounters_sassscope; do
	clean "$D/$b.raw.csv" >"$tmp/want.csv"
	"$GPUPROF" --format csv ncu raw --print-units base "$D/$b.ncu-rep" >"$tmp/got.csv"
	set -- $(cells "$tmp/want.csv" "$tmp/got.csv")
	echo "ncu: raw $b: $1 of $2 cells match"
	if [ "$1" -eq "$2" ]; then ok; else bad "raw $b: $1 of $2 cells"; fi
done
# the full-set export used ncu's default auto-scaled units (us, Mbyte/s,
# Ghz, sector/ms ...), our default too: every cell, and byte for byte
b=ncu2025.3_rtx3080ti_full_probeffma
clean "$D/$b.raw.csv" >"$tmp/want.csv"
"$GPUPROF" --format csv ncu raw "$D/$b.ncu-rep" >"$tmp/got.csv"
set -- $(cells "$tmp/want.csv" "$tmp/got.csv")
echo "ncu: raw $b (auto units): $1 of $2 cells match"
if [ "$1" -eq "$2" ] && cmp -s "$tmp/want.csv" "$tmp/got.csv"; then ok; else bad "raw $b: $1 of $2 cells"; fi
"$GPUPROF" --format csv ncu raw --print-units auto "$D/$b.ncu-rep" >"$tmp/got2.csv"
if cmp -s "$tmp/got.csv" "$tmp/got2.csv"; then ok; else bad "raw: --print-units auto is not the default"; fi
# some auto units and values, by column name (units row, result 1)
for want in gpu__time_duration.sum:us:984.832000 dram__bytes.sum.per_second:Mbyte/s:64.465818 \
	gpc__cycles_elapsed.avg.per_second:Mhz:584.923283 lts__t_sectors.sum.per_second:sector/us:6.108656 \
	launch__shared_mem_config_size:Kbyte:16.384000 lts__t_sectors_srcunit_tex.sum.per_second:sector/ms:2.030803 \
	launch__registers_per_thread:register/thread:16 dram__bytes_write.sum:byte:512.000000; do
	col=${want%%:*}
	got=$(awk -v col="$col" 'BEGIN { FS = "\",\"" } NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i }
		NR == 2 { u = $c } NR == 4 { print col ":" u ":" $c }' "$tmp/got.csv")
	if [ "$got" = "$want" ]; then ok; else bad "raw auto: got '$got' want '$want'"; fi
done

# 3. session values against the session page
for b in ncu2025.3_rtx3080ti_basic_sassscope ncu2025.4_rtx3060_basic_srccounters_sassscope; do
	clean "$D/$b.session.txt" >"$tmp/want.txt"
	"$GPUPROF" --format csv ncu session "$D/$b.ncu-rep" >"$tmp/got.csv"
	n=0
	m=0
	for key in "Created" "Host Name" "Host OS" "Host Architecture" "Host Processor" \
		"Target OS" "CUDA Version" "Display Driver Version" "PerfWorks" "Nsight Compute Target"; do
		want=$(grep "^$key  " "$tmp/want.txt" | head -n 1 | sed "s/^$key  *//; s/ *\$//")
		n=$((n + 1))
		if grep -F -q -- "$want" "$tmp/got.csv"; then m=$((m + 1)); else echo "  session $b: $key '$want' not found"; fi
	done
	pid=$(sed -n '/^Processes/,/^$/p' "$tmp/want.txt" | awk '$1 ~ /^[0-9]+$/ { print $1 }')
	n=$((n + 1))
	if grep -q "^$pid," "$tmp/got.csv"; then m=$((m + 1)); fi
	for a in multiprocessor_count display_name compute_capability_major compute_capability_minor; do
		want=$(grep "^$a " "$tmp/want.txt" | sed "s/^$a  *//; s/ *\$//")
		n=$((n + 1))
		if grep -F -q ",$a,$want" "$tmp/got.csv"; then m=$((m + 1)); else echo "  session $b: $a '$want' not found"; fi
	done
	echo "ncu: session $b: $m of $n values match"
	if [ "$m" -eq "$n" ]; then ok; else bad "session $b: $m of $n values"; fi
done

# 4. details CSV against the details exports (--print-details all
# --print-units base): every cell, and the files byte for byte
for b in ncu2025.3_rtx3080ti_basic_sassscope ncu2025.4_rtx3060_basic_srccounters_sassscope; do
	clean "$D/$b.details.csv" >"$tmp/want.csv"
	"$GPUPROF" --format csv ncu details --print-units base --print-details all "$D/$b.ncu-rep" >"$tmp/got.csv" 2>/dev/null
	set -- $(cells "$tmp/want.csv" "$tmp/got.csv")
	echo "ncu: details $b: $1 of $2 cells match (rows $(wc -l <"$tmp/got.csv") of $(wc -l <"$tmp/want.csv"))"
	if [ "$1" -eq "$2" ] && cmp -s "$tmp/want.csv" "$tmp/got.csv"; then ok; else
		bad "details $b: $1 of $2 cells, files differ"; fi
done

# --print-details header|body and auto units on the details page
F=$D/ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep
"$GPUPROF" --format csv ncu details --print-details header "$F" >"$tmp/h.csv"
nf=$(head -n 1 "$tmp/h.csv" | awk -F'","' '{ print NF }')
sol=$(awk -F'","' '$12 == "GPU Speed Of Light Throughput"' "$tmp/h.csv" | wc -l)
# (Waves Per SM: once, from the LaunchStats header; not in SOL in this mode)
got=$(awk -F'","' '$13 == "DRAM Frequency" || $13 == "Duration" || $13 == "Waves Per SM" { printf "%s|%s|%s|%s ", $12, $13, $14, $15 }' "$tmp/h.csv")
if [ "$nf" -eq 20 ] && [ "$sol" -eq 10 ] && [ "$(wc -l <"$tmp/h.csv")" -eq 49 ] &&
	[ "$got" = 'GPU Speed Of Light Throughput|DRAM Frequency|Ghz|6.85", GPU Speed Of Light Throughput|Duration|us|4.80", Launch Statistics|Waves Per SM||0.00", ' ]; then ok; else
	bad "details header: $nf columns, $sol SOL rows, '$got'"; fi
got=$("$GPUPROF" --format csv ncu details --print-details header --print-units base "$F" |
	awk -F'","' '$13 == "DRAM Frequency" || $13 == "Shared Memory Configuration Size" { printf "%s|%s|%s ", $13, $14, $15 }')
if [ "$got" = 'DRAM Frequency|hz|6,853,333,333.33", Shared Memory Configuration Size|byte|16,384", ' ]; then ok; else
	bad "details header base units: '$got'"; fi
got=$("$GPUPROF" --format csv ncu details --print-details all "$F" |
	awk -F'","' '$14 == "Shared Memory Configuration Size" || $14 == "Shared Memory Per Block" { printf "%s|%s|%s ", $14, $15, $16 }')
if [ "$got" = 'Shared Memory Configuration Size|Kbyte|16.38", Shared Memory Per Block|Kbyte/block|1.02", Shared Memory Per Block|Kbyte/block|1.02", ' ]; then ok; else
	bad "details auto units: '$got'"; fi
"$GPUPROF" --format csv ncu details --print-details body "$F" >"$tmp/b.csv"
n=$(awk -F'","' 'NR > 1 && $13 == "" && $14 != ""' "$tmp/b.csv" | wc -l)
if [ "$n" -eq 0 ] && [ "$(wc -l <"$tmp/b.csv")" -eq 84 ]; then ok; else bad "details body: $n header rows"; fi
for bad_opt in "--print-units si" "--print-details none"; do
	if "$GPUPROF" ncu details $bad_opt "$F" >/dev/null 2>&1; then bad "accepted $bad_opt"; else ok; fi
done

# raw --format json carries a description per metric of the default sections
n=$("$GPUPROF" --format json ncu raw "$D/ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep" |
	grep -c '"description": "Wall time the kernel ran on the GPU."')
d=$("$GPUPROF" --format json ncu raw "$D/ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep" | grep -c '"description": "')
if [ "$n" -eq 1 ] && [ "$d" -eq 35 ]; then ok; else bad "raw json descriptions: $n / $d"; fi

# 5. corrupted copies: exit 2, one line on stderr naming a byte offset
src=$D/ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep
size=$(wc -c <"$src")
i=0
for cut in 3 7 11 100 1000 50000 $((size - 1)); do
	head -c "$cut" "$src" >"$tmp/cut$i.ncu-rep"
	i=$((i + 1))
done
printf 'XVR\000' >"$tmp/magic.ncu-rep"
tail -c +5 "$src" >>"$tmp/magic.ncu-rep"
for off in 4 8 12 200 5000 40000 90000; do
	cp "$src" "$tmp/flip$off.ncu-rep"
	printf '\377' | dd of="$tmp/flip$off.ncu-rep" bs=1 seek="$off" conv=notrunc 2>/dev/null
done
for f in "$tmp"/cut*.ncu-rep "$tmp"/magic.ncu-rep "$tmp"/flip*.ncu-rep; do
	"$GPUPROF" ncu list "$f" >/dev/null 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	case $f in
	*flip*)
		# a flipped byte inside a string or a value can still be valid
		if [ $rc -eq 0 ] || { [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q "byte [0-9]" "$tmp/err"; }; then
			ok
		else bad "$(basename "$f"): exit $rc, $lines lines: $(cat "$tmp/err")"; fi ;;
	*)
		if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q "byte [0-9]" "$tmp/err"; then ok; else
			bad "$(basename "$f"): exit $rc, $lines lines: $(cat "$tmp/err")"; fi ;;
	esac
done
echo "ncu: $pass passed, $fail failed"
