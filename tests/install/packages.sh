#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds both packages in both formats with CPack and checks their split, dependencies and file lists.
# fastraw (library, launcher) needs no glibc past 2.17 and holds no tool; fastraw-tools needs
# fastraw of the same version; the .deb and the RPM of each hold the same files (the libdir
# aside: Debian's multiarch /usr/$FR_DEB_LIBDIR in the .deb, /usr/$FR_RPM_LIBDIR in the RPM); together the two .debs
# hold what `cmake --install` places.
# shellcheck source=tests/install/install_common.sh
. "$(dirname "$0")/install_common.sh"
MAJOR=${FR_VERSION%%.*}
V=$FR_VERSION
CPACK=${CPACK_COMMAND:?run under ctest}
DEB_LIB=/usr/${FR_DEB_LIBDIR:?}
INSTALL_LIB=/usr/${FR_LIBDIR:?}
RPM_LIB=/usr/${FR_RPM_LIBDIR:?}
FLOOR=2.17
command -v dpkg-deb >/dev/null 2>&1 || skip "dpkg-deb is not installed (not a Debian system)"
command -v rpmbuild >/dev/null 2>&1 || skip "rpmbuild is not installed (apt-get install rpm)"
command -v rpm >/dev/null 2>&1 || skip "rpm is not installed (apt-get install rpm)"

# newer A B: 0 when version A is newer than version B.
newer() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$1" ]; }

run 0 "$CPACK" -G DEB --config "$FR_BUILD_DIR/CPackConfig.cmake" -B "$T/deb"
run 0 "$CPACK" -G RPM --config "$FR_BUILD_DIR/CPackConfig.cmake" -B "$T/rpm"
# Exactly the two packages of each format, named as each format names them.
for f in "deb/fastraw_${V}_${FR_DEB_ARCH:?}.deb" "deb/fastraw-tools_${V}_${FR_DEB_ARCH}.deb" \
	"rpm/fastraw-${V}-1.${arch:?}.rpm" "rpm/fastraw-tools-${V}-1.${arch}.rpm"; do
	[ -f "$T/$f" ] || fail "cpack made no ${f#*/}"
done
made=$(find "$T/deb" "$T/rpm" -maxdepth 1 \( -name '*.deb' -o -name '*.rpm' \) | wc -l)
[ "$made" -eq 4 ] || fail "cpack made $made packages, not two .deb and two .rpm"

# deb_files PKG / rpm_files PKG: the files and links (no folders) of a package, one a line,
# sorted, with its libdir written LIBDIR.
deb_files() {
	dpkg-deb -c "$T/deb/$1_${V}_${FR_DEB_ARCH}.deb" | awk '$1 !~ /^d/ { print $6 }' |
		sed "s|^\.||; s|^$DEB_LIB/|LIBDIR/|" | sort
}
rpm_files() {
	rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$T/rpm/$1-${V}-1.${arch}.rpm" |
		awk '$1 !~ /^d/ { print $2 }' | sed "s|^$RPM_LIB/|LIBDIR/|" | sort
}

for pkg in fastraw fastraw-tools; do
	echo "== $pkg: the two formats' files"
	deb_files "$pkg" >"$T/$pkg.deb.files"
	rpm_files "$pkg" >"$T/$pkg.rpm.files"
	sed 's/^/  | /' "$T/$pkg.deb.files"
	[ -s "$T/$pkg.deb.files" ] || fail "the $pkg .deb holds no file"
	if ! diff -u "$T/$pkg.deb.files" "$T/$pkg.rpm.files" >"$T/diff"; then
		sed 's/^/  | /' "$T/diff"
		fail "the $pkg .deb and .rpm hold different files (- .deb, + .rpm)"
	fi
done

echo "== what goes where"
man=
[ -n "${FR_MAN_PAGES:-}" ] && man=1
# holds PKG PATH / lacks PKG PATH: the package's (.deb) list holds the path, or not.
holds() { grep -qx -- "$2" "$T/$1.deb.files" || fail "$1 lacks $2"; }
lacks() { ! grep -qx -- "$2" "$T/$1.deb.files" || fail "$1 holds $2, which belongs in the other package"; }
for p in /usr/bin/fastraw "LIBDIR/libfastraw.so.$MAJOR" "LIBDIR/libfastraw.so.$V" LIBDIR/libfastraw.so \
	/usr/include/fastraw.h LIBDIR/pkgconfig/fastraw.pc LIBDIR/cmake/fastraw/fastrawConfig.cmake \
	/usr/share/doc/fastraw/copyright ${man:+/usr/share/man/man1/fastraw.1 /usr/share/man/man7/libfastraw.7}; do
	holds fastraw "$p"
	lacks fastraw-tools "$p"
done
for tool in fastraw-latency fastraw-check fastraw-info fastraw-bench; do
	holds fastraw-tools "/usr/bin/$tool"
	lacks fastraw "/usr/bin/$tool"
	if [ -n "$man" ]; then
		holds fastraw-tools "/usr/share/man/man1/$tool.1"
		lacks fastraw "/usr/share/man/man1/$tool.1"
	fi
