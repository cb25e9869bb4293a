#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the end-to-end probes for glibc 2.17 (CentOS 7's) for a kernel-matrix guest and writes the environment that points the guest's suites at them.
#
#   scripts/matrix-glibc217.sh ARCH OUT_DIR
#
# The compiler and sysroot come from scripts/glibc217.sh ARCH (npm's GCC 4.8.5). The sysroot's
# loader and the libraries the probes need are copied to OUT_DIR/lib; each probe names that
# ld-2.17.so as its loader and that folder as its rpath: kernel-matrix.sh stages them at the
# same paths in the guest, so that the probes run there under glibc 2.17's own loader and
# libraries while the suites run on Debian's.
# The probes are linked with -lrt before libc, as traditional build files do: on x86-64 they then
# bind librt's clock_gettime@GLIBC_2.2.5 (an IFUNC that answers with libc's), as CentOS 7's -lrt
# programs do; on arm64 librt 2.17 has no clock_gettime, so they bind libc's GLIBC_2.17. The
# version bound is checked here.
# Writes OUT_DIR/env: "env NAME=VALUE" lines (the manifest's format) that replace the
# manifest's FR_PROBE_* of e2e_bracket, e2e_clocks, e2e_lookup and e2e_calib's error probe
# (probe_causality's C11 atomics are beyond GCC 4.8), add the version probe and
# FR_E2E_GLIBC=2.17 (which e2e_clocks then asserts). Exits 77 with the reason when the
# toolchain cannot be had, 1 when a probe does not build or binds the wrong clock_gettime.
set -euo pipefail

ARCH=${1:?usage: matrix-glibc217.sh ARCH OUT_DIR}
OUT=${2:?usage: matrix-glibc217.sh ARCH OUT_DIR}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { echo "glibc217 probes: $*" >&2; }

mkdir -p "$OUT"
rc=0
bash "$ROOT/scripts/glibc217.sh" "$ARCH" >"$OUT/toolchain.out" 2>"$OUT/toolchain.err" || rc=$?
if [ "$rc" = 77 ]; then
	say "SKIPPED: $(sed -n 's/^glibc217: SKIPPED: //p' "$OUT/toolchain.err")"
	exit 77
fi
cc=$(sed -n 's/^cc=//p' "$OUT/toolchain.out")
sysroot=$(sed -n 's/^sysroot=//p' "$OUT/toolchain.out")
if [ "$rc" != 0 ] || [ ! -x "$cc" ] || [ ! -e "$sysroot/lib/ld-2.17.so" ]; then
	cat "$OUT/toolchain.err" >&2
	say "scripts/glibc217.sh $ARCH made no toolchain (exit $rc)"
	exit 1
fi
objdump=$(dirname "$cc")/$ARCH-unknown-linux-gnu-objdump
strip=$(dirname "$cc")/$ARCH-unknown-linux-gnu-strip
[ -x "$objdump" ] || objdump=objdump

# The libraries the probes load, copied without their debug information: 1.8 MB instead of the
# sysroot's 13 MB (0.9 MB against 4.5 MB in the gzipped initramfs every guest unpacks).
LIB=$OUT/lib
rm -rf "$LIB"
mkdir -p "$LIB"
for lib in ld-2.17.so libc.so.6 libdl.so.2 libpthread.so.0 librt.so.1; do
	cp -L "$sysroot/lib/$lib" "$LIB/$lib"
	"$strip" --strip-debug "$LIB/$lib" 2>/dev/null || true
done

