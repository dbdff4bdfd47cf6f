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

# 0. the legacy metric names of 2019.x-2020.x reports (docs/ncu.md "Legacy
# metric names"): mkreport.py --legacy writes launch 0 with the legacy names
# only, launch 1 with both (the modern values count). The expected cells are
# the values the generator wrote, as the raw page prints them back.
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
if "$PY" tests/ncu/mkreport.py --legacy "$tmp/legacy.ncu-rep"; then
	got=$("$GPUPROF" --format csv ncu list "$tmp/legacy.ncu-rep" | tail -n +2 |
		sed 's/"[^"]*"//g' | cut -d, -f6-9)
	want=$(printf '%s\n' 2345,11.25,33.5,45.75 1000,20,30,40)
	[ "$got" = "$want" ] && ok || bad "legacy names: list gives [$got], want [$want]"
	raw=$("$GPUPROF" --format csv ncu raw "$tmp/legacy.ncu-rep")
	printf '%s\n' "$raw" | sed -n 3p | grep -q '"33.500000".*"2.345000".*"45.750000","100.000000","11.250000"' &&
		ok || bad "legacy names: raw page of launch 0 lacks the values written"
	got=$("$GPUPROF" --format csv ncu diff tests/golden/_inputs/tiny.ncu-rep "$tmp/legacy.ncu-rep" |
		grep '^"tiny grid (4, 2, 1) block (128, 1, 1) #0"' | sed 's/"[^"]*"//g' | cut -d, -f4,7,10,13)
	[ "$got" = "2345,11.25,33.5,45.75" ] && ok || bad "legacy names: diff gives [$got]"
else
	bad "mkreport.py --legacy failed"
fi

if [ ! -d "$D" ]; then
	echo "ncu: skipped: $D not found (set GPUPROF_SHARED)"
	echo "ncu: 0 passed, 0 failed"
	exit 0
fi

# 0b. the 2019 report (a --metrics run) holds neither the modern nor the
# legacy names of the four columns (its raw page as ncu.md lists it): its
# kernel table keeps them empty (rows of section 3 below)
f=$D/ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report
if [ -f "$f" ]; then
	hdr=$("$GPUPROF" --format csv ncu raw "$f" | head -1)
	n=0
	for m in gpu__time_duration gpu__time_duration.sum sm__sol_pct gpu__compute_memory_sol_pct \
		sm__active_warps_avg_per_active_cycle_pct sm__throughput.avg.pct_of_peak_sustained_elapsed \
		gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed \
		sm__warps_active.avg.pct_of_peak_sustained_active; do
		case $hdr in *\"$m\"*) n=$((n + 1)) ;; esac
	done
	case $hdr in *'"gpu__cycles_elapsed.avg"'*) ;; *) n=$((n + 100)) ;; esac
	[ $n -eq 0 ] && ok || bad "2019 report: raw header names a column metric ($n)"
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