done
holds fastraw-tools /usr/share/doc/fastraw-tools/copyright
# Nothing left out and nothing twice: the two .debs together are what `cmake --install` places.
run 0 env DESTDIR="$T/inst" "$CMAKE_COMMAND" --install "$FR_BUILD_DIR" --prefix /usr
(cd "$T/inst" && find . ! -type d) | sed "s|^\.||; s|^$INSTALL_LIB/|LIBDIR/|" | sort >"$T/install.files"
sort "$T/fastraw.deb.files" "$T/fastraw-tools.deb.files" >"$T/both.files"
if ! diff -u "$T/install.files" "$T/both.files" >"$T/diff"; then
	sed 's/^/  | /' "$T/diff"
	fail "the two packages do not hold exactly what cmake --install places (- install, + packages)"
fi

echo "== the RPM's tree: its launcher and fastraw.pc find its $RPM_LIB"
R=$T/rpmroot
mkdir -p "$R"
if command -v rpm2cpio >/dev/null 2>&1 && command -v cpio >/dev/null 2>&1; then
	(cd "$R" && rpm2cpio "$T/rpm/fastraw-${V}-1.${arch}.rpm" | cpio -idm --quiet) || fail "rpm2cpio | cpio failed"
	lib=$(readlink -f "$R$RPM_LIB/libfastraw.so")
	[ -f "$lib" ] || fail "no library in the unpacked RPM's $RPM_LIB"
	run 0 env PKG_CONFIG_PATH="$R$RPM_LIB/pkgconfig" pkg-config --variable=libdir fastraw
	[ "$(readlink -f "$(cat "$T/out")")" = "$(readlink -f "$R$RPM_LIB")" ] || fail "the RPM's fastraw.pc does not point into its $RPM_LIB"
	# The launcher looks in the libdir compiled in, then relative to itself: both $RPM_LIB.
	want=$lib
	[ -e "$RPM_LIB/libfastraw.so" ] && want=$(readlink -f "$RPM_LIB/libfastraw.so")
	if [ -n "$want" ] && ! launcher_skipped; then
		run 0 "$R/usr/bin/fastraw" --debug /bin/true
		out_has "LD_PRELOAD=$want"
	fi
else
	echo "  (no rpm2cpio or cpio: the RPM's tree is not unpacked)"
fi

echo "== dependencies"
for pkg in fastraw fastraw-tools; do
	dpkg-deb -f "$T/deb/${pkg}_${V}_${FR_DEB_ARCH}.deb" Depends >"$T/$pkg.depends"
	echo "  $pkg.deb Depends: $(cat "$T/$pkg.depends")"
	rpm -qp --requires "$T/rpm/$pkg-${V}-1.${arch}.rpm" >"$T/$pkg.requires"
	sed "s/^/  $pkg.rpm Requires: /" "$T/$pkg.requires"
done
# fastraw: libc6 (>= X) with X at most the floor, and no libc.so.6(GLIBC_X) past it.
libc6=$(tr ',' '\n' <"$T/fastraw.depends" | sed -n 's/^ *libc6 (>= \([0-9.]*\)).*/\1/p')
if [ -z "$libc6" ]; then
	fail "the fastraw .deb names no libc6 version: $(cat "$T/fastraw.depends")"
elif newer "$libc6" "$FLOOR"; then
	fail "the fastraw .deb needs libc6 (>= $libc6), past the $FLOOR floor"
fi
grep -q 'GLIBC_' "$T/fastraw.requires" || fail "the fastraw RPM requires no glibc symbol version (rpmbuild found no ELF dependency)"
for v in $(sed -n 's/^libc\.so\.6(GLIBC_\([0-9.]*\)).*/\1/p' "$T/fastraw.requires"); do
	newer "$v" "$FLOOR" && fail "the fastraw RPM requires libc.so.6(GLIBC_$v), past the $FLOOR floor"
done
grep -q 'fastraw-tools' "$T/fastraw.depends" "$T/fastraw.requires" && fail "fastraw depends on fastraw-tools"
# fastraw-tools: fastraw of this very version.
tr ',' '\n' <"$T/fastraw-tools.depends" | grep -qx " *fastraw (= $V)" ||
	fail "the fastraw-tools .deb does not depend on fastraw (= $V)"
grep -qx "fastraw = $V" "$T/fastraw-tools.requires" || fail "the fastraw-tools RPM does not require fastraw = $V"

echo "== control data and scripts"
for pkg in fastraw fastraw-tools; do
	run 0 rpm -qp --qf '%{NAME} %{LICENSE} %{ARCH}\n' "$T/rpm/$pkg-${V}-1.${arch}.rpm"
	out_has "$pkg MIT $arch"
	rpm -qp --scripts "$T/rpm/$pkg-${V}-1.${arch}.rpm" >"$T/$pkg.scripts"
	run 0 dpkg-deb -e "$T/deb/${pkg}_${V}_${FR_DEB_ARCH}.deb" "$T/$pkg.control"
	if grep -l 'ld\.so\.preload' "$T/$pkg.scripts" "$T/$pkg.control"/*; then
		fail "a $pkg script mentions ld.so.preload"
	fi
done
grep -q ldconfig "$T/fastraw.scripts" || fail "the fastraw RPM runs no ldconfig"
finish
