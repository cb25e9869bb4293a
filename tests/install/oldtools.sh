#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds libfastraw with the oldest tools the build accepts: Debian 11's CMake 3.18, GCC 9 and Clang 11.
# They come from bullseye through a private apt list (never this system's), unpacked under
# $FASTRAW_MATRIX_CACHE/oldtools. Each compiler configures, builds (warnings are errors),
# installs and packages the library, the launcher and the tools; a GCC that reports 8 is refused
# at configure time with the top CMakeLists.txt's message.
# shellcheck source=tests/install/install_common.sh
. "$(dirname "$0")/install_common.sh"
CACHE=${FASTRAW_MATRIX_CACHE:-$HOME/.cache/fastraw-matrix}/oldtools
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
ROOT=$CACHE/root
PKGS="cmake cmake-data libjsoncpp24 gcc-9 cpp-9 gcc-9-base libgcc-9-dev clang-11 libclang-cpp11 libllvm11 libclang-common-11-dev libffi7"
[ -n "${FR_TOOLCHAIN_FILE:-}" ] && skip "a cross build: the old tools are x86-64 compilers for this machine"
[ "$(uname -m)" = x86_64 ] || skip "bullseye's gcc-9 has no -mno-outline-atomics: the arm64 floor is GCC 10 (not built here)"
command -v dpkg-deb >/dev/null 2>&1 || skip "dpkg-deb is not installed (not a Debian system)"
command -v apt-get >/dev/null 2>&1 || skip "apt-get is not installed (not a Debian system)"

# The unpacked tools, fetched once; apt's own state stays in the cache, never /etc/apt.
if [ ! -f "$ROOT/.complete" ]; then
	[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"
	apt=$CACHE/apt
	rm -rf "$ROOT" "$apt/debs"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$ROOT"
	echo "deb [arch=amd64 signed-by=$KEYRING] $MIRROR bullseye main" >"$apt/sources.list"
	set -- -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=- \
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::status=/dev/null
	[ "$(id -u)" = 0 ] && set -- "$@" -o APT::Sandbox::User=root
	echo "fetching bullseye's $PKGS (private apt lists in $apt)"
	apt-get "$@" update >"$T/apt.log" 2>&1 || skip "apt-get update of bullseye from $MIRROR failed (no network?)"
	# shellcheck disable=SC2086 # the package list is meant to split
	(cd "$apt/debs" && apt-get "$@" download $PKGS) >>"$T/apt.log" 2>&1 ||
		skip "cannot download bullseye's tools from $MIRROR: $(tail -n 1 "$T/apt.log")"
	for deb in "$apt/debs"/*.deb; do
		dpkg-deb -x "$deb" "$ROOT" || { fail "dpkg-deb -x $deb"; finish; }
	done
	touch "$ROOT/.complete"
	rm -rf "$apt/debs" "$apt/cache"
fi
# Bullseye's libraries the tools need and this system lacks (libjsoncpp24, libllvm11, libffi7).
export LD_LIBRARY_PATH="$ROOT/usr/lib/x86_64-linux-gnu:$ROOT/usr/lib/llvm-11/lib"
OLD_CMAKE=$ROOT/usr/bin/cmake
OLD_CPACK=$ROOT/usr/bin/cpack
run 0 "$OLD_CMAKE" --version
out_has "cmake version 3.18."

# configure STATUS DIR CC [ARGS...]: the old CMake configures a tree installed under /usr.
configure() {
	status=$1 dir=$2 cc=$3
	shift 3
	run "$status" "$OLD_CMAKE" -S "$FR_SOURCE_DIR" -B "$dir" -DCMAKE_C_COMPILER="$cc" \
		-DFASTRAW_BUILD_TESTS=OFF -DFASTRAW_WERROR=ON -DCMAKE_INSTALL_PREFIX=/usr "$@"
}

for cc in gcc-9:9. clang-11:11.; do
	name=${cc%%:*} version=${cc#*:}
	compiler=$ROOT/usr/bin/$name
	B=$T/build-$name
	echo "== $name"
	configure 0 "$B" "$compiler"
	[ -f "$B/CMakeCache.txt" ] || continue
	grep -q "CMAKE_C_COMPILER_VERSION \"$version" "$B"/CMakeFiles/3.18*/CMakeCCompiler.cmake ||
		fail "$name ($version*) is not the compiler $B was configured with"
	run 0 "$OLD_CMAKE" --build "$B" -j2
	for f in libfastraw.so fastraw fastraw-latency fastraw-check fastraw-info fastraw-bench; do
		[ -e "$B/$f" ] || fail "$name built no $f"
	done
	# The library loads: a preloaded program starts and exits 0.
	run 0 env LD_PRELOAD="$B/libfastraw.so" /bin/true
	run 0 env DESTDIR="$T/inst-$name" "$OLD_CMAKE" --install "$B"
	libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$B/CMakeCache.txt")
	has_file "$T/inst-$name/usr/$libdir/libfastraw.so.${FR_VERSION%%.*}"
	has_file "$T/inst-$name/usr/bin/fastraw"
done
# The old CPack makes both packages from the GCC 9 tree.
run 0 "$OLD_CPACK" -G DEB --config "$T/build-gcc-9/CPackConfig.cmake" -B "$T/pkg"
for p in "fastraw_${FR_VERSION}_amd64.deb" "fastraw-tools_${FR_VERSION}_amd64.deb"; do
	has_file "$T/pkg/$p"
done

echo "== a compiler below the floor is refused"
configure 1 "$T/build-gcc8" "$ROOT/usr/bin/gcc-9" "-DCMAKE_C_FLAGS=-U__GNUC__ -D__GNUC__=8"
out_has "libfastraw needs GNU >= 9"
finish
