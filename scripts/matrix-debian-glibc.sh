#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the end-to-end probes against a Debian release's own glibc for a kernel-matrix guest and writes the environment that points the guest's suites at them.
#
#   scripts/matrix-debian-glibc.sh ARCH RELEASE OUT_DIR
#
# ARCH is the guests' (arm, aarch64 or x86_64), RELEASE a Debian release (bullseye, trixie, ...).
# Debian's libc6, libc6-dev and linux-libc-dev of RELEASE for ARCH (its point releases, not
# RELEASE-security, which no longer carries every architecture of an LTS release) are fetched through a private apt configuration (its own sources list, lists and cache under
# $FASTRAW_MATRIX_CACHE/<armhf|aarch64|amd64>/glibc-RELEASE; the machine's apt sources are
# never read or changed, nothing is installed: the packages are unpacked into a sysroot folder
# there). The host's compiler for ARCH (the cross compiler of scripts/armhf.sh or aarch64.sh)
# builds the probes with --sysroot on it, as that release's own packages are built: on 32-bit
# ARM with a 64-bit time_t from trixie on (-D_TIME_BITS=64, dpkg-buildflags' default there),
# so that its programs call __clock_gettime64, and with a 32-bit one before, where they call
# clock_gettime. The bound symbol is checked here.
# The sysroot's loader and the libraries the probes need are copied to OUT_DIR/lib; each probe
# names that loader as its interpreter and that folder as its rpath: kernel-matrix.sh stages
# them at the same paths in the guest, so that the probes run there under that release's glibc
# while the suites run on the cross toolchain's.
# Writes OUT_DIR/env: "env NAME=VALUE" lines (the manifest's format) that replace the
# manifest's FR_PROBE_* of e2e_bracket, e2e_clocks, e2e_causality and e2e_lookup and
# e2e_clocks' test interposer (FR_CHAIN_LIB), add the
# version probe, FR_E2E_GLIBC=<that glibc's version> (which e2e_clocks then asserts) and
# FR_E2E_TIME64=0|1 (1: e2e_lookup asserts the 64-bit entries' lookups too).
# Exits 77 with the reason when the packages or the compiler cannot be had, 1 when a probe does
# not build or binds the wrong clock_gettime.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ARCH=${1:?usage: matrix-debian-glibc.sh ARCH RELEASE OUT_DIR}
RELEASE=${2:?usage: matrix-debian-glibc.sh ARCH RELEASE OUT_DIR}
OUT=${3:?usage: matrix-debian-glibc.sh ARCH RELEASE OUT_DIR}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}

say() { echo "$RELEASE probes: $*" >&2; }
skip() {
	say "SKIPPED: $*"
	exit 77
}

# Debian's name of the architecture, its libraries' folder and loader, and the compiler; where
# 64-bit time is a choice (32-bit ARM), which releases make it.
time64=0
case "$ARCH" in
arm) DARCH=armhf TRIPLE=arm-linux-gnueabihf LDSO=ld-linux-armhf.so.3 DIR=armhf
	case "$RELEASE" in buster | bullseye | bookworm) ;; *) time64=1 ;; esac ;;
aarch64) DARCH=arm64 TRIPLE=aarch64-linux-gnu LDSO=ld-linux-aarch64.so.1 DIR=aarch64 ;;
x86_64) DARCH=amd64 TRIPLE=x86_64-linux-gnu LDSO=ld-linux-x86-64.so.2 DIR=amd64 ;;
*) echo "matrix-debian-glibc.sh: no rule for $ARCH" >&2; exit 2 ;;
esac
CC=$TRIPLE-gcc
[ "$ARCH" != "$(uname -m)" ] || CC=${CC_HOST:-gcc}
command -v "$CC" >/dev/null 2>&1 || skip "no $CC"
{ command -v apt-get && command -v dpkg-deb; } >/dev/null 2>&1 || skip "no apt-get or dpkg-deb"
[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"

CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}/$DIR/glibc-$RELEASE
SYSROOT=$CACHE/root

# The release's libc packages, unpacked once into $SYSROOT (.complete marks a whole one).
sysroot() {
	local apt=$CACHE/apt
	[ -f "$SYSROOT/.complete" ] && return 0
	say "fetching Debian $RELEASE's $DARCH libc6, libc6-dev and linux-libc-dev (private apt lists in $apt)"
	fr_apt_unpack "$apt" "$DARCH" "$KEYRING" "$MIRROR $RELEASE" "$SYSROOT" libc6 libc6-dev linux-libc-dev ||
		case $? in
		1) skip "apt-get update of the private $RELEASE lists failed" ;;
		*) skip "cannot download $RELEASE's $DARCH libc6 from $MIRROR" ;;
		esac
	dpkg-deb -f "$apt/debs"/libc6_*.deb Version >"$SYSROOT/.libc6-version"
	rm -rf "$apt/debs"
	# A merged-/usr release (trixie) ships its libraries under usr/lib alone: /lib is the
	# system's link, which its libc.so script and its programs' loader path go through.
	[ -e "$SYSROOT/lib" ] || ln -s usr/lib "$SYSROOT/lib"
	# Links to absolute paths (libdl.so -> /lib/<triple>/libdl.so.2) point into the sysroot:
	# else the linker, finding them through -L, would take the static libraries instead.
	find "$SYSROOT" -type l -lname '/*' | while read -r link; do
		ln -sfn "$SYSROOT$(readlink "$link")" "$link"
	done
	touch "$SYSROOT/.complete"
}

