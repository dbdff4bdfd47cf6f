#!/bin/sh
# Shell completion in the real shells, the man page against the
# declarations, make install/uninstall into a DESTDIR, and the Debian
# package of `make deb` (dpkg-deb, dpkg -x, apt-get install -s). The closing line is "pkg: N passed, N failed".
set -u
: "${GPUPROF:?}"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL pkg: $*"; fail=$((fail + 1)); }
skip() { echo "skip pkg: $*"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-pkg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$GPUPROF" completion bash >"$tmp/gpuprof.bash"
"$GPUPROF" completion zsh >"$tmp/_gpuprof"
"$GPUPROF" completion fish >"$tmp/gpuprof.fish"

# usage errors: no shell, an unknown one (with the closest)
"$GPUPROF" completion >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -qx "gpuprof: completion: give one shell: bash, zsh or fish" "$tmp/err" && ok ||
	bad "completion without a shell: $(head -n 1 "$tmp/err")"
"$GPUPROF" completion bsh >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -qx "gpuprof: completion: unknown shell 'bsh'; did you mean 'bash'? (bash, zsh or fish)" "$tmp/err" && ok ||
	bad "completion bsh: $(head -n 1 "$tmp/err")"
"$GPUPROF" completion fish -o "$tmp/o.fish" && cmp -s "$tmp/o.fish" "$tmp/gpuprof.fish" && ok ||
	bad "completion fish -o FILE differs from its stdout"

# --- bash: the completion function with COMP_WORDS/COMP_CWORD as bash sets
# them; the candidates sorted, one line
bash_complete() { # word... (the last one is the word being completed)
	bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpuprof
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" " "' \
		"$tmp/gpuprof.bash" gpuprof "$@"
}
expect_bash() { # want word...
	want=$1
	shift
	got=$(bash_complete "$@")
	[ "$got" = "$want" ] && ok || bad "bash: gpuprof $*<TAB>: got '$got', want '$want'"
}
bash -n "$tmp/gpuprof.bash" && ok || bad "bash -n: syntax error"
expect_bash "summary " su
expect_bash "--sort " ops --so
expect_bash "csv json markdown table " --format ''
expect_bash "csv " --format = c
expect_bash "op op+shape " ops --group-by ''
expect_bash "kernel kernel+op " kernels --group-by k
expect_bash "body details diff hints list raw session source " ncu ''
expect_bash "pprof " export pp
expect_bash "ns us " export folded --unit ''
expect_bash "api diff gpus info kernels memcpy nvtx steps " nsys x.sqlite ''
expect_bash "--run-dir " nsys analyze --run-
expect_bash "bash fish zsh " completion ''
expect_bash "resnet tiny " synth --model ''
expect_bash "sequences serve " help se
# options after an option's value and an operand; -n takes a value
expect_bash "--stack --step --strict " ops -n 5 --st
expect_bash "--gpu " top examples/tiny.json --g
# files where a file goes (a TRACE, -o FILE, nsys FILE.sqlite), not after
# export's verb slot or nsys's view
expect_bash "examples/tiny.json " summary examples/tin
expect_bash "examples/tiny.json " --output examples/tin
got=$(bash_complete nsys '')
case $got in *"analyze "*examples*) ok ;; *) bad "bash: gpuprof nsys <TAB>: got '$got', want analyze and the files" ;; esac
got=$(bash_complete nsys a)
[ "$got" = "analyze " ] && ok || bad "bash: gpuprof nsys a<TAB>: got '$got'"
got=$(bash_complete nsys x.sqlite kernels '')
[ -z "$got" ] && ok || bad "bash: nothing after nsys FILE VIEW, got '$got'"

# --- generated from the declarations: each command's options as its --help
# lists them (the "Options:" block, or nsys's three lists), and the global
# options as `gpuprof --help` lists them
globals=$("$GPUPROF" --help | sed -n '/^Global options/,/^$/p' | grep -oE -- '(^  -[a-z]|--[a-z][a-z-]*)' |
	tr -d ' ' | LC_ALL=C sort -u | tr '\n' ' ')