# npm's x86-64 glibc 2.17 is configured for kernels from 3.10.108 (its ABI tags and ld.so's
# "kernel too old" check), CentOS 7's own for 2.6.32: on RHEL 7's 3.10.0 (the el7 guest) its
# loader would refuse to start. The copy's _dl_discover_osversion answers 3.10.255 instead
# ("mov $0x30aff,%eax; ret"), which passes both checks.
if [ "$ARCH" = x86_64 ]; then
	ld=$LIB/ld-2.17.so
	# awk reads to the end: an early exit would end readelf with SIGPIPE under pipefail.
	at=$(readelf -sW "$ld" | awk '$NF == "_dl_discover_osversion" && !at { at = $2 } END { print at }')
	off=
	# The file offset of that address: the PT_LOAD holding it (its offset, address and file size).
	while read -r o v n; do
		if [ -n "$at" ] && [ -z "$off" ] && ((16#$at >= v && 16#$at < v + n)); then
			off=$((16#$at - v + o))
		fi
	done < <(readelf -lW "$ld" | awk '$1 == "LOAD" { print $2, $3, $5 }')
	if [ -z "$off" ]; then
		say "no _dl_discover_osversion in $ld"
		exit 1
	fi
	printf '\270\377\012\003\000\303' | dd of="$ld" bs=1 seek="$off" conv=notrunc status=none
fi

E2E=$ROOT/tests/e2e
# GCC 4.8 has no <stdatomic.h> (tests/floor/gcc48 has what the probes use) and glibc 2.17's
# headers no CLOCK_TAI (11 since Linux 3.10) nor AT_HWCAP2 (26 since Linux 3.14), which the arm64
# IFUNC call of src/arch/aarch64/abi.h passes. libgcc is linked in: the guest gets only glibc's
# own libraries.
# shellcheck disable=SC2054  # the commas are inside -Wl, options
flags=(-std=gnu11 -O2 -Wall -Wextra -pthread -fPIE -pie -static-libgcc
	-I"$ROOT/tests/floor/gcc48" -DCLOCK_TAI=11 -DAT_HWCAP2=26
	-I"$ROOT/tests/support" -I"$ROOT/tests/oracle/$ARCH" -I"$E2E" -I"$ROOT/src"
	-Wl,--dynamic-linker="$LIB/ld-2.17.so" -Wl,-rpath,"$LIB" -Wl,--disable-new-dtags)
# Where -lrt programs bind clock_gettime on glibc 2.17 (tests/floor/glibc_matrix.sh says the same).
want=GLIBC_2.17
[ "$ARCH" = x86_64 ] && want=GLIBC_2.2.5
build() {
	local out=$1
	shift
	"$cc" "${flags[@]}" -o "$OUT/$out" "$@" -Wl,--no-as-needed -lrt -ldl -lpthread >"$OUT/cc.log" 2>&1 ||
		{ sed 's/^/  cc| /' "$OUT/cc.log" >&2; say "$out does not build against glibc 2.17"; exit 1; }
	local bound
	bound=$("$objdump" -T "$OUT/$out" | awk '$NF == "clock_gettime" { v = $(NF - 1); gsub(/[()]/, "", v); print v }')
	[ -z "$bound" ] || [ "$bound" = "$want" ] ||
		{ say "$out binds clock_gettime@$bound, not @$want"; exit 1; }
}
build probe_bracket "$E2E/probe_bracket.c"
build probe_clocks "$E2E/probe_clocks.c"
build probe_lookup "$E2E/probe_lookup.c" "$E2E/elfwalk.c" "$E2E/lookup_common.c"
build probe_calib "$E2E/probe_calib.c"
build libc_version "$ROOT/tests/floor/libc_version.c"
{
	echo "env FR_PROBE_BRACKET=$OUT/probe_bracket"
	echo "env FR_PROBE_CLOCKS=$OUT/probe_clocks"
	echo "env FR_PROBE_LOOKUP=$OUT/probe_lookup"
	echo "env FR_PROBE_CALIB=$OUT/probe_calib"
	echo "env FR_PROBE_LIBC_VERSION=$OUT/libc_version"
	echo "env FR_E2E_GLIBC=2.17"
} >"$OUT/env"
say "GCC $("$cc" -dumpversion), loader $LIB/ld-2.17.so: $OUT/env"
