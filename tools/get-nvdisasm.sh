#!/bin/sh
# Fetches NVIDIA's disassembler nvdisasm (for `gpuprof ncu source`) from
# Debian 12's non-free package nvidia-cuda-toolkit (CUDA 11.8) and extracts
# it to DEST (default build/nvdisasm/nvdisasm); prints its path. The
# system's package sources are not touched: apt-get reads a private sources
# list and keeps its package lists in a private folder. Needs network
# access to deb.debian.org (and apt-get, dpkg-deb). Does nothing when DEST
# is already there.
#   tools/get-nvdisasm.sh [DEST]
set -eu
dest=${1:-build/nvdisasm/nvdisasm}
if [ -x "$dest" ]; then
	echo "$dest"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/x"
echo "deb http://deb.debian.org/debian bookworm non-free" >"$work/sources.list"
apt_opts="-o Dir::Etc::sourcelist=$work/sources.list -o Dir::Etc::sourceparts=-
 -o Dir::State::Lists=$work/lists -o Dir::Cache=$work/cache -o APT::Get::List-Cleanup=0"
# shellcheck disable=SC2086
apt-get -q $apt_opts update >&2
# shellcheck disable=SC2086
(cd "$work" && apt-get -q $apt_opts download nvidia-cuda-toolkit >&2)
dpkg-deb -x "$work"/nvidia-cuda-toolkit_*.deb "$work/x"
mkdir -p "$(dirname "$dest")"
cp "$work/x/usr/bin/nvdisasm" "$dest.tmp"
chmod 755 "$dest.tmp"
mv "$dest.tmp" "$dest"
echo "$dest"
