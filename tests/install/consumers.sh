#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs into a scratch prefix, moves it, and uses it as a user would: pkg-config, find_package, LD_PRELOAD, the tools.
# shellcheck source=tests/install/install_common.sh
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) and $TOOLCHAIN are meant to split
. "$(dirname "$0")/install_common.sh"
LIBDIR=${FR_LIBDIR:?}
BINDIR=${FR_BINDIR:?}
MAJOR=${FR_VERSION%%.*}

run 0 "$CMAKE_COMMAND" --install "$FR_BUILD_DIR" --prefix "$T/staged"
# Relocatable: the tree works from wherever it ends up, not only where it was installed.
mv "$T/staged" "$T/prefix"
P=$T/prefix
L=$P/$LIBDIR

has_file "$L/libfastraw.so.$MAJOR"
has_file "$L/libfastraw.so"
[ -L "$L/libfastraw.so" ] || fail "$L/libfastraw.so is not the development link"
[ "$(readlink -f "$L/libfastraw.so")" = "$(readlink -f "$L/libfastraw.so.$MAJOR")" ] ||
	fail "libfastraw.so and libfastraw.so.$MAJOR are different files"
soname=$(readelf -d "$L/libfastraw.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libfastraw.so.$MAJOR" ] || fail "SONAME is '$soname', expected libfastraw.so.$MAJOR"
for f in "$L/pkgconfig/fastraw.pc" "$L/cmake/fastraw/fastrawConfig.cmake" \
	"$L/cmake/fastraw/fastrawConfigVersion.cmake" "$L/cmake/fastraw/fastrawTargets.cmake"; do
	has_file "$f"
	# No path of this machine's build may leak into what a consumer reads.
	if grep -qF -e "$FR_BUILD_DIR" -e "$FR_SOURCE_DIR" -e "$T/staged" "$f"; then
		fail "$f names a build, source or staging path"
	fi
done

echo "== pkg-config"
export PKG_CONFIG_PATH=$L/pkgconfig
run 0 pkg-config --modversion fastraw
out_has "$FR_VERSION"
libdir=$(pkg-config --variable=libdir fastraw)
[ "$(readlink -f "$libdir")" = "$(readlink -f "$L")" ] || fail "pkg-config libdir $libdir is not $L"
# shellcheck disable=SC2046 # the flags are meant to split into words
run 0 "$CC" -DFR_CONSUMER_LINKED -I"$SUPPORT" -I"$CPU_TESTS" $(pkg-config --cflags fastraw) -o "$T/by-pkgconfig" \
	"$HERE/consumer.c" $(pkg-config --libs fastraw) -ldl -Wl,-rpath,"$libdir"
needed "$T/by-pkgconfig" | grep -qx "libfastraw.so.$MAJOR" || fail "by-pkgconfig does not need libfastraw.so.$MAJOR"
run 0 $RUN "$T/by-pkgconfig" "$L/libfastraw.so.$MAJOR"
unset PKG_CONFIG_PATH

echo "== find_package"
# A toolchain file confines find_package to the target's root: fastraw_DIR names the prefix's
# package folder then, which find_package takes as it is.
pkgdir=
[ -n "$TOOLCHAIN" ] && pkgdir=-Dfastraw_DIR=$L/cmake/fastraw
run 0 "$CMAKE_COMMAND" -S "$HERE/consumer" -B "$T/cmake-build" -DCMAKE_PREFIX_PATH="$P" $TOOLCHAIN $pkgdir \
	-DFR_WANT_VERSION="$FR_VERSION" -DFR_SUPPORT="$SUPPORT_DIRS" -DCMAKE_BUILD_TYPE=Release
out_has "fastraw $FR_VERSION from $L/cmake/fastraw"
run 0 "$CMAKE_COMMAND" --build "$T/cmake-build"
needed "$T/cmake-build/consumer" | grep -qx "libfastraw.so.$MAJOR" || fail "consumer does not need libfastraw.so.$MAJOR"
run 0 $RUN "$T/cmake-build/consumer" "$L/libfastraw.so.$MAJOR"
# The version file: another major version is not this one.
run 1 "$CMAKE_COMMAND" -S "$HERE/consumer" -B "$T/cmake-build-next" -DCMAKE_PREFIX_PATH="$P" $TOOLCHAIN $pkgdir \
	-DFR_WANT_VERSION="$((MAJOR + 1)).0" -DFR_SUPPORT="$SUPPORT_DIRS"
out_has "$FR_VERSION"

echo "== LD_PRELOAD, by either name"
run 0 "$CC" -I"$SUPPORT" -I"$CPU_TESTS" -o "$T/plain" "$HERE/consumer.c" -ldl
for name in "libfastraw.so.$MAJOR" libfastraw.so; do
	run 0 env LD_PRELOAD="$L/$name" $RUN "$T/plain" "$L/$name"
done

echo "== the installed tools find the installed library"
want=$(readlink -f "$L/libfastraw.so")
if [ -e "$FR_INSTALL_FULL_LIBDIR/libfastraw.so" ]; then
	# The libdir compiled in comes first: a library installed there wins, by design.
	want=$(readlink -f "$FR_INSTALL_FULL_LIBDIR/libfastraw.so")
	echo "  (an installed $FR_INSTALL_FULL_LIBDIR/libfastraw.so comes first)"
fi
launcher_skipped && finish
run 0 "$P/$BINDIR/fastraw" --debug "$T/plain" "$want"
out_has "LD_PRELOAD=$want"
# The benchmark names its library before the first child runs; the rest is not needed here.
"$P/$BINDIR/fastraw-bench" --rounds 1 --iters 1000 --startup-runs 1 --goals-only 2>&1 |
	sed -n '/^fastraw-bench: LD_PRELOAD=/{p;q;}' >"$T/out"
cat "$T/out"
out_has "fastraw-bench: LD_PRELOAD=$want"

finish
