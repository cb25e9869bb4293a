#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-builds libfastraw and its tests for 32-bit ARM (armhf) on an x86-64 Debian/Ubuntu machine.
#
#   scripts/armhf.sh [BUILD_DIR] [extra cmake arguments...]
#   scripts/armhf.sh --ctest BUILD_DIR [ctest arguments...]   (runs the cross build's CTest)
#
# Installs what is missing (gcc-arm-linux-gnueabihf, libc6-dev-armhf-cross, qemu-user-static,
# qemu-system-arm, as root), fetches Debian's armhf Check and libsubunit packages through a
# private apt configuration (its own sources list, lists and cache under
# $FASTRAW_MATRIX_CACHE/armhf; the machine's apt sources are never read or changed, nothing is
# installed: the packages are unpacked into a sysroot folder), then configures BUILD_DIR
# (default build-armhf) with cmake/arm-linux-gnueabihf.cmake and builds it. CTest in BUILD_DIR
# then runs the unit suites under qemu-arm-static and the armhf kernel matrix.
# Exits 77 (CTest's "skipped") with the reason when a tool or package cannot be had.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "${1:-}" = --ctest ]; then
	dir=${2:?--ctest needs the cross build directory}
	shift 2
	if [ ! -f "$dir/CTestTestfile.cmake" ]; then
		echo "armhf: SKIPPED: no cross build in $dir (armhf_build makes it)"
		exit 77
	fi
	exec ctest --test-dir "$dir" --output-on-failure --no-tests=error "$@"
fi
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}/armhf
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
BUILD=${1:-build-armhf}
[ $# -gt 0 ] && shift
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SKIP=77

say() { echo "armhf: $*"; }
skip() {
	say "SKIPPED: $*"
	exit "$SKIP"
}

# Debian's packages for each tool this needs.
need() {
	local want=() pkg
	command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 || want+=(gcc-arm-linux-gnueabihf)
	[ -e /usr/arm-linux-gnueabihf/include/stdio.h ] || want+=(libc6-dev-armhf-cross)
	command -v qemu-arm-static >/dev/null 2>&1 || want+=(qemu-user-static)
	command -v qemu-system-arm >/dev/null 2>&1 || want+=(qemu-system-arm)
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
	for pkg in arm-linux-gnueabihf-gcc qemu-arm-static; do
		command -v "$pkg" >/dev/null 2>&1 || skip "$pkg still missing after apt-get install"
	done
}

# Check and libsubunit for armhf, unpacked into $CACHE/sysroot. Only their static libraries are
# kept, so that the test programs need no armhf shared library beyond libc's.
sysroot() {
	local root=$CACHE/sysroot apt=$CACHE/apt opts deb
	if [ -f "$root/usr/lib/arm-linux-gnueabihf/pkgconfig/check.pc" ] && [ -f "$root/.complete" ]; then
		return 0
	fi
	[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"
	rm -rf "$root" "$apt/debs"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$root"
	echo "deb [arch=armhf signed-by=$KEYRING] $MIRROR bookworm main" >"$apt/sources.list"
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=-
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::status=/dev/null
		-o APT::Architecture=armhf -o APT::Architectures=armhf)
	[ "$(id -u)" = 0 ] && opts+=(-o APT::Sandbox::User=root)
	say "fetching Debian's armhf check and libsubunit (private apt lists in $apt)"
	apt-get "${opts[@]}" update >/dev/null 2>&1 || skip "apt-get update of the private armhf lists failed"
	(cd "$apt/debs" && apt-get "${opts[@]}" download check libsubunit-dev libsubunit0 >/dev/null 2>&1) ||
		skip "cannot download armhf check/libsubunit from $MIRROR"
	for deb in "$apt/debs"/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
	find "$root" -name 'libsubunit.so*' -delete
	touch "$root/.complete"
}

need
sysroot
mkdir -p "$BUILD"
log=$BUILD/armhf-build.log
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/arm-linux-gnueabihf.cmake" \
	-DFASTRAW_SYSROOT="$CACHE/sysroot" -DFASTRAW_BUILD_TESTS=ON "$@" &&
	cmake --build "$BUILD" -j"$(nproc)"; } >"$log" 2>&1; then
	tail -n 60 "$log"
	say "the cross build failed (whole log: $log)"
	exit 1
fi
say "built $BUILD"