# 1b. per-file ground truth of shared/reference/ncu.md section 4, values
# copied from there (doubles as Python repr, durations in ns; "-" = the
# metric is absent or NaN there, null in our JSON). Read through
# `ncu list --format json` (kernel, grid, block, duration, throughputs,
# occupancy, registers), `ncu raw --format csv` (demangled name, context,
# stream, launch__grid_size / launch__block_size, device name, CC) and
# `ncu session --format json`.
# jflat: pretty JSON objects -> one "k=v|k=v..." line per object holding `id`
jflat() {
	awk '{ sub(/^[ \t]+/, "") }
	/^\{/ { line = "" }
	/^"[a-z_]+": / { k = $0; sub(/".*/, "", k); k = substr($0, 2); sub(/".*/, "", k)
		v = $0; sub(/^"[a-z_]+": /, "", v); sub(/,$/, "", v); gsub(/^"|"$/, "", v)
		gsub(/\\\\/, "\\", v); line = line "|" k "=" v }
	/^\},?$/ { if (line != "") print substr(line, 2); line = "" }'
}
# field LINE KEY: value of KEY in a jflat line
field() { printf '%s\n' "$1" | tr '|' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# numeq A B: equal as numbers ("-" matches "null"), else as strings
numeq() {
	case "$1:$2" in -:null | -:) return 0 ;; -:* | *:null) return 1 ;; esac
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a == b || (a + 0 == b + 0 && a ~ /^[0-9.e+-]+$/ && b ~ /^[0-9.e+-]+$/)) }'
}
# rawcol CSV ROW NAME: cell of column NAME (header row 1) in data row ROW
# (row 0 = the first result), thousands separators removed from numbers
rawcol() {
	awk -v row="$2" -v col="$3" 'BEGIN { FS = "\",\"" } { sub(/^"/, ""); sub(/",?$/, "") }
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i }
	NR == row + 3 { v = c ? $c : "?"; if (v ~ /^[0-9,.]+$/) gsub(/,/, "", v); print v }' "$1"
}
while IFS='|' read -r file idx fn dem grid block ctx stream dur sm mem occ regs gsz bsz; do
	[ -n "$file" ] || continue
	f=$D/$file
	"$GPUPROF" --format json ncu list --id "$idx" "$f" | jflat >"$tmp/l.txt"
	"$GPUPROF" --format csv ncu raw --print-units base --id "$idx" "$f" >"$tmp/r.csv"
	l=$(head -n 1 "$tmp/l.txt")
	errs=
	for kv in "id:$idx" "kernel:$fn" "grid:$grid" "block:$block" "dur_ns:$dur" "sm_throughput_pct:$sm" \
		"memory_throughput_pct:$mem" "achieved_occupancy_pct:$occ" "registers_per_thread:$regs"; do
		k=${kv%%:*} w=${kv#*:}
		g=$(field "$l" "$k")
		numeq "$w" "$g" || errs="$errs $k='$g'(want '$w')"
	done
	# demangled name: ncu.md shows long names cut with "..." (a prefix)
	g=$(rawcol "$tmp/r.csv" 0 "Kernel Name")
	case $dem in
	*...) case $g in "${dem%...}"*) ;; *) errs="$errs demangled='$g'" ;; esac ;;
	'') [ "$g" = "$fn" ] || errs="$errs kernel-name='$g'(empty demangled: want function)" ;;
	*) [ "$g" = "$dem" ] || errs="$errs demangled='$g'" ;;
	esac
	for kv in "Context:$ctx" "Stream:$stream" "launch__grid_size:$gsz" "launch__block_size:$bsz"; do
		k=${kv%%:*} w=${kv#*:}
		g=$(rawcol "$tmp/r.csv" 0 "$k")
		[ "$w" = None ] && w=
		[ "$w" = - ] && w=n/a
		numeq "$w" "$g" || [ "$w" = "$g" ] || errs="$errs $k='$g'(want '$w')"
	done
	if [ -z "$errs" ]; then ok; else bad "$file result $idx:$errs"; fi
done <<'RESULTS'
ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report|0|matrixMulCUDA|void matrixMulCUDA<int=32>(float*,float*,float*,int,int)|(20, 10, 1)|(32, 32, 1)|None|None|-|-|-|-|16.0|200.0|1024.0
ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report|7|matrixMulCUDA_int|void matrixMulCUDA_int<int=32>(int*,int*,int*,int,int)|(20, 10, 1)|(32, 32, 1)|None|None|-|-|-|-|16.0|200.0|1024.0
ncu2021.1_gtx1660s_raytracer.ncu-rep|0|build_meshes|rtracer::build_meshes(rtracer::MeshConfig*)|(1, 1, 1)|(512, 1, 1)|1|7|29344.0|0.38088486304400837|0.49344080211335256|4.4804859826383945|64.0|1.0|512.0
ncu2021.1_gtx1660s_raytracer.ncu-rep|2|trace|rtracer::trace(renv::Scene*)|(0, 0, 0)|(0, 0, 0)|1|7|-|-|-|-|-|-|-
ncu2022.4_a40_full_indexspaces.ncu-rep|0|julia__5_11155|julia__5_11155(CuKernelContext, CuDeviceArray<Float16x2, (int)1, (int)1>, Float16x2)|(39312, 1, 1)|(256, 1, 1)|1|14|70464.0|17.88779493254802|90.62687446443873|66.77515949293937|16.0|39312.0|256.0
ncu2022.4_a40_full_indexspaces.ncu-rep|4|julia_frb_5885|julia_frb_5885(CuDeviceArray<Int32, (int)1, (int)1>, CuDeviceArray<Float16x2, (int)1, (int)1>, CuDeviceArray<Int4x8, ...|(84, 1, 1)|(32, 24, 1)|1|14|4283936.0|49.77151638282479|67.19599306559076|50.062417199912716|80.0|84.0|768.0
ncu2023.2_a10_default_105kernels.ncu-rep|0|__cuda_linear_fp32_fp16_kernel|void __cuda_linear_fp32_fp16_kernel<(int)256, (int)4>(float *, __half *, float *, __half *, int, int)|(1024, 1, 1)|(256, 1, 1)|1|7|17408.0|50.617243115506604|50.617243115506604|86.5886577178987|38.0|1024.0|256.0
ncu2023.2_a10_default_105kernels.ncu-rep|104|__cuda_linear_fp32_fp16_kernel|void __cuda_linear_fp32_fp16_kernel<(int)256, (int)4>(float *, __half *, float *, __half *, int, int)|(1024, 1, 1)|(256, 1, 1)|1|7|17440.0|50.467008907796426|50.467008907796426|86.83674165300839|38.0|1024.0|256.0
ncu2023.3_h800_full_nvtx.ncu-rep|0|distribution_elementwise_grid_stride_kernel|void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<float, (int)4, void at::native::templates::cu...|(1056, 1, 1)|(256, 1, 1)|1|7|16448.0|61.92466129622849|12.683451055936073|57.721346493180924|40.0|1056.0|256.0
ncu2023.3_h800_full_nvtx.ncu-rep|4|flash_fwd_kernel|void flash_fwd_kernel<Flash_fwd_kernel_traits<(int)128, (int)128, (int)64, (int)4, (bool)0, (bool)0, cutlass::half_t,...|(0, 0, 0)|(0, 0, 0)|1|7|-|-|-|-|-|-|-
ncu2024.2_t4_full_mlp.ncu-rep|0|matrix_addition2D|matrix_addition2D(float *, float *, float *, int, int)|(63, 63, 1)|(16, 16, 1)|1|7|52576.0|27.79842080817464|88.39294497639034|79.36736665076577|16.0|3969.0|256.0
ncu2025.2_rtx5060ti_default_transpose.ncu-rep|0|transposeMatrix|transposeMatrix(float *, float *, int, int)|(32, 32, 1)|(32, 32, 1)|1|7|60896.0|7.571097569080779|51.541676197011284|41.33716001912665|16|1024|1024
ncu2025.2_rtx5060ti_default_transpose.ncu-rep|3|transposeMatrixAdvanced|transposeMatrixAdvanced(float *, float *, int, int)|(32, 32, 1)|(32, 32, 1)|1|7|65184.0|9.43715363286745|48.20009589744321|43.00638563163492|16|1024|1024
ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep|0|probe_timer_only||(1, 1, 1)|(1, 1, 1)|1|7|4800.0|0.0045211590242334124|0.901080410910379|2.083333333333333|16|1|1
ncu2025.3_rtx3080ti_full_probeffma.ncu-rep|0|probe_timer_only||(1, 1, 1)|(1, 1, 1)|1|7|4608.0|0.004303145439940839|0.9568215475749722|2.1175263774912074|16|1|1
ncu2025.3_rtx3080ti_full_probeffma.ncu-rep|2|probe_independent_ffma_8||(1, 1, 1)|(1, 1, 1)|1|7|347744.0|0.3123865317809285|0.026577766484807225|2.0834573535734364|16|1|1
ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep|0|probe_timer_only||(1, 1, 1)|(1, 1, 1)|1|7|1952.0|0.009685473225047352|1.3377070537874558|2.0833333333333335|16|1|1
RESULTS
# session facts: creation time, host OS (OSName), process [pid, path],
# CUDA / driver / NCU versions ("-" = not stored), device name and CC, and
# the number of results, as ncu.md section 4 lists them
while IFS='|' read -r file created os pid proc cuda driver ncuv dev ccmaj ccmin nres; do
	[ -n "$file" ] || continue
	"$GPUPROF" --format json ncu session "$D/$file" >"$tmp/s.json"
	jflat <"$tmp/s.json" >"$tmp/s.txt"
	sed -n '/"session_info"/,/^  }/p' "$tmp/s.json" | sed 's/^ *//' >"$tmp/si.txt"
	sv() { sed -n "s/,\$//; s/^\"$1\": \"*\\([^\"]*\\)\"*\$/\\1/p" "$tmp/si.txt" | sed 's/\\\\/\\/g'; }
	errs=
	[ "$(sv created_unix_s)" = "$created" ] || errs="$errs created=$(sv created_unix_s)"
	case $(sv host_os) in "$os" | "$os - "*) ;; *) errs="$errs host_os='$(sv host_os)'" ;; esac
	[ "$(sv cuda_version)" = "$cuda" ] || errs="$errs cuda=$(sv cuda_version)"
	g=$(sv display_driver_version)
	[ "$g" = "${driver#-}" ] || errs="$errs driver='$g'"
	g=$(sv nsight_compute_target)
	case $ncuv:$g in -:) ;; -:*) errs="$errs ncu='$g'(want none)" ;;
	*) case $g in "$ncuv (build "*) ;; *) errs="$errs ncu='$g'(want $ncuv)" ;; esac ;; esac
	[ "$(sv results)" = "$nres" ] || errs="$errs results=$(sv results)"
	[ "$(sv report_file_version)" = 7 ] || errs="$errs file version $(sv report_file_version)"
	# processes: the only objects with a "pid"
	g=$(grep '^pid=' "$tmp/s.txt" | sed 's/|host=.*//')
	if [ "$pid" = - ]; then [ -z "$g" ] || errs="$errs process '$g'(want none)"
	else [ "$g" = "pid=$pid|name=$proc" ] || errs="$errs process '$g'"; fi
	for kv in "display_name:$dev" "compute_capability_major:$ccmaj" "compute_capability_minor:$ccmin"; do
		k=${kv%%:*} w=${kv#*:}
		g=$(grep "|attribute=$k|" "$tmp/s.txt" | sed 's/.*|value=//')
		[ "$g" = "$w" ] || errs="$errs $k='$g'(want '$w')"
	done
	if [ -z "$errs" ]; then ok; else bad "$file session:$errs"; fi
done <<'SESSIONS'
ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report|1554735907|Linux|-||10.0|-|-|GeForce RTX 2070|7|5|8
ncu2021.1_gtx1660s_raytracer.ncu-rep|1620001039|Linux|8377|/home/wtzhang23/Documents/cs/cs378h_concurrency/final/build/RayTracer|11.2|460.73.01|2021.1.0.0|GeForce GTX 1660 SUPER|7|5|3
ncu2022.4_a40_full_indexspaces.ncu-rep|1673835174|Linux|4597|/home/eschnett/julia-1.8/bin/julia|12.0|525.60.13|2022.4.0.0|NVIDIA A40|8|6|5
ncu2023.2_a10_default_105kernels.ncu-rep|1768859111|Linux|442771|/data/hangzhou6/dev/engine/spyinfer/build/linux/x86_64/release/test_performance_linear_kernel|12.2|535.54.03|2023.2.0.0|NVIDIA A10|8|6|105
ncu2023.3_h800_full_nvtx.ncu-rep|1736352606|Linux|406854|/mnt/nvme0/chenjunyi/miniconda3/envs/llm-exp/bin/python3.10|12.2|535.86.10|2023.3.0.0|NVIDIA H800|9|0|5
ncu2024.2_t4_full_mlp.ncu-rep|1763377100|Linux|5816|/content/cuda_example|12.4|550.54.15|2024.2.1.0|Tesla T4|7|5|1
ncu2025.2_rtx5060ti_default_transpose.ncu-rep|1754160034|Windows 11 (23H2)|21192|F:\CDUAtest\MatrixTranspose\MatrixTranspose\MatrixTranspose_optimized.exe|12.9|576.40|2025.2.1.0|NVIDIA GeForce RTX 5060 Ti|12|0|4
ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep|1784389974|Windows 11 (24H2)|9320|C:\Users\owner\Desktop\SASSScope\build\probe_ffma.exe|13.0|581.57|2025.3.1.0|NVIDIA GeForce RTX 3080 Ti Laptop GPU|8|6|1
ncu2025.3_rtx3080ti_full_probeffma.ncu-rep|1783940688|Windows 11 (24H2)|28264|C:\Users\owner\Desktop\SASSScope\build\probe_ffma.exe|13.0|581.57|2025.3.1.0|NVIDIA GeForce RTX 3080 Ti Laptop GPU|8|6|3
ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep|1784527884|Windows 11 (23H2)|21308|C:\Users\as042\OneDrive\Desktop\SASSScope\build\probe_ffma.exe|13.0|581.80|2025.4.0.0|NVIDIA GeForce RTX 3060|8|6|1
SESSIONS

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

# the GUI's transposed raw export (raw_transposed.csv: "metric [unit]" rows,
# one column per result, cells "value {instances}"; UTF-8 BOM). Not
# reproduced byte for byte (see docs/ncu.md, "Transposed raw export"); what
# we do reproduce is asserted: the identification rows, every metric row
# name (ours plus the 16 breakdown:/group: rows), the instance count of every
# cell, and the values and units of all cells but the 32 / 49 known GUI
# differences (binary Kbytes/Gbytes, one unit per row, nan, unit spellings)
b=ncu2025.3_rtx3080ti_full_probeffma
"$GPUPROF" --format json ncu raw "$D/$b.ncu-rep" | jflat >"$tmp/rj.txt"
got=$(awk -v ours="$tmp/rj.txt" '
function csv(line, f,    n, i, c, q, cur) {
	n = 0; cur = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 } else cur = cur c }
		else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}
