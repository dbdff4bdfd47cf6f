#!/bin/sh
# Builds the Debian package of gpuprof from an installed tree: `make
# install DESTDIR=STAGE PREFIX=/usr` first (the Makefile's deb target does
# it), then
#   tools/deb.sh STAGE VERSION OUT.deb
# gzips the man page (gzip -9n, as Debian policy wants), adds the
# copyright file, strips the binary, derives Depends from the libraries it
# links (dpkg-shlibdeps: each NEEDED library's package and version) and the
# one it opens itself (`serve`'s libmicrohttpd, src/server/srv_mhd.h) and
# writes OUT.deb with dpkg-deb --root-owner-group (files owned by root
# without fakeroot). Needs dpkg-dev (dpkg-shlibdeps, dpkg-architecture).
set -eu
[ $# -eq 3 ] || {
	echo "usage: tools/deb.sh STAGE VERSION OUT.deb" >&2
	exit 2
}
stage=$(cd "$1" && pwd)
version=$2
out=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
src=$(cd "$(dirname "$0")/.." && pwd)
for t in dpkg-deb dpkg-shlibdeps dpkg-architecture; do
	command -v "$t" >/dev/null || {
		echo "deb.sh: no $t (Debian's dpkg-dev: tools/setup.sh installs it)" >&2
		exit 2
	}
done
bin=$stage/usr/bin/gpuprof
[ -x "$bin" ] || {
	echo "deb.sh: $bin missing (make install DESTDIR=$stage PREFIX=/usr)" >&2
	exit 2
}
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$bin"
man=$stage/usr/share/man/man1/gpuprof.1
if [ -f "$man" ]; then
	gzip -9n "$man"
fi
doc=$stage/usr/share/doc/gpuprof
mkdir -p "$doc"
install -m 644 "$src/packaging/deb/copyright" "$doc/copyright"
# a native package's changelog.gz: the version and the commit it was built
# from, dated by that commit (the same bytes on every rebuild of it)
commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
when=$(git -C "$src" log -1 --format=%aD 2>/dev/null || date -R)
printf 'gpuprof (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
	"$version" "$commit" "gpuprof maintainers <maintainers@users.noreply.a-seed-82689d1a.example>" \
	"$when" | gzip -9n >"$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"
# Depends: dpkg-shlibdeps reads a debian/control; it gets a minimal one
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: gpuprof\n\nPackage: gpuprof\nArchitecture: any\n' >"$work/debian/control"
# (its warning that the binary is outside debian/PACKAGE/ is for package
# builds from a source tree, which this is not)
# the library `gpuprof serve` opens with dlopen is no NEEDED entry: a
# throw-away program that links it gives dpkg-shlibdeps its package
# (it calls one of the library's functions, so that dpkg-shlibdeps does
# not call the link useless)
printf '#include <microhttpd.h>\nint main(void) { return MHD_get_version() == 0; }\n' >"$work/opened.c"
${CC:-cc} -o "$work/opened" "$work/opened.c" -Wl,--no-as-needed -lmicrohttpd || {
	echo "deb.sh: cannot link a program against libmicrohttpd (libmicrohttpd-dev)" >&2
	exit 2
}
deps=$(cd "$work" && dpkg-shlibdeps -O "$bin" "$work/opened" 2>"$work/err" | sed -n 's/^shlibs:Depends=//p')
grep -v 'should already be installed in their package' "$work/err" >&2 || :
[ -n "$deps" ] || {
	echo "deb.sh: dpkg-shlibdeps found no dependencies" >&2
	exit 2
}
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<CTL
Package: gpuprof
Version: $version
Architecture: $arch
Maintainer: gpuprof maintainers <maintainers@users.noreply.a-seed-82689d1a.example>
Installed-Size: $size
Depends: $deps
Section: devel
Priority: optional
Description: answers from GPU profiles
 gpuprof reads PyTorch profiler (Kineto) traces, Nsight Compute reports and
 Nsight Systems runs and exports, and prints what is in them: tables for
 people, CSV for pandas, JSON for scripts. It exports call stacks for pprof,
 flame graphs and speedscope, and serves a local web viewer.
CTL
find "$stage" -type d -exec chmod 755 {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$out" >/dev/null
echo "deb.sh: $out"
