#!/bin/sh
# The heap's tunables (src/cli/hugepages.c): when gpuprof executes itself
# again with glibc.malloc.hugetlb=1 and the tunables that keep freed
# memory for reuse, what the second image
# gets in its environment, what the programs it starts get, and that the
# outputs are the same bytes. The executions are seen by strace (-f: the
# second image and the children), the kernel's mode is read here from /sys.
# Closing line: "hugepages: N passed, N failed".
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL hugepages: $*"; fail=$((fail + 1)); }
check() { # description command...
	what=$1
	shift
	if "$@"; then ok; else bad "$what"; fi
}
if ! command -v strace >/dev/null 2>&1; then
	echo "FAIL hugepages: strace not installed (Debian strace; tools/setup.sh installs it)"
	echo "hugepages: 0 passed, 1 failed"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-huge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mode=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case $mode in *"[madvise]"*) madvise=1 ;; *) madvise=0 ;; esac
big=$tmp/big.json
"$GPUPROF" -q synth --size 40M -o "$big" || bad "synth --size 40M"
small=tests/golden/_inputs/full.json

# execs ENV... -- ARGS: the execve lines of a run under strace -f, one a
# line: the path, then GLIBC_TUNABLES= and GPUPROF_GLIBC_TUNABLES_WAS= as
# the call passed them ("-" when absent)
execs() {
	unsets=
	envs=
	while [ "$1" != -- ]; do
		case $1 in
		-u)
			unsets="$unsets -u $2"
			shift
			;;
		*) envs="$envs $1" ;;
		esac
		shift
	done
	shift
	# shellcheck disable=SC2086
	env $unsets $envs strace -f -qq -v -s 4096 -e trace=execve -o "$tmp/strace" "$GPUPROF" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	grep 'execve(' "$tmp/strace" | grep -v 'resumed>' | awk '{
		path = $0; sub(/^[^"]*"/, "", path); sub(/".*/, "", path)
		t = "-"; w = "-"
		if (match($0, /"GLIBC_TUNABLES=[^"]*"/)) t = substr($0, RSTART + 16, RLENGTH - 17)
		if (match($0, /"GPUPROF_GLIBC_TUNABLES_WAS=[^"]*"/)) w = substr($0, RSTART + 28, RLENGTH - 29)
		print path, t, w }'
}

# What a one-shot command adds after glibc.malloc.hugetlb=1 (src/cli/hugepages.c)
reuse=glibc.malloc.mmap_threshold=16777216:glibc.malloc.trim_threshold=17179869184:glibc.malloc.arena_max=1
[ "$madvise" = 1 ] && huge=glibc.malloc.hugetlb=1: || huge= # the mode is not madvise: no huge pages
# a 40 MB trace: executed again with the tunables, the mark says it was unset
got=$(execs -u GLIBC_TUNABLES -u GPUPROF_HUGEPAGES -- -q info "$big")
want="$GPUPROF - -
/proc/self/exe $huge$reuse -"
check "40 MB trace, mode '$mode': execs [$got], want [$want]" test "$got" = "$want"
# the same trace gzip-compressed (a few MB on disk): counted inflated
gzip -c "$big" >"$big.gz"
got=$(execs -u GLIBC_TUNABLES -u GPUPROF_HUGEPAGES -- -q info "$big.gz")
check ".gz of the 40 MB trace ($(wc -c <"$big.gz") bytes): execs [$got], want [$want]" test "$got" = "$want"
# the user's other tunables are kept, ours appended but those the user
# names (arena_max here), the mark holds the user's
got=$(execs GLIBC_TUNABLES=glibc.malloc.arena_max=2 -u GPUPROF_HUGEPAGES -- -q info "$big")
want="$GPUPROF glibc.malloc.arena_max=2 -
/proc/self/exe glibc.malloc.arena_max=2:${huge}glibc.malloc.mmap_threshold=16777216:glibc.malloc.trim_threshold=17179869184 =glibc.malloc.arena_max=2"
check "other tunables kept: execs [$got], want [$want]" test "$got" = "$want"
# the user's own hugetlb: kept, the others added
got=$(execs GLIBC_TUNABLES=glibc.malloc.hugetlb=0 -u GPUPROF_HUGEPAGES -- -q info "$big")
want="$GPUPROF glibc.malloc.hugetlb=0 -
/proc/self/exe glibc.malloc.hugetlb=0:$reuse =glibc.malloc.hugetlb=0"
check "the user's hugetlb kept: execs [$got], want [$want]" test "$got" = "$want"
# serve (long-running: memory it frees goes back): huge pages only; an
# unknown option ends the second image at once
got=$(execs -u GLIBC_TUNABLES -u GPUPROF_HUGEPAGES -- serve --no-such-option)
[ "$madvise" = 1 ] && want="$GPUPROF - -
/proc/self/exe glibc.malloc.hugetlb=1 -" || want="$GPUPROF - -"
check "serve: execs [$got], want [$want]" test "$got" = "$want"
# every tunable the user's, GPUPROF_HUGEPAGES=0, a small trace: executed once
all=glibc.malloc.hugetlb=0:glibc.malloc.mmap_threshold=0:glibc.malloc.trim_threshold=0:glibc.malloc.arena_max=2
for case in "GLIBC_TUNABLES=$all -u GPUPROF_HUGEPAGES -- -q info $big" \
	"-u GLIBC_TUNABLES GPUPROF_HUGEPAGES=0 -- -q info $big" \
	"-u GLIBC_TUNABLES -u GPUPROF_HUGEPAGES -- -q info $small"; do
	# shellcheck disable=SC2086
	n=$(execs $case | wc -l)
	check "executed once: $case ($n)" test "$n" -eq 1
done
# GPUPROF_HUGEPAGES=1: even a small trace
n=$(execs -u GLIBC_TUNABLES GPUPROF_HUGEPAGES=1 -- -q info "$small" | wc -l)
check "GPUPROF_HUGEPAGES=1 on a small trace: executed twice ($n)" test "$n" -eq 2
# the second image's answer is the first's, byte for byte
for cmd in info summary; do
	GPUPROF_HUGEPAGES=0 "$GPUPROF" -q "$cmd" --format json "$big" >"$tmp/$cmd.small" 2>&1
	GPUPROF_HUGEPAGES=1 "$GPUPROF" -q "$cmd" --format json "$big" >"$tmp/$cmd.huge" 2>&1
	check "$cmd: the same bytes on huge pages" cmp -s "$tmp/$cmd.small" "$tmp/$cmd.huge"
	check "$cmd: an answer" grep -q '"events"\|"steps"' "$tmp/$cmd.huge"
done
# the programs gpuprof starts see the user's environment: a stand-in nsys
# that writes its environment and says its version
mkdir -p "$tmp/bin"
cat >"$tmp/bin/nsys" <<EOF
#!/bin/sh
env >>"$tmp/nsys-env"
[ "\$1" = --version ] && echo "NVIDIA Nsight Systems version 2025.1.3" && exit 0
exit 3
EOF
chmod +x "$tmp/bin/nsys"
for was in unset glibc.malloc.arena_max=2; do
	rm -f "$tmp/nsys-env"
	if [ "$was" = unset ]; then
		n=$(execs -u GLIBC_TUNABLES GPUPROF_HUGEPAGES=1 "PATH=$tmp/bin:$PATH" -- \
			nsys profile --run-dir "$tmp/run-$was" -- true | awk -v g="$GPUPROF" '$1 == g || $1 == "/proc/self/exe"' | wc -l)
	else
		n=$(execs "GLIBC_TUNABLES=$was" GPUPROF_HUGEPAGES=1 "PATH=$tmp/bin:$PATH" -- \
			nsys profile --run-dir "$tmp/run-$was" -- true | awk -v g="$GPUPROF" '$1 == g || $1 == "/proc/self/exe"' | wc -l)
	fi
	check "nsys profile ($was): gpuprof executed twice ($n)" test "$n" -eq 2
	check "nsys profile ($was): the stand-in ran" test -s "$tmp/nsys-env"
	check "nsys profile ($was): no mark in the child's environment" \
		sh -c '! grep -q "^GPUPROF_GLIBC_TUNABLES_WAS=" "$1"' sh "$tmp/nsys-env"
	if [ "$was" = unset ]; then
		check "nsys profile: GLIBC_TUNABLES unset in the child" \
			sh -c '! grep -q "^GLIBC_TUNABLES=" "$1"' sh "$tmp/nsys-env"
	else
		check "nsys profile: GLIBC_TUNABLES as the user set it" \
			sh -c 'test "$(grep "^GLIBC_TUNABLES=" "$1" | sort -u)" = "GLIBC_TUNABLES=$2"' sh \
			"$tmp/nsys-env" "$was"
	fi
done
echo "hugepages: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