BEGIN {
	while ((getline l < ours) > 0) {
		n = split(l, kv, "|"); delete o
		for (i = 1; i <= n; i++) { k = kv[i]; sub(/=.*/, "", k); v = kv[i]; sub(/^[^=]*=/, "", v); o[k] = v }
		key = o["id"] SUBSEP o["metric"]
		val[key] = o["text"]; unit[key] = o["unit"]; inst[key] = o["instances"]; names[o["metric"]] = 1
	}
}
{ sub(/\r$/, "") }
NR == 1 { sub(/^\357\273\277/, ""); csv($0, f); hdr = f[1] "," f[2] "," f[3] "," f[4]; next }
{
	csv($0, f); name = f[1]; u = ""
	if (match(name, / \[[^]]*\]$/)) { u = substr(name, RSTART + 2, RLENGTH - 3); name = substr(name, 1, RSTART - 1) }
	if (!(name in names)) {
		if (name ~ /^(breakdown|group):/) pseudo++
		else if (name ~ /^(Function Name|Demangled Name|Device Name|Grid Size|Block Size)$/) id[name] = f[2] "/" f[3] "/" f[4]
		else if (name ~ /^Process$/) id[name] = f[2]
		else other++
		next
	}
	rowsn++
	for (r = 0; r < 3; r++) {
		key = r SUBSEP name
		if (!(key in val)) continue
		cells++; c = f[r + 2]; ni = ""
		if (match(c, / ?\{[0-9]+\}$/)) { ni = substr(c, RSTART, RLENGTH); gsub(/[ {}]/, "", ni); c = substr(c, 1, RSTART - 1) }
		if ((ni == "" && inst[key] <= 1) || ni == inst[key]) ninst++
		if (c == val[key] || c == "") nval++
		if (u == unit[key]) nunit++
	}
}
END {
	printf "%s|%d rows|%d pseudo|0 other|%d other|%d cells|%d inst|%d val|%d unit", hdr, rowsn, pseudo, other, cells, ninst, nval, nunit
	for (k in id) printf "|%s=%s", k, id[k]
	printf "\n"
}' "$D/$b.raw_transposed.csv" | tr '|' '\n' | sort | tr '\n' '|')
# identification rows from our list / session output
"$GPUPROF" --format json ncu list "$D/$b.ncu-rep" | jflat >"$tmp/lj.txt"
"$GPUPROF" --format json ncu session "$D/$b.ncu-rep" | jflat >"$tmp/sj.txt"
dim() { sed -n "s/.*|$1=(\([0-9]*\), \([0-9]*\), \([0-9]*\)).*/\1 \2 \3/p" "$tmp/lj.txt" |
	while read -r x y z; do printf '%5s,%5s,%5s\n' "$x" "$y" "$z"; done | paste -sd/ -; }
