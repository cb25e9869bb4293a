#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the whole tree (library, tools, every test program) with clang, warnings as errors,
# then runs its unit suites: the project's check that it is not tied to gcc.
#
#   scripts/clang.sh [BUILD_DIR] [extra cmake arguments...]     (default build-clang)
#
# CLANG names the compiler (default: clang, Debian's package of that name). Exits 77 (CTest's
# "skipped") with the reason when clang is missing and cannot be installed (not root).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-build-clang}
[ $# -gt 0 ] && shift
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
CLANG=${CLANG:-clang}

say() { echo "clang: $*"; }

if ! command -v "$CLANG" >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ "$CLANG" = clang ]; then
		say "installing clang"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clang >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 || true; DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clang >/dev/null 2>&1; } || true
	fi
	command -v "$CLANG" >/dev/null 2>&1 || { say "SKIPPED: no $CLANG (apt-get install clang)"; exit 77; }
fi
say "$("$CLANG" --version | head -n 1)"

# A fresh configure each time: a cached compiler from an older run would hide a change of CLANG.
rm -rf "$BUILD"
mkdir -p "$BUILD"
log=$BUILD/clang-build.log
# FASTRAW_WERROR reaches the targets that take the project's warnings; CMAKE_C_FLAGS the few
# test objects built with flags of their own (the early, bias and static-launcher probes).
if ! { CC=$CLANG cmake -S "$ROOT" -B "$BUILD" -DFASTRAW_BUILD_TESTS=ON -DFASTRAW_WERROR=ON \
	-DCMAKE_C_FLAGS=-Werror "$@" &&
	cmake --build "$BUILD" -j"$(nproc)"; } >"$log" 2>&1; then
	grep -E 'warning:|error:' "$log" | head -n 40 || tail -n 40 "$log"
	say "the clang build failed, warnings are errors here (whole log: $log)"
	exit 1
fi
# The compiler CMake really used, so that a silent fall-back to cc cannot pass for clang.
used=$(sed -n 's/^set(CMAKE_C_COMPILER_ID "\(.*\)")$/\1/p' "$BUILD"/CMakeFiles/*/CMakeCCompiler.cmake | head -n 1)
if [ "$used" != Clang ]; then
	say "CMake built with '$used', not Clang"
	exit 1
fi
say "built $BUILD with no warning; running its unit suites"
exec ctest --test-dir "$BUILD" --output-on-failure --no-tests=error -L '^unit$' -j"$(nproc)"
