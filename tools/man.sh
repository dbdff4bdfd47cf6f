#!/bin/sh
# The man page with its generated parts in place: every region between
# `.\" {{ KEY` and `.\" }}` of PAGE is replaced by the part KEY of
# `GPUPROF help --man` (the synopsis, each command's .SS line and option
# list, ENVIRONMENT: from the declarations). A command the page has no
# region for yet (a new one) gets its regions at the end of COMMANDS; a
# region whose part is no longer generated is an error.
#   tools/man.sh GPUPROF PAGE           the page, to stdout
#   tools/man.sh --check GPUPROF PAGE   exit 1, with a diff, when PAGE differs
set -eu
check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
[ $# -eq 2 ] || {
	echo "usage: tools/man.sh [--check] GPUPROF PAGE" >&2
	exit 2
}
gp=$1
page=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gp" help --man >"$tmp/parts"
awk -v parts="$tmp/parts" '
function flush_new(   k) {
	for (i = 1; i <= nkeys; i++) {
		k = keys[i]
		if (!(k in used) && (k ~ /^(cmd|opts) /)) {
			printf ".\\\" {{ %s\n%s.\\\" }}\n", k, part[k]
			used[k] = 1
		}
	}
}
BEGIN {
	while ((getline line < parts) > 0) {
		if (line ~ /^\.\\" \{\{ /) {
			key = substr(line, 8)
			keys[++nkeys] = key
			part[key] = ""
			continue
		}
		if (line == ".\\\" }}") {
			key = ""
			continue
		}
		part[key] = part[key] line "\n"
	}
}
/^\.\\" \{\{ / {
	key = substr($0, 8)
	if (!(key in part)) {
		printf "man.sh: %s:%d: no generated part \"%s\" (remove the region)\n", FILENAME, NR, key > "/dev/stderr"
		bad = 1
	}
	print
	printf "%s", part[key]
	used[key] = 1
	skip = 1
	next
}
skip && $0 == ".\\\" }}" { skip = 0; print; next }
skip { next }
/^\.SH / && incmds { flush_new(); incmds = 0 }
/^\.SH COMMANDS/ { incmds = 1 }
{ print }
END {
	if (incmds)
		flush_new()
	for (i = 1; i <= nkeys; i++)
		if (!(keys[i] in used)) {
			printf "man.sh: %s has no region for \"%s\"\n", FILENAME, keys[i] > "/dev/stderr"
			bad = 1
		}
	exit bad
}' "$page" >"$tmp/page"
if [ -z "$check" ]; then
	cat "$tmp/page"
	exit 0
fi
if ! cmp -s "$page" "$tmp/page"; then
	diff -u "$page" "$tmp/page" | head -n 40 >&2
	echo "man.sh: $page differs from the declarations: run 'make man'" >&2
	exit 1
fi