help_opts() { # command: the spellings of its --help option lines, less the globals
	"$GPUPROF" "$1" --help | sed '/^Global options/,$d' | grep -E '^(  |      )(-[a-zA-Z], )?--[a-z]' |
		sed -E 's/^ *(-[a-zA-Z])?(, )?(--[a-z][a-z-]*).*/\1 \3/' | tr ' ' '\n' | grep . |
		while read -r o; do
			case " $globals" in *" $o "*) ;; *) printf "%s\n" "$o" ;; esac
		done | LC_ALL=C sort -u | tr '\n' ' '
}
bash_opts() { # context
	bash -c '. "$0"; _gpuprof_opts "$1"; [ -z "$_gpuprof_w" ] || printf "%s\n" $_gpuprof_w | LC_ALL=C sort -u | tr "\n" " "' \
		"$tmp/gpuprof.bash" "$1"
}
for c in $("$GPUPROF" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF>1 {print $1}'); do
	if [ "$c" = nsys ]; then
		want=$(help_opts nsys)
		got=$(printf '%s\n' $(bash_opts nsys) $(bash_opts nsys.analyze) $(bash_opts nsys.profile) | LC_ALL=C sort -u | tr '\n' ' ')
	else
		want=$(help_opts "$c")
		got=$(bash_opts "$c")
	fi
	[ "$got" = "$want" ] && ok || bad "bash: options of $c: '$got', its --help lists '$want'"
done
want=$globals
got=$(bash -c '. "$0"; printf "%s\n" $_gpuprof_globals | LC_ALL=C sort -u | tr "\n" " "' "$tmp/gpuprof.bash")
[ "$got" = "$want" ] && ok || bad "global options: declared '$got', gpuprof --help lists '$want'"

# --- fish: its own completion engine (complete -C)
if command -v fish >/dev/null 2>&1; then
	fish -n "$tmp/gpuprof.fish" && ok || bad "fish -n: syntax error"
	expect_fish() { # want line
		got=$(fish -c 'source $argv[1]; complete -C $argv[2]' "$tmp/gpuprof.fish" "$2" |
			cut -f1 | LC_ALL=C sort | tr '\n' ' ')
		[ "$got" = "$1" ] && ok || bad "fish: '$2<TAB>': got '$got', want '$1'"
	}
	expect_fish "summary " "gpuprof su"
	expect_fish "--sort " "gpuprof ops --so"
	expect_fish "csv json markdown table " "gpuprof --format "
	expect_fish "body details diff hints list raw session source " "gpuprof ncu "
	expect_fish "api diff gpus info kernels memcpy nvtx steps " "gpuprof nsys x.sqlite "
	expect_fish "--run-dir " "gpuprof nsys analyze --run-"
	expect_fish "op op+shape " "gpuprof ops --group-by "
	expect_fish "examples/tiny.json " "gpuprof summary examples/tin"
else
	skip "fish: no fish (Debian's fish)"
fi

# --- zsh: an interactive zsh with compinit in a pseudo-terminal (zpty)
# completes the line; a function named gpuprof prints what it became
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$tmp/_gpuprof" && ok || bad "zsh -n: syntax error"
	mkdir -p "$tmp/zfunc"
	cp "$tmp/_gpuprof" "$tmp/zfunc/_gpuprof"
	cat >"$tmp/zpty.zsh" <<'EOF'
zmodload zsh/zpty
zpty z "env -i PATH=$PATH HOME=$2 TERM=dumb zsh -f -i"
zpty -w z "fpath=($2/zfunc \$fpath); autoload -U compinit; compinit -u -D; unsetopt beep; gpuprof() { print -r -- \"AR\"\"GS:\$*:E\"\"ND\" }; cd $3"
zpty -n -w z "gpuprof $1"$'\t\n'
zpty -r z out '*ARGS:*:END*'
zpty -d z
out=${out##*ARGS:}
print -r -- "${out%%:END*}"
EOF
	expect_zsh() { # want line
		got=$(timeout 10 zsh -f "$tmp/zpty.zsh" "$2" "$tmp" "$PWD" 2>/dev/null)
		[ "$got" = "$1" ] && ok || bad "zsh: 'gpuprof $2<TAB>': got '$got', want '$1'"
	}
	expect_zsh "summary" "su"
	expect_zsh "ops --sort" "ops --so"
	expect_zsh "--format json" "--format j"
	expect_zsh "--format=csv" "--format=c"
	expect_zsh "ncu list" "ncu l"
	expect_zsh "nsys x.sqlite kernels" "nsys x.sqlite ke"
	expect_zsh "nsys analyze --run-dir" "nsys analyze --run-"
	expect_zsh "summary examples/tiny.json" "summary examples/tin"
else
	skip "zsh: no zsh (Debian's zsh)"
fi

# --- the man page: its generated parts are the declarations', it renders
# without a warning, ENVIRONMENT names every variable the sources read
sh tools/man.sh --check "$GPUPROF" man/gpuprof.1 2>"$tmp/man-check" && ok ||
	bad "man/gpuprof.1 differs from the declarations: $(tail -n 1 "$tmp/man-check")"
# a page that drifted (an option item lost, a region of no command) fails
sed '/^\\fB\\-\\-gzip\\fP$/d' man/gpuprof.1 >"$tmp/drift.1"
sh tools/man.sh --check "$GPUPROF" "$tmp/drift.1" >/dev/null 2>&1 && bad "man.sh --check: a lost option item passes" || ok
sed 's/^\.\\" {{ cmd top$/.\\" {{ cmd topp/' man/gpuprof.1 >"$tmp/drift.1"
sh tools/man.sh --check "$GPUPROF" "$tmp/drift.1" 2>"$tmp/drift.err" >/dev/null && bad "man.sh --check: a stray region passes" || ok
grep -q 'no generated part "cmd topp"' "$tmp/drift.err" && ok || bad "man.sh: no message for the stray region: $(head -n 1 "$tmp/drift.err")"
# a command without regions (a new one) gets them at the end of COMMANDS
awk '/^\.\\" \{\{ cmd completion$/ {skip = 2} skip {skip--; next} {print}' man/gpuprof.1 >"$tmp/new.1"
sh tools/man.sh "$GPUPROF" "$tmp/new.1" >"$tmp/new-out.1" 2>/dev/null
got=$(grep -E '^(\.\\" \{\{ cmd completion|\.SH INPUT)$' "$tmp/new-out.1" | tr '\n' '|')
[ "$got" = '.\" {{ cmd completion|.SH INPUT|' ] && ok || bad "man.sh: a new command's regions not before INPUT: '$got'"
if command -v groff >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z man/gpuprof.1 2>"$tmp/groff"
	[ $? -eq 0 ] && [ ! -s "$tmp/groff" ] && ok || bad "groff -ww: $(head -n 3 "$tmp/groff")"
else
	skip "groff: no groff (Debian's groff-base)"
fi
envsec=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' man/gpuprof.1)
for v in $(grep -rhoE 'getenv\("[A-Z_]+"\)' src | sed 's/getenv("\(.*\)")/\1/' | sort -u); do
	printf '%s\n' "$envsec" | grep -qx ".B $v" && ok || bad "man ENVIRONMENT lacks $v (read by the sources)"
done
# EXIT STATUS lists exactly 0, 1 and 2, and the program exits with each
# where the page says: success, a tripped gate, a usage or input error
exitsec=$(sed -n '/^\.SH EXIT STATUS$/,/^\.SH /p' man/gpuprof.1)
got=$(printf '%s\n' "$exitsec" | awk 'prev == ".TP" && $1 == ".B" {print $2} {prev = $0}' | tr '\n' ' ')
[ "$got" = "0 1 2 " ] && ok || bad "man EXIT STATUS lists '$got', want '0 1 2 '"
exit_item() { # N: the text of EXIT STATUS's item N, one line
	printf '%s\n' "$exitsec" | awk -v n="$1" 'p && /^\.(TP|SH)/ {exit} p {print} $0 == ".B " n {p = 1}' | tr '\n' ' '
}
case $(exit_item 0) in Success.*) ok ;; *) bad "man EXIT STATUS 0: '$(exit_item 0)'" ;; esac
case $(exit_item 1) in *"gate tripped"*) ok ;; *) bad "man EXIT STATUS 1: '$(exit_item 1)'" ;; esac
case $(exit_item 2) in "Usage error, or an input that could not be read or parsed"*) ok ;;
*) bad "man EXIT STATUS 2: '$(exit_item 2)'" ;; esac
exit_of() { # command...: its exit status
	"$GPUPROF" -q "$@" >/dev/null 2>&1
	echo $?
}
printf 'xyz' >"$tmp/not-a-trace.json"
for c in "0 summary examples/tiny.json" \
	"0 diff --fail-if kernels.total_ns>+1% examples/tiny.json examples/tiny.json" \
	"1 diff --fail-if kernels.total_ns>-1% examples/tiny.json examples/tiny.json" \
	"2 summary --no-such-option examples/tiny.json" \
	"2 no-such-command" \
	"2 summary $tmp/absent.json" \
	"2 summary $tmp/not-a-trace.json"; do
	set -f
	set -- $c
	set +f
	want=$1
	shift
	got=$(exit_of "$@")
	[ "$got" = "$want" ] && ok || bad "exit status of gpuprof $*: $got, EXIT STATUS says $want"
