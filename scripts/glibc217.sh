#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches a GCC 4.8.5 with a CentOS-7-style glibc 2.17 sysroot from the npm registry and prints its compiler and sysroot.
#
#   scripts/glibc217.sh [x86_64|aarch64]     (default: this machine's, uname -m)
#
# The toolchain is napi-rs's crosstool-NG build (@napi-rs/cross-toolchain-x64-target-<arch>,
# MIT): `npm pack` fetches it (about 48 MB) into $FASTRAW_MATRIX_CACHE/glibc217, and it is
# unpacked there once (about 215 MB); nothing is installed. It prints two lines,
#   cc=<its gcc>
#   sysroot=<its sysroot, with lib/ld-2.17.so, lib64/libc-2.17.so, lib64/librt-2.17.so, ...>
# A program built with that gcc (-std=gnu11: GCC 4.8 has no <stdatomic.h>, and glibc 2.17's
# headers no CLOCK_TAI) runs here as
#   SYSROOT/lib/ld-2.17.so --library-path SYSROOT/lib64:SYSROOT/lib ./prog
# or directly when linked with -Wl,--dynamic-linker and an rpath into the sysroot
# (tests/floor/glibc_matrix.sh). A second run reuses the unpacked copy.
# Exits 77 (CTest's "skipped") with the reason when npm or the registry cannot be had.
set -euo pipefail

ARCH=${1:-$(uname -m)}
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}/glibc217

say() { echo "glibc217: $*" >&2; }
skip() {
	say "SKIPPED: $*"
	exit 77
}

case "$ARCH" in
x86_64 | amd64) ARCH=x86_64 ;;
aarch64 | arm64) ARCH=aarch64 ;;
*) skip "no glibc 2.17 toolchain for $ARCH (x86_64 and aarch64 only)" ;;
esac
# The compiler runs on an x86-64 host whatever its target ("x64" in the package's name).
[ "$(uname -m)" = x86_64 ] || skip "the npm toolchains run on x86-64 hosts only, this is $(uname -m)"
PACKAGE=@napi-rs/cross-toolchain-x64-target-$ARCH
TRIPLE=$ARCH-unknown-linux-gnu
DIR=$CACHE/$ARCH
CC_PATH=$DIR/bin/$TRIPLE-gcc
SYSROOT=$DIR/$TRIPLE/sysroot

report() {
	echo "cc=$CC_PATH"
	echo "sysroot=$SYSROOT"
}
mkdir -p "$CACHE"
# One fetch at a time: a second run waits for the first and then reuses its copy.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$CACHE/.lock-$ARCH"
	flock 9
fi
if [ -f "$DIR/.complete" ]; then
	report
	exit 0
fi
command -v npm >/dev/null 2>&1 || skip "no npm to fetch $PACKAGE (apt-get install npm)"
command -v xz >/dev/null 2>&1 || skip "no xz to unpack $PACKAGE"

rm -rf "$DIR" "$CACHE/pack-$ARCH"
mkdir -p "$CACHE/pack-$ARCH" "$DIR"
say "fetching $PACKAGE with npm pack (about 48 MB)"
# npm pack writes the tarball into the current folder; its own cache goes there too (not into
# ~/.npm), and both go once the toolchain is unpacked.
# One retry, soon: an unreachable registry is a skip within seconds, not npm's minute of retries.
(cd "$CACHE/pack-$ARCH" && timeout 600 npm pack --loglevel=error --fetch-retries=1 \
	--fetch-retry-mintimeout=2000 --cache "$CACHE/pack-$ARCH/npm-cache" "$PACKAGE" \
	>/dev/null 2>"$CACHE/pack-$ARCH/npm.err") ||
	skip "npm pack $PACKAGE failed: $(grep -v "^ *$" "$CACHE/pack-$ARCH/npm.err" 2>/dev/null | head -n 1)"
tgz=$(find "$CACHE/pack-$ARCH" -maxdepth 1 -name '*.tgz' | head -n 1)
[ -n "$tgz" ] || skip "npm pack $PACKAGE left no tarball"
# The npm tarball holds package/<triple>.tar.xz, the toolchain's own tree.
tar -xzf "$tgz" -C "$CACHE/pack-$ARCH" package/"$TRIPLE".tar.xz ||
	{ say "$tgz holds no package/$TRIPLE.tar.xz"; exit 1; }
say "unpacking the toolchain into $DIR"
tar -xJf "$CACHE/pack-$ARCH/package/$TRIPLE.tar.xz" -C "$DIR" ||
	{ say "cannot unpack $TRIPLE.tar.xz"; exit 1; }
rm -rf "$CACHE/pack-$ARCH"
[ -x "$CC_PATH" ] || { say "the toolchain has no $CC_PATH"; exit 1; }
for need in ld libc librt libdl; do
	[ -e "$SYSROOT/lib/$need-2.17.so" ] || [ -e "$SYSROOT/lib64/$need-2.17.so" ] ||
		{ say "the sysroot has no $need-2.17.so in $SYSROOT/lib or lib64"; exit 1; }
done
touch "$DIR/.complete"
say "GCC $("$CC_PATH" -dumpversion) with glibc 2.17 for $ARCH in $DIR"
report
