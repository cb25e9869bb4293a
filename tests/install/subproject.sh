#!/bin/sh
# SPDX-License-Identifier: MIT
# libfastraw inside another project (add_subdirectory): the library builds without the test suite or Check, and the suite comes only when asked.
# shellcheck source=tests/install/install_common.sh
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) and $TOOLCHAIN are meant to split
. "$(dirname "$0")/install_common.sh"

# A pkg-config that finds nothing: Check, which only the suite needs, is then missing.
mkdir -p "$T/bin"
printf '#!/bin/sh\nexit 1\n' >"$T/bin/pkg-config"
chmod +x "$T/bin/pkg-config"
no_check="-DPKG_CONFIG_EXECUTABLE=$T/bin/pkg-config"

run 0 "$CMAKE_COMMAND" -S "$HERE/subproject" -B "$T/parent" "$no_check" $TOOLCHAIN \
	"-DFR_SOURCE=$FR_SOURCE_DIR" "-DFR_SUPPORT=$SUPPORT_DIRS" -DCMAKE_C_COMPILER="$CC"
run 0 "$CMAKE_COMMAND" --build "$T/parent" --target consumer -j2
run 0 "$CMAKE_COMMAND" --build "$T/parent" --target help
grep -q "test_rawmath" "$T/out" && fail "the parent's build has the suite's targets"
grep -q "consumer" "$T/out" || fail "no consumer target in the parent's build"
[ -x "$T/parent/consumer" ] || fail "the consumer was not built"
if [ -x "$T/parent/consumer" ]; then
	run 0 $RUN "$T/parent/consumer" "$T/parent/fastraw/libfastraw.so"
	out_has "fastraw_info: active="
fi
# Asked for, the suite needs Check, and says so.
run 1 "$CMAKE_COMMAND" -S "$HERE/subproject" -B "$T/asked" "$no_check" $TOOLCHAIN -DFASTRAW_BUILD_TESTS=ON \
	"-DFR_SOURCE=$FR_SOURCE_DIR" "-DFR_SUPPORT=$SUPPORT_DIRS" -DCMAKE_C_COMPILER="$CC"
grep -qi "check" "$T/out" || fail "configuring the suite without Check did not name it"

finish