done
# every global option has its item in GLOBAL OPTIONS
globsec=$(sed -n '/^\.SH GLOBAL OPTIONS/,/^\.SH /p' man/gpuprof.1 | grep -A0 -E '^\.(B|BI|BR) ')
for o in $("$GPUPROF" --help | sed -n '/^Global options/,/^$/p' | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
	printf '%s\n' "$globsec" | grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" && ok ||
		bad "man GLOBAL OPTIONS has no item for $o"
done

# --- make install / uninstall into a DESTDIR: exactly these files, then none
dest=$tmp/dest
make -s install DESTDIR="$dest" PREFIX=/usr INSTALL_BIN="$GPUPROF" >"$tmp/install.log" 2>&1 ||
	bad "make install: $(tail -n 3 "$tmp/install.log")"
(cd "$dest" && find . -type f | LC_ALL=C sort) >"$tmp/installed"
{
	echo ./usr/bin/gpuprof
	echo ./usr/share/bash-completion/completions/gpuprof
	for f in README.md docs/*.md docs/schemas/*.json; do
		[ -f "$f" ] && echo "./usr/share/doc/gpuprof/$f"
	done
	echo ./usr/share/fish/vendor_completions.d/gpuprof.fish
	echo ./usr/share/man/man1/gpuprof.1
	echo ./usr/share/zsh/vendor-completions/_gpuprof
} | LC_ALL=C sort >"$tmp/want-installed"
cmp -s "$tmp/installed" "$tmp/want-installed" && ok ||
	bad "make install: files differ: $(diff "$tmp/want-installed" "$tmp/installed" | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
cmp -s "$dest/usr/bin/gpuprof" "$GPUPROF" && ok || bad "make install: bin/gpuprof is not the binary"
cmp -s "$dest/usr/share/bash-completion/completions/gpuprof" "$tmp/gpuprof.bash" && ok ||
	bad "make install: the bash completion is not gpuprof completion bash's"
cmp -s "$dest/usr/share/zsh/vendor-completions/_gpuprof" "$tmp/_gpuprof" && ok ||
	bad "make install: the zsh completion is not gpuprof completion zsh's"
cmp -s "$dest/usr/share/fish/vendor_completions.d/gpuprof.fish" "$tmp/gpuprof.fish" && ok ||
	bad "make install: the fish completion is not gpuprof completion fish's"
[ "$(stat -c %a "$dest/usr/bin/gpuprof")" = 755 ] && ok || bad "make install: bin/gpuprof not 755"
make -s uninstall DESTDIR="$dest" PREFIX=/usr >"$tmp/uninstall.log" 2>&1 ||
	bad "make uninstall: $(tail -n 3 "$tmp/uninstall.log")"
left=$(cd "$dest" && find . -type f | head -n 5 | tr '\n' ' ')
[ -z "$left" ] && ok || bad "make uninstall left: $left"
[ ! -d "$dest/usr/share/doc/gpuprof" ] && ok || bad "make uninstall left share/doc/gpuprof/"

# --- the Debian package: `make deb` of the binary under test, written into
# the scratch folder (DEB, DEB_ROOT) by the recipe that writes
# build/gpuprof_VERSION_ARCH.deb, the file CI installs
if command -v dpkg-deb >/dev/null 2>&1 && command -v dpkg-shlibdeps >/dev/null 2>&1; then
	version=$(sed -n 's/^VERSION := //p' Makefile)
	arch=$(dpkg --print-architecture)
	deb=$tmp/gpuprof_${version}_$arch.deb
	# (the recipe's line alone: under `make check` a sub-make also prints
	# its directory changes)
	got=$(make -s -n --no-print-directory deb | grep -F 'tools/deb.sh' | tail -n 1)
	[ "$got" = "sh tools/deb.sh build/deb-root $version build/gpuprof_${version}_$arch.deb" ] && ok ||
		bad "make deb: its last step is '$got'"
	make -s deb INSTALL_BIN="$GPUPROF" DEB="$deb" DEB_ROOT="$tmp/deb-root" >"$tmp/deb.log" 2>&1 && [ -f "$deb" ] && ok ||
		bad "make deb: $(tail -n 3 "$tmp/deb.log")"
	# the tree it packaged is make install's (less the page, now gzipped)
	(cd "$tmp/deb-root" && find . -path ./DEBIAN -prune -o -type f -print | LC_ALL=C sort) >"$tmp/deb-tree"
	sed 's|^\./usr/share/man/man1/gpuprof.1$|./usr/share/man/man1/gpuprof.1.gz|' "$tmp/want-installed" |
		{ cat; echo ./usr/share/doc/gpuprof/copyright; echo ./usr/share/doc/gpuprof/changelog.gz; } |
		LC_ALL=C sort | cmp -s - "$tmp/deb-tree" && ok || bad "make deb: its install tree differs from make install's"
	field() { dpkg-deb --field "$deb" "$1"; }
	[ "$(field Package)" = gpuprof ] && ok || bad "deb: Package '$(field Package)'"
	[ "$(field Version)" = "$version" ] && ok || bad "deb: Version '$(field Version)', want $version"
	[ "$(field Architecture)" = "$arch" ] && ok || bad "deb: Architecture '$(field Architecture)'"
	[ -n "$(field Maintainer)" ] && [ -n "$(field Description)" ] && ok || bad "deb: no Maintainer or Description"
	# Depends: the packages of the libraries the binary links (readelf's
	# NEEDED, found by ldd, owned per dpkg -S) and of the one `serve` opens
	# (libmicrohttpd, found by ldconfig), each exactly once
	deps=$(field Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | LC_ALL=C sort | tr '\n' ' ')
	needed=$(readelf -d "$GPUPROF" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	opened=$(ldconfig -p | awk '$1 == "libmicrohttpd.so.12" {print $NF; exit}')
	own=$(for l in $needed; do
		p=$(ldd "$GPUPROF" | awk -v l="$l" '$1 == l {print $3}')
		dpkg -S "$(readlink -f "$p")" 2>/dev/null || dpkg -S "$p"
	done; dpkg -S "$(readlink -f "$opened")" 2>/dev/null || dpkg -S "$opened")
	own=$(echo "$own" | sed 's/:.*//' | LC_ALL=C sort -u | tr '\n' ' ')
	case $needed in
	*libasan* | *libubsan*) skip "deb Depends: a sanitizer build (links $own)" ;;
	*)
		[ "$deps" = "$own" ] && ok || bad "deb: Depends '$deps', the binary's libraries are in '$own'"
		[ "$deps" = "libc6 libisal2 libmicrohttpd12 libsqlite3-0 libyaml-0-2 zlib1g " ] && ok ||
			bad "deb: Depends '$deps'"
		;;
	esac
	dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ {print $2, $6}' | LC_ALL=C sort -k2 >"$tmp/contents"
	sed 's|^\./usr/share/man/man1/gpuprof.1$|./usr/share/man/man1/gpuprof.1.gz|' "$tmp/want-installed" |
		{ cat; echo ./usr/share/doc/gpuprof/copyright; echo ./usr/share/doc/gpuprof/changelog.gz; } |
		LC_ALL=C sort >"$tmp/want-contents"
	awk '{print $2}' "$tmp/contents" | LC_ALL=C sort | cmp -s - "$tmp/want-contents" && ok ||
		bad "deb: contents differ: $(awk '{print $2}' "$tmp/contents" | diff "$tmp/want-contents" - | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
	grep -v '^root/root ' "$tmp/contents" | head -n 1 | grep -q . && bad "deb: files not owned by root: $(grep -v '^root/root ' "$tmp/contents" | head -n 1)" || ok
	# what it installs works: dpkg -x, then the binary, page and scripts
	dpkg-deb -x "$deb" "$tmp/x"
	[ "$("$tmp/x/usr/bin/gpuprof" --version)" = "$("$GPUPROF" --version)" ] && ok ||
		bad "deb: the packaged gpuprof --version differs"
	"$tmp/x/usr/bin/gpuprof" summary examples/tiny.json >"$tmp/x-summary" 2>&1
	"$GPUPROF" summary examples/tiny.json >"$tmp/b-summary" 2>&1
	cmp -s "$tmp/x-summary" "$tmp/b-summary" && ok || bad "deb: the packaged gpuprof summary differs"
	zcat "$tmp/x/usr/share/man/man1/gpuprof.1.gz" | cmp -s - man/gpuprof.1 && ok ||
		bad "deb: gpuprof.1.gz is not man/gpuprof.1"
	gzip -l "$tmp/x/usr/share/man/man1/gpuprof.1.gz" >/dev/null && ok || bad "deb: man page not gzip"
	cmp -s "$tmp/x/usr/share/bash-completion/completions/gpuprof" "$tmp/gpuprof.bash" && ok ||
		bad "deb: the bash completion differs"
	# apt resolves it: installing it (simulated) pulls nothing else, its
	# Depends being installed where it was built
	if ! command -v apt-get >/dev/null 2>&1; then
		skip "apt-get install -s: no apt-get"
	elif dpkg -s gpuprof >/dev/null 2>&1; then
		skip "apt-get install -s: gpuprof is installed on this machine"
	else
		apt-get install -s "$deb" >"$tmp/apt" 2>&1
		rc=$?
		got=$(grep -E '^(Inst|Conf|Remv) ' "$tmp/apt" | tr '\n' '|')
		want="Inst gpuprof ($version local-deb [$arch])|Conf gpuprof ($version local-deb [$arch])|"
		[ $rc -eq 0 ] && [ "$got" = "$want" ] && ok ||
			bad "apt-get install -s: exit $rc, '$got' (want '$want'): $(grep -E '^E: ' "$tmp/apt" | head -n 2 | tr '\n' ' ')"
	fi
	# Debian's own checker, where installed (optional: Debian's lintian)
	case $needed in
	*libasan* | *libubsan*) skip "lintian: a sanitizer build" ;;
	*) false ;;
	esac || if command -v lintian >/dev/null 2>&1; then
		lintian --tag-display-limit 0 "$deb" >"$tmp/lintian" 2>&1
		grep -E '^[EW]: ' "$tmp/lintian" | head -n 1 | grep -q . &&
			bad "lintian: $(grep -E '^[EW]: ' "$tmp/lintian" | head -n 3 | tr '\n' ' ')" || ok
	else
		skip "lintian: not installed (Debian's lintian)"
	fi
else
	skip "deb: no dpkg-deb/dpkg-shlibdeps (Debian's dpkg-dev)"
fi

echo "pkg: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