# The first file named $1 under the sysroot's library folders (merged /usr or not).
sysroot_lib() {
	local d
	for d in "$SYSROOT/lib/$TRIPLE" "$SYSROOT/usr/lib/$TRIPLE" "$SYSROOT/lib" "$SYSROOT/usr/lib"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	return 1
}

sysroot
version=$(sed 's/-.*//' "$SYSROOT/.libc6-version")
mkdir -p "$OUT"
LIB=$OUT/lib
rm -rf "$LIB"
mkdir -p "$LIB"
# Before 2.34 libpthread, libdl and librt are libraries of their own; from 2.34 they are stubs.
for lib in "$LDSO" libc.so.6 libpthread.so.0 libdl.so.2 librt.so.1; do
	f=$(sysroot_lib "$lib") || { say "no $lib in $SYSROOT"; exit 1; }
	cp -L "$f" "$LIB/$lib"
done

E2E=$ROOT/tests/e2e
# Debian's cross compiler searches its own libc's headers and libraries (the host's
# /usr/<triple>) before the sysroot's: the release's come first here (-nostdinc with the
# compiler's own headers and the sysroot's; -B and -L for the start files and libraries), else
# a program would need that newer libc's symbol versions (GLIBC_2.34 on bullseye's 2.31).
libdirs=()
for d in "$SYSROOT/usr/lib/$TRIPLE" "$SYSROOT/lib/$TRIPLE"; do
	[ -d "$d" ] && libdirs+=(-B"$d/" -L"$d")
done
# shellcheck disable=SC2054  # the commas are inside -Wl, options
flags=(--sysroot="$SYSROOT" -nostdinc -isystem "$("$CC" -print-file-name=include)"
	-isystem "$SYSROOT/usr/include/$TRIPLE" -isystem "$SYSROOT/usr/include" "${libdirs[@]}" -std=gnu11 -O2 -Wall -Wextra -pthread -fPIE -pie -static-libgcc
	-I"$ROOT/tests/support" -I"$ROOT/tests/oracle/$ARCH" -I"$E2E" -I"$ROOT/src"
	-Wl,--dynamic-linker="$LIB/$LDSO" -Wl,-rpath,"$LIB" -Wl,--disable-new-dtags)
want=clock_gettime
if [ "$time64" = 1 ]; then
	flags+=(-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64)
	want=__clock_gettime64
fi
OBJDUMP=$TRIPLE-objdump
command -v "$OBJDUMP" >/dev/null 2>&1 || OBJDUMP=objdump
build() {
	local out=$1 bound
	shift
	"$CC" "${flags[@]}" -o "$OUT/$out" "$@" -ldl >"$OUT/cc.log" 2>&1 ||
		{ sed 's/^/  cc| /' "$OUT/cc.log" >&2; say "$out does not build against $RELEASE's glibc $version"; exit 1; }
	# No symbol of a glibc newer than the release's (the host's cross libc leaking in).
	newest=$("$OBJDUMP" -T "$OUT/$out" | grep -o 'GLIBC_2\.[0-9]*' | sort -V | tail -n 1)
	[ -z "$newest" ] || [ "$(printf '%s\n' "$newest" "GLIBC_$version" | sort -V | tail -n 1)" = "GLIBC_$version" ] ||
		{ say "$out needs $newest, newer than $RELEASE's glibc $version"; exit 1; }
	# The clock_gettime the program binds: the 32-bit entry or the 64-bit one, never both.
	bound=$("$OBJDUMP" -T "$OUT/$out" | awk '$NF ~ /^(__)?clock_gettime(64)?$/ { print $NF }' | sort -u | tr '\n' ' ')
	[ -z "$bound" ] || [ "$bound" = "$want " ] ||
		{ say "$out binds ${bound% }, not $want"; exit 1; }
}
build probe_bracket "$E2E/probe_bracket.c"
build probe_clocks "$E2E/probe_clocks.c"
build probe_causality "$E2E/probe_causality.c"
build probe_lookup "$E2E/probe_lookup.c" "$E2E/elfwalk.c" "$E2E/lookup_common.c"
build libc_version "$ROOT/tests/floor/libc_version.c"
# e2e_clocks' interposer beside the library, and the probe it runs, in this release's time_t.
build probe_chain "$E2E/probe_chain.c"
build libe2e_chain.so -shared -fPIC "$E2E/chain_lib.c"
{
	echo "env FR_PROBE_BRACKET=$OUT/probe_bracket"
	echo "env FR_PROBE_CLOCKS=$OUT/probe_clocks"
	echo "env FR_PROBE_CAUSALITY=$OUT/probe_causality"
	echo "env FR_PROBE_LOOKUP=$OUT/probe_lookup"
	echo "env FR_PROBE_LIBC_VERSION=$OUT/libc_version"
	echo "env FR_PROBE_CHAIN=$OUT/probe_chain"
	echo "env FR_CHAIN_LIB=$OUT/libe2e_chain.so"
	echo "env FR_E2E_GLIBC=$version"
	echo "env FR_E2E_TIME64=$time64"
} >"$OUT/env"
say "glibc $version ($([ "$time64" = 1 ] && echo 64 || echo 32)-bit time_t, programs call $want), loader $LIB/$LDSO: $OUT/env"
