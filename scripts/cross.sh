#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-builds libfastraw and its tests for an ARM port on an x86-64 Debian/Ubuntu machine: the one
# script behind scripts/aarch64.sh and scripts/armhf.sh, which name the port.
#
#   scripts/cross.sh PORT [BUILD_DIR] [extra cmake arguments...]
#   scripts/cross.sh PORT --ctest BUILD_DIR [ctest arguments...]   (runs the cross build's CTest)
#
# PORT is aarch64 or armhf. Installs what is missing (the port's cross gcc and libc,
# qemu-user-static, qemu-system-arm, as root), fetches Debian's Check and libsubunit packages of
# the port through a private apt configuration (its own sources list, lists and cache under
# $FASTRAW_MATRIX_CACHE/PORT; the machine's apt sources are never read or changed, nothing is
# installed: the packages are unpacked into a sysroot folder), then configures BUILD_DIR
# (default build-PORT) with the port's toolchain file, cmake/TRIPLE.cmake, and builds it. CTest
# in BUILD_DIR then runs the unit suites under qemu-user and the port's kernel matrix.
# Exits 77 (CTest's "skipped") with the reason when a tool or package cannot be had.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PORT=${1:?cross.sh needs the port: aarch64 or armhf}
shift
# The port's GNU triple, Debian architecture, user-mode QEMU and system QEMU.
case "$PORT" in
aarch64) TRIPLE=aarch64-linux-gnu DEB=arm64 QEMU_USER=qemu-aarch64-static QEMU_SYSTEM=qemu-system-aarch64 ;;
armhf) TRIPLE=arm-linux-gnueabihf DEB=armhf QEMU_USER=qemu-arm-static QEMU_SYSTEM=qemu-system-arm ;;
*)
	echo "cross.sh: no port $PORT (aarch64, armhf)" >&2
	exit 2
	;;
esac

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "${1:-}" = --ctest ]; then
	dir=${2:?--ctest needs the cross build directory}
	shift 2
	if [ ! -f "$dir/CTestTestfile.cmake" ]; then
		echo "$PORT: SKIPPED: no cross build in $dir (${PORT}_build makes it)"
		exit 77
	fi
	exec ctest --test-dir "$dir" --output-on-failure --no-tests=error "$@"
fi
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}/$PORT
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
BUILD=${1:-build-$PORT}
[ $# -gt 0 ] && shift
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SKIP=77

say() { echo "$PORT: $*"; }
skip() {
	say "SKIPPED: $*"
	exit "$SKIP"
}

# Debian's packages for each tool this needs.
need() {
	local want=() pkg
	command -v "$TRIPLE-gcc" >/dev/null 2>&1 || want+=("gcc-$TRIPLE")
	[ -e "/usr/$TRIPLE/include/stdio.h" ] || want+=("libc6-dev-$DEB-cross")
	command -v "$QEMU_USER" >/dev/null 2>&1 || want+=(qemu-user-static)
	command -v "$QEMU_SYSTEM" >/dev/null 2>&1 || want+=(qemu-system-arm)
	command -v cpio >/dev/null 2>&1 || want+=(cpio)
	command -v cmake >/dev/null 2>&1 || want+=(cmake)
	command -v pkg-config >/dev/null 2>&1 || want+=(pkg-config)
	[ ${#want[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
		skip "missing ${want[*]}; install them as root (apt-get install ${want[*]})"
	say "installing ${want[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends "${want[@]}" >/dev/null 2>&1; then
		apt-get update >/dev/null 2>&1 || true
		apt-get install -y --no-install-recommends "${want[@]}" >/dev/null 2>&1 ||
			skip "apt-get cannot install ${want[*]}"
	fi
	for pkg in "$TRIPLE-gcc" "$QEMU_USER"; do
		command -v "$pkg" >/dev/null 2>&1 || skip "$pkg still missing after apt-get install"
	done
}

# Check and libsubunit for the port, unpacked into $CACHE/sysroot. Only their static libraries
# are kept, so that the test programs need no shared library of the port beyond libc's.
sysroot() {
	local root=$CACHE/sysroot apt=$CACHE/apt
	if [ -f "$root/usr/lib/$TRIPLE/pkgconfig/check.pc" ] && [ -f "$root/.complete" ]; then
		return 0
	fi
	[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"
	say "fetching Debian's $DEB check and libsubunit (private apt lists in $apt)"
	fr_apt_unpack "$apt" "$DEB" "$KEYRING" "$MIRROR bookworm" "$root" check libsubunit-dev libsubunit0 ||
		case $? in
		1) skip "apt-get update of the private $DEB lists failed" ;;
		*) skip "cannot download $DEB check/libsubunit from $MIRROR" ;;
		esac
	find "$root" -name 'libsubunit.so*' -delete
	touch "$root/.complete"
}

need
sysroot
mkdir -p "$BUILD"
log=$BUILD/$PORT-build.log
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/$TRIPLE.cmake" \
	-DFASTRAW_SYSROOT="$CACHE/sysroot" -DFASTRAW_BUILD_TESTS=ON "$@" &&
	cmake --build "$BUILD" -j"$(nproc)"; } >"$log" 2>&1; then
	tail -n 60 "$log"
	say "the cross build failed (whole log: $log)"
	exit 1
fi
say "built $BUILD"
