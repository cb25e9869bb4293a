#!/bin/sh
# SPDX-License-Identifier: MIT
# cmake --install into a fresh prefix places the library and tools; the installed launcher finds its library.
. "$(dirname "$0")/launcher_common.sh"
P=$T/prefix

run 0 "$CMAKE_COMMAND" --install "$LAUNCHER_BUILD_DIR" --prefix "$P"
[ -f "$P/$LAUNCHER_LIBDIR/libfastraw.so" ] || fail "no $P/$LAUNCHER_LIBDIR/libfastraw.so"
for tool in $LAUNCHER_INSTALLED; do
	[ -x "$P/$LAUNCHER_BINDIR/$tool" ] || fail "no $P/$LAUNCHER_BINDIR/$tool"
done

# The launcher was built for another prefix: it finds the library relative to itself.
run 0 "$P/$LAUNCHER_BINDIR/fastraw" --debug "$PROBE"
if [ -f "$LAUNCHER_INSTALL_LIBDIR/libfastraw.so" ]; then
	echo "  (an installed $LAUNCHER_INSTALL_LIBDIR/libfastraw.so comes first)"
else
	want=$(readlink -f "$P/$LAUNCHER_LIBDIR/libfastraw.so")
	out_has "LD_PRELOAD=$want"
	out_has "clock_gettime in $want"
fi

finish
