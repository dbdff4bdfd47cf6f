# Helpers for the hostile-input stage (sourced by run.sh; the case files in
# cases/ call them). Each case runs with a fresh, empty TMPDIR and a fresh,
# empty output folder ($H_OUT), and checks, as separate tests:
#   - the exit status,
#   - the message on stderr (an extended regular expression, "" for none; with exit 2
#     it must also be exactly one line),
#   - the wall time against a bound in seconds,
#   - that nothing is left in TMPDIR or in $H_OUT (unless the case names
#     the files it expects there with h_keep).
# Large inputs are generated at test time into $H_IN (removed at the end).
pass=0
fail=0
h_ok() { pass=$((pass + 1)); }
h_bad() {
	echo "FAIL hostile: $*"
	fail=$((fail + 1))
}
H_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-hostile.XXXXXX")
H_IN=$H_ROOT/in
mkdir -p "$H_IN"
trap 'rm -rf "$H_ROOT"' EXIT
h_keep_list=
# h_keep FILE...: names (relative to $H_OUT) the next h_case may leave.
h_keep() { h_keep_list="$*"; }
h_now() { date +%s.%N; }
# h_elapsed T0: seconds since T0, with three decimals.
h_elapsed() { awk -v a="$1" -v b="$(h_now)" 'BEGIN { printf "%.3f", b - a }'; }
# h_case NAME WANT_RC MESSAGE_ERE LIMIT_S 'COMMAND'
# COMMAND is one string, run with eval once $H_OUT (an empty output folder)
# and TMPDIR are set: quote it so that $H_OUT expands then.
h_case() {
	name=$1 want=$2 msg=$3 limit=$4
	cmd=$5
	H_OUT=$H_ROOT/out-$name
	ht=$H_ROOT/tmp-$name
	rm -rf "$H_OUT" "$ht"
	mkdir -p "$H_OUT" "$ht"
	export H_OUT H_IN
	t0=$(h_now)
	# a subshell that exports TMPDIR: an assignment before eval (a special
	# built-in) would stay in this shell and never reach the command's
	# children
	(
		TMPDIR=$ht
		export TMPDIR
		eval "$cmd"
	) >"$H_ROOT/stdout" 2>"$H_ROOT/stderr"
	rc=$?
	took=$(h_elapsed "$t0")
	[ "$rc" -eq "$want" ] && h_ok || h_bad "$name: exit $rc, want $want ($(head -c 300 "$H_ROOT/stderr"))"
	if [ -z "$msg" ]; then
		[ ! -s "$H_ROOT/stderr" ] && h_ok || h_bad "$name: stderr not empty: $(head -c 300 "$H_ROOT/stderr")"
	elif grep -Eq -- "$msg" "$H_ROOT/stderr"; then h_ok; else
		h_bad "$name: stderr does not match /$msg/: $(head -c 300 "$H_ROOT/stderr")"
	fi
	if [ "$want" -eq 2 ]; then
		n=$(wc -l <"$H_ROOT/stderr")
		[ "$n" -eq 1 ] && h_ok || h_bad "$name: $n lines on stderr, want 1"
	fi
	if awk -v a="$took" -v b="$limit" 'BEGIN { exit !(a <= b) }'; then h_ok; else
		h_bad "$name: took $took s, bound $limit s"
	fi
	left=$(ls -A "$ht")
	[ -z "$left" ] && h_ok || h_bad "$name: left in TMPDIR: $left"
	left=$(cd "$H_OUT" && ls -A | grep -vxF -e "${h_keep_list:-/}" | tr '\n' ' ')
	[ -z "$left" ] && h_ok || h_bad "$name: left in the output folder: $left"
	h_keep_list=
}
# h_check NAME CONDITION...: one test that passes when the command succeeds.
h_check() {
	name=$1
	shift
	if "$@"; then h_ok; else h_bad "$name"; fi
}
