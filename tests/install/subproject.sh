#!/bin/sh
# SPDX-License-Identifier: MIT
# libfastraw inside another project, both ways a parent writes it (add_subdirectory, FetchContent): only the library, linked as fastraw::fastraw, and the parent's cache left alone.
# shellcheck source=tests/install/install_common.sh
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) and $TOOLCHAIN are meant to split
. "$(dirname "$0")/install_common.sh"

# A pkg-config that finds nothing: Check, which only the suite needs, is then missing.
mkdir -p "$T/bin"
printf '#!/bin/sh\nexit 1\n' >"$T/bin/pkg-config"
chmod +x "$T/bin/pkg-config"
no_check="-DPKG_CONFIG_EXECUTABLE=$T/bin/pkg-config"

# configure STATUS PARENT BUILD [ARG...]: configures the parent project tests/install/PARENT.
configure() {
	status=$1 parent=$2 build=$3
	shift 3
	run "$status" "$CMAKE_COMMAND" -S "$HERE/$parent" -B "$build" "$no_check" $TOOLCHAIN \
		"-DFR_SOURCE=$FR_SOURCE_DIR" "-DFR_SUPPORT=$SUPPORT_DIRS" -DCMAKE_C_COMPILER="$CC" "$@"
}

# cached BUILD NAME: the value of NAME in BUILD's cache ("unset" when it has none).
cached() {
	sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt" | grep . || echo unset
}

# parent PARENT LIBDIR: the parent project, configured as a user would (no build type, no
# options), builds app and links it with fastraw::fastraw alone; app reads RAW through
# clock_gettime and the API, inside a bracket of system calls, from the library in LIBDIR.
parent() {
	echo "== $1"
	b=$T/$1
	configure 0 "$1" "$b"
	# The parent's build type stays its own: empty, not forced into its cache.
	[ "$(cached "$b" CMAKE_BUILD_TYPE)" = unset ] || fail "$1: CMAKE_BUILD_TYPE=$(cached "$b" CMAKE_BUILD_TYPE) in the parent's cache"
	for opt in FASTRAW_BUILD_TESTS FASTRAW_BUILD_TOOLS FASTRAW_INSTALL FASTRAW_PACKAGE; do
		[ "$(cached "$b" $opt)" = OFF ] || fail "$1: $opt is $(cached "$b" $opt), not OFF, in a parent"
	done
	[ "$(cached "$b" FR_LIBC_IS_GLIBC)" = unset ] || fail "$1: FR_LIBC_IS_GLIBC, not namespaced, in the parent's cache"
	run 0 "$CMAKE_COMMAND" --build "$b" --target help
	for t in app fastraw; do
		grep -q "^\.\.\. $t\$" "$T/out" || fail "$1: no $t target in the parent's build"
	done
	# Nothing but the library: no suite, tools, man pages, install rules or packages.
	for t in test_rawmath fastraw-launcher fastraw-latency fastraw-bench fastraw_man install package; do
		grep -q "^\.\.\. $t\$" "$T/out" && fail "$1: the parent's build has the target $t"
	done
	[ -e "$b/CPackConfig.cmake" ] && fail "$1: CPack was included in the parent's build"
	run 0 "$CMAKE_COMMAND" --build "$b" --target app -j2
	if [ -x "$b/app" ]; then
		run 0 $RUN "$b/app" "$b/$2/libfastraw.so"
		out_has "fastraw_info: active="
		out_has "fastraw_now_ns: samples="
	else
		fail "$1: app was not built"
	fi
	# Without a build type of the parent's the library is still built as a top-level build
	# builds it: it needs from libc what the top-level build's library needs, nothing more.
	if [ -f "$FR_BUILD_DIR/libfastraw.so" ] && [ -f "$b/$2/libfastraw.so" ]; then
		nm -D --undefined-only "$FR_BUILD_DIR/libfastraw.so" | awk '{print $2}' | LC_ALL=C sort >"$T/want"
		nm -D --undefined-only "$b/$2/libfastraw.so" | awk '{print $2}' | LC_ALL=C sort >"$T/got"
		cmp -s "$T/want" "$T/got" ||
			fail "$1: the library needs other symbols than the top-level build's: $(diff "$T/want" "$T/got" | grep '^[<>]' | tr '\n' ' ')"
	fi
}

parent subproject fastraw
parent fetchcontent _deps/fastraw-build

# Asked for, each part comes: the tools, the install rules (with the man pages' target when
# scdoc is there) and the packages.
echo "== the parts asked for"
configure 0 subproject "$T/parts" -DFASTRAW_BUILD_TOOLS=ON -DFASTRAW_INSTALL=ON -DFASTRAW_PACKAGE=ON
run 0 "$CMAKE_COMMAND" --build "$T/parts" --target help
for t in fastraw-launcher fastraw-latency fastraw-bench install package; do
	grep -q "^\.\.\. $t\$" "$T/out" || fail "no $t target with the parts asked for"
done
# The packages are made from the install rules: without them, configuring says so.
configure 1 subproject "$T/nopkg" -DFASTRAW_PACKAGE=ON
out_has "FASTRAW_PACKAGE=ON needs FASTRAW_INSTALL=ON"
# Asked for, the suite needs Check, and says so.
configure 1 subproject "$T/asked" -DFASTRAW_BUILD_TESTS=ON
grep -qi "check" "$T/out" || fail "configuring the suite without Check did not name it"

finish