kn=$(sed -n 's/.*|kernel=\([^|]*\).*/\1/p' "$tmp/lj.txt" | paste -sd/ -)
dev=$(sed -n 's/.*|attribute=display_name|value=//p' "$tmp/sj.txt")
pid=$(sed -n 's/^pid=\([0-9]*\)|name=.*[\\/]\([^\\/|]*\)|.*/[\1] \2/p' "$tmp/sj.txt")
want="0 other|12 other|16 pseudo|1688 rows|5015 unit|5032 val|5064 cells|5064 inst|Block Size=$(dim block)|Demangled Name=$kn|Device Name=$dev/$dev/$dev|Function Name=$kn|Grid Size=$(dim grid)|ID,0,1,2|Process=$pid|"
if [ "$got" = "$want" ]; then ok; else bad "raw_transposed $b: got '$got' want '$want'"; fi

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
# (src/ncu/describe.c: 158 of the basic report's metrics, full names or a
# described counter with a described rollup)
n=$("$GPUPROF" --format json ncu raw "$D/ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep" |
	grep -c '"description": "Wall time the kernel ran on the GPU."')
d=$("$GPUPROF" --format json ncu raw "$D/ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep" | grep -c '"description": "')
if [ "$n" -eq 1 ] && [ "$d" -eq 158 ]; then ok; else bad "raw json descriptions: $n / $d"; fi

