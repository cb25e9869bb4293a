#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the .debs with CPack, checks fastraw's contents and control data, and runs a program preloaded from a `dpkg -x` tree.
# (tests/install/packages.sh checks the split into fastraw and fastraw-tools and the RPMs.)
# shellcheck source=tests/install/install_common.sh
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) and $TOOLCHAIN are meant to split
. "$(dirname "$0")/install_common.sh"
MAJOR=${FR_VERSION%%.*}
# The package's libdir is Debian's multiarch one, whatever the build's: the compiler names it.
LIB=/usr/${FR_DEB_LIBDIR:?}
multiarch=$("${CC:?}" -print-multiarch 2>/dev/null || true)
[ -z "$multiarch" ] || [ "$FR_DEB_LIBDIR" = "lib/$multiarch" ] ||
	fail "the .deb's libdir is $FR_DEB_LIBDIR, not Debian's multiarch lib/$multiarch"
BIN=/usr/${FR_BINDIR:?}
CPACK=${CPACK_COMMAND:?run under ctest}
command -v dpkg-deb >/dev/null 2>&1 || skip "dpkg-deb is not installed (not a Debian system)"

run 0 "$CPACK" -G DEB --config "$FR_BUILD_DIR/CPackConfig.cmake" -B "$T/pkg"
deb=$T/pkg/fastraw_${FR_VERSION}_${FR_DEB_ARCH:?}.deb
[ -f "$deb" ] || { fail "cpack made no ${deb##*/}"; finish; }
echo "package: ${deb##*/}"

run 0 dpkg-deb -c "$deb"
# dpkg-deb -c lists "perms owner size date time ./path[ -> target]": keep the path.
awk '{ print $6 }' "$T/out" | sed 's|/$||' >"$T/paths"
for p in "$LIB/libfastraw.so.$MAJOR" "$LIB/libfastraw.so.$FR_VERSION" "$LIB/libfastraw.so" \
	/usr/include/fastraw.h "$LIB/pkgconfig/fastraw.pc" \
	"$LIB/cmake/fastraw/fastrawConfig.cmake" "$LIB/cmake/fastraw/fastrawConfigVersion.cmake" \
	"$LIB/cmake/fastraw/fastrawTargets.cmake" \
	"$BIN/fastraw" /usr/share/doc/fastraw/copyright; do
	grep -qx ".$p" "$T/paths" || fail "the package lacks $p"
done
if [ -n "${FR_MAN_PAGES:-}" ]; then
	for page in $FR_MAN_PAGES; do
		name=${page##*/}
		case $name in fastraw.1 | libfastraw.7) ;; *) continue ;; esac
		grep -qx "./usr/share/man/man${name##*.}/$name" "$T/paths" || fail "the package lacks the man page $name"
	done
else
	echo "  (scdoc was not found at configure time: no man pages to look for)"
fi
if grep -q '^\./etc' "$T/paths"; then
	fail "the package installs under /etc"
fi

run 0 dpkg-deb -I "$deb"
out_has "Package: fastraw"
out_has "Architecture: $FR_DEB_ARCH"
grep -q '^ Depends: .*libc6 (>= [0-9.]*)' "$T/out" || fail "Depends names no libc6 version"
# No maintainer script may write /etc/ld.so.preload: there is no script that mentions it at all.
run 0 dpkg-deb -e "$deb" "$T/control"
if grep -rl 'ld\.so\.preload' "$T/control"; then
	fail "a control file mentions ld.so.preload"
fi
grep -q 'libfastraw' "$T/control/shlibs" 2>/dev/null || fail "no shlibs entry for libfastraw"

echo "== the unpacked tree"
run 0 dpkg -x "$deb" "$T/root"
R=$T/root
lib=$(readlink -f "$R$LIB/libfastraw.so.$MAJOR")
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
	fail "no library in the unpacked tree"
fi
run 0 "$CC" -I"$SUPPORT" -I"$CPU_TESTS" -o "$T/plain" "$HERE/consumer.c" -ldl
run 0 env LD_PRELOAD="$R$LIB/libfastraw.so.$MAJOR" $RUN "$T/plain" "$lib"
# Its pkg-config file finds its own tree.
run 0 env PKG_CONFIG_PATH="$R$LIB/pkgconfig" pkg-config --variable=libdir fastraw
[ "$(readlink -f "$(cat "$T/out")")" = "$(readlink -f "$R$LIB")" ] || fail "the unpacked fastraw.pc does not point into its tree"
# The unpacked launcher finds the unpacked library (unless the libdir compiled in, the
# package's own, has one).
want=$lib
if [ -e "$LIB/libfastraw.so" ]; then
	want=$(readlink -f "$LIB/libfastraw.so")
	echo "  (an installed $LIB/libfastraw.so comes first)"
fi
if ! launcher_skipped; then
	run 0 "$R$BIN/fastraw" --debug "$T/plain" "$want"
	out_has "LD_PRELOAD=$want"
fi

finish
