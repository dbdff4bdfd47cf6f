#!/bin/sh
# Installs the Debian packages gpuprof needs to build and test, only those
# that are missing. Run as root (or with sudo) on Debian 12.
#   tools/setup.sh          install what is missing (apt-get)
#   tools/setup.sh --check  only report what is missing (exit 1 if any)
set -eu
PKGS="make gcc pkg-config zlib1g-dev libisal-dev libsqlite3-dev libyaml-dev libmicrohttpd-dev"
# Test-only tools: clang (the second compiler and libFuzzer), clang-format
# (`make format-check`: version 14, Debian 12's, is the reference),
# protobuf-compiler (independent decoding of our pprof output), golang-go
# (`go tool pprof` reads our profiles), python3 (reference comparisons,
# the layer check), sqlite3 (tiny Nsight Systems exports made by the
# tests), curl (the server's API tests), chromium (the viewer's browser
# tests, driven from node by playwright-core: tests/web, `npm ci` there),
# zsh and fish (the completion scripts in the real shells: tests/pkg),
# dpkg-dev (dpkg-shlibdeps derives the package's Depends: `make deb`),
# groff-base (the man page renders without a warning), python3-scipy
# (tests/diff checks the U test's p-values against scipy's),
# python3-pandas and python3-jsonschema (the stages pandas and schemas),
# python3-yaml (the stage nsys reads the manifest `nsys profile` writes),
# strace (the stage hugepages sees gpuprof execute itself again).
# NVIDIA's nvdisasm (`ncu source`, the ncu stage) is not installed here: the
# ncu stage fetches it into build/ itself (tools/get-nvdisasm.sh, Debian's
# non-free nvidia-cuda-toolkit, the system's sources untouched).
TEST_PKGS="clang clang-format emscripten python3 sqlite3 protobuf-compiler golang-go curl chromium zsh fish dpkg-dev groff-base python3-scipy python3-pandas python3-jsonschema python3-distributed python3-yaml strace"
missing=""
# node and npm may come from elsewhere (nvm, NodeSource): Debian's only if absent
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
for p in $PKGS $TEST_PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	exit 0
fi
if [ "${1:-}" = "--check" ]; then
	echo "missing packages:$missing (run: sudo tools/setup.sh)" >&2
	exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >&2