# raw --format json against the text table of the same reports
# (tests/ncu/raw_json.py): each comma-grouped value is its number, each
# launch appears once with its kernel
if command -v python3 >/dev/null 2>&1; then
	python3 tests/ncu/raw_json.py "$GPUPROF" "$D/ncu2021.1_gtx1660s_raytracer.ncu-rep" \
		"$D/ncu2023.2_a10_default_105kernels.ncu-rep" >"$tmp/rawjson" 2>&1
	rc=$?
	while read -r first rest; do
		case $first in ok) ok ;; *) bad "${rest#ncu: }" ;; esac
	done <"$tmp/rawjson"
	[ $rc -eq 0 ] && [ -s "$tmp/rawjson" ] || bad "tests/ncu/raw_json.py: exit $rc"
else
	echo "skip ncu: raw json against the text: no python3"
fi

# 4b. SASS text (`ncu source`, docs/ncu.md "SASS text"): every row's Address
# and Source against ncu's own source CSVs, with NVIDIA's nvdisasm
# ($GPUPROF_NVDISASM, else build/nvdisasm/nvdisasm, fetched by
# tools/get-nvdisasm.sh when absent; failing to get it is a failure, not a
# skip); then the report without nvdisasm (a note, exit 0), with one that
# fails (its message, exit 0) and with a cubin whose ELF is broken (exit 2,
# one line with the byte offset).
s3=$D/ncu2025.3_rtx3080ti_basic_sassscope
s4=$D/ncu2025.4_rtx3060_basic_srccounters_sassscope
nvd=${GPUPROF_NVDISASM:-build/nvdisasm/nvdisasm}
[ -x "$nvd" ] || sh tools/get-nvdisasm.sh "$nvd" >/dev/null || true
if [ ! -x "$nvd" ]; then
	bad "sass: no nvdisasm at $nvd (tools/get-nvdisasm.sh failed)"
elif "$PY" tests/ncu/sass_check.py "$GPUPROF" "$nvd" "$s3.ncu-rep" "$s3.source_sass.csv" \
	"$s4.ncu-rep" "$s4.source_sass.csv" >"$tmp/sass.log" 2>&1; then
	ok
else
	bad "sass: $(grep -v '^ok' "$tmp/sass.log" | head -5)"
fi
# CUDA source lines (table cuda, columns file/line) against ncu's
# --print-source cuda,sass CSV; a report without line tables: an empty
# table and the reason.
if [ -x "$nvd" ] && "$PY" tests/ncu/cuda_check.py "$GPUPROF" "$nvd" "$s4.ncu-rep" \
	"$s4.source_cuda_sass.csv" >"$tmp/cuda.log" 2>&1; then
	ok
else
	bad "cuda lines: $(head -5 "$tmp/cuda.log")"
fi
got=$("$GPUPROF" --format json ncu source --id 0 "$D/ncu2024.2_t4_full_mlp.ncu-rep" 2>&1 |
	"$PY" -c 'import json,sys; d=json.load(sys.stdin)
print(len(d["cuda"]), {r["line"] for r in d["source"]}, d["kernels"][0]["cuda_note"])' 2>&1)
[ "$got" = "0 {None} the cubin has no line table (.debug_line; compile with -lineinfo)" ] && ok ||
	bad "cuda lines without a line table: [$got]"
mkdir -p "$tmp/nopath"
out=$(env -u GPUPROF_NVDISASM PATH="$tmp/nopath" "$GPUPROF" --format json ncu source "$s4.ncu-rep" 2>"$tmp/err")
rc=$?
got=$(printf '%s' "$out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); k=d["kernels"][0]
print(len(d["source"]), sum(r["source"] is None for r in d["source"]), d["source"][4]["inst_executed"], k["note"][:33])' 2>&1)
[ $rc -eq 0 ] && [ "$got" = "18 18 1 SASS text needs NVIDIA's nvdisasm" ] && ok ||
	bad "sass without nvdisasm: exit $rc, [$got] $(cat "$tmp/err")"
printf '#!/bin/sh\necho "nvdisasm fatal   : made to fail" >&2\nexit 3\n' >"$tmp/nopath/nvdisasm"
chmod +x "$tmp/nopath/nvdisasm"
got=$(env -u GPUPROF_NVDISASM PATH="$tmp/nopath" "$GPUPROF" --format csv --table kernels ncu source "$s4.ncu-rep" 2>&1)
rc=$?
case $got in *"SM86 failed (exit status 3): nvdisasm fatal   : made to fail"*) [ $rc -eq 0 ] && ok || bad "sass failing nvdisasm: exit $rc" ;;
*) bad "sass failing nvdisasm: [$got]" ;; esac
# the cubin's e_shoff (ELF offset 0x28) made to point past its end
elf=$(grep -obUaP '\x7fELF' "$s3.ncu-rep" | head -1 | cut -d: -f1)
cp "$s3.ncu-rep" "$tmp/badelf.ncu-rep"
printf '\177' | dd of="$tmp/badelf.ncu-rep" bs=1 seek=$((elf + 0x2f)) conv=notrunc 2>/dev/null
"$GPUPROF" ncu source --nvdisasm "$tmp/nopath/nvdisasm" "$tmp/badelf.ncu-rep" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "byte $((elf + 0x28)).*section header table past the end" "$tmp/err" && ok ||
	bad "sass broken cubin: exit $rc: $(cat "$tmp/err")"
[ -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'gpuprof-sass-*' -newer "$tmp/badelf.ncu-rep" 2>/dev/null)" ] && ok ||
	bad "sass: a temporary file left behind"

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
