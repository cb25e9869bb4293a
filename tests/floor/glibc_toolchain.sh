# SPDX-License-Identifier: MIT
# Sourced by glibc_matrix.sh: the compiler, flags and loader that build programs for one glibc of the matrix, and the build of one program.
# shellcheck shell=sh disable=SC2034  # the variables set here are glibc_matrix.sh's
#
# glibc_toolchain VERSION sets
#   TC_CC       the compiler (glibc 2.17: the npm toolchain's GCC 4.8.5; else this build's CC)
#   TC_FLAGS    its options: the sysroot, the loader, an rpath into the sysroot's libraries
#   TC_LOADER   the dynamic loader every program names (PT_INTERP)
#   TC_ROOT     the sysroot ("" for this machine's own glibc); objects loaded must lie under it
#   TC_LIBC     the libc.so.6 the programs load
# or calls skip with the reason when that glibc cannot be had here.
# Needs FR_SOURCE_DIR, CC, FR_DEB_ARCH, FR_ARCH (the tests' CPU folder, tests/oracle/$FR_ARCH) and the checks.sh helpers (T, skip, fail).

glibc_toolchain() {
	case "$FR_DEB_ARCH" in
	amd64) triple=x86_64-linux-gnu deb_loader=lib64/ld-linux-x86-64.so.2 ;;
	arm64) triple=aarch64-linux-gnu deb_loader=lib/ld-linux-aarch64.so.1 ;;
	*) skip "no glibc matrix for $FR_DEB_ARCH (amd64 and arm64 only)" ;;
	esac
	case "$1" in
	2.17) toolchain_npm ;;
	2.31) toolchain_debian bullseye ;;
	2.41) toolchain_debian trixie ;;
	host) toolchain_host ;;
	*) skip "no toolchain for glibc $1" ;;
	esac
}

# glibc 2.17 (CentOS 7's): scripts/glibc217.sh's GCC, which knows its sysroot. Its headers have
# no CLOCK_TAI (11 since Linux 3.10), and GCC 4.8 no <stdatomic.h>: tests/floor/gcc48 has the
# part the probes use.
toolchain_npm() {
	bash "$FR_SOURCE_DIR/scripts/glibc217.sh" "$(uname -m)" >"$T/toolchain.out" 2>"$T/toolchain.err"
	rc=$?
	cat "$T/toolchain.err"
	[ "$rc" != 77 ] || skip "no glibc 2.17 toolchain: $(sed -n 's/^glibc217: SKIPPED: //p' "$T/toolchain.err")"
	TC_CC=$(sed -n 's/^cc=//p' "$T/toolchain.out")
	TC_ROOT=$(sed -n 's/^sysroot=//p' "$T/toolchain.out")
	if [ "$rc" != 0 ] || [ ! -x "$TC_CC" ] || [ ! -d "$TC_ROOT" ]; then
		echo "FAIL: scripts/glibc217.sh made no toolchain (exit $rc)"
		exit 1
	fi
	TC_LOADER='' TC_LIBC=''
	for dir in "$TC_ROOT/lib" "$TC_ROOT/lib64"; do
		[ -z "$TC_LOADER" ] && [ -e "$dir/ld-2.17.so" ] && TC_LOADER=$dir/ld-2.17.so
		[ -z "$TC_LIBC" ] && [ -e "$dir/libc.so.6" ] && TC_LIBC=$dir/libc.so.6
	done
	TC_FLAGS="-I$FR_SOURCE_DIR/tests/floor/gcc48 -DCLOCK_TAI=11 -static-libgcc -Wl,--dynamic-linker=$TC_LOADER -Wl,-rpath,$TC_ROOT/lib64:$TC_ROOT/lib -Wl,--disable-new-dtags"
}

# A Debian release's glibc: scripts/oldglibc.sh's sysroot with this build's compiler. -B and the
# -L it implies put the sysroot's crt files and libc.so before the compiler's own search path,
# which --sysroot alone leaves pointing at this machine's; libgcc is linked in.
toolchain_debian() {
	bash "$FR_SOURCE_DIR/scripts/oldglibc.sh" "$FR_DEB_ARCH" "$1" >"$T/toolchain.out" 2>"$T/toolchain.err"
	rc=$?
	cat "$T/toolchain.err"
	[ "$rc" != 77 ] || skip "no sysroot of Debian $1: $(sed -n 's/^oldglibc: SKIPPED: //p' "$T/toolchain.err")"
	TC_ROOT=$(cat "$T/toolchain.out")
	if [ "$rc" != 0 ] || [ ! -e "$TC_ROOT/$deb_loader" ]; then
		echo "FAIL: scripts/oldglibc.sh made no sysroot with $deb_loader (exit $rc)"
		exit 1
	fi
	TC_CC=$CC
	TC_LOADER=$TC_ROOT/$deb_loader
	TC_LIBC=$TC_ROOT/lib/$triple/libc.so.6
	TC_FLAGS="--sysroot=$TC_ROOT -B$TC_ROOT/usr/lib/$triple/ -static-libgcc -Wl,--dynamic-linker=$TC_LOADER -Wl,-rpath,$TC_ROOT/lib/$triple -Wl,--disable-new-dtags"
}

# This machine's own glibc, as this build uses it.
toolchain_host() {
	TC_CC=$CC
	TC_ROOT=
	TC_FLAGS="-Wl,--disable-new-dtags"
	TC_LIBC=$("$CC" -print-file-name=libc.so.6)
	printf 'int main(void) { return 0; }\n' >"$T/empty.c"
	"$CC" -o "$T/empty" "$T/empty.c" || { echo "FAIL: $CC cannot build a program"; exit 1; }
	TC_LOADER=$("$READELF" -lW "$T/empty" | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p')
}

# tc_build OUT SOURCE... -- LINK-OPTIONS...: builds $T/OUT (-fPIC -shared when OUT ends in .so,
# else a PIE) with the e2e headers; every link is --no-as-needed, so that what a program is linked
# with is what it needs, in that order.
tc_build() {
	out=$1
	shift
	srcs=
	while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
		srcs="$srcs $1"
		shift
	done
	[ "$#" -gt 0 ] && shift
	case "$out" in
	*.so) kind="-fPIC -shared" ;;
	*) kind="-fPIE -pie" ;;
	esac
	# shellcheck disable=SC2086  # lists of options and files
	"$TC_CC" $TC_FLAGS $kind -I"$FR_SOURCE_DIR/tests/floor" -I"$FR_SOURCE_DIR/tests/support" -I"$FR_SOURCE_DIR/tests/oracle/$FR_ARCH" \
		-I"$FR_SOURCE_DIR/tests/e2e" -I"$FR_SOURCE_DIR/src" -std=gnu11 -O2 -Wall -Wextra -pthread \
		-o "$T/$out" $srcs -Wl,--no-as-needed "$@" >"$T/cc.log" 2>&1 ||
		{ sed 's/^/  cc| /' "$T/cc.log"; fail "$out does not build against glibc $GLIBC"; return 1; }
	tc_floor "$T/$out"
}

# tc_floor FILE: FILE's loader is the toolchain's, and it needs no glibc version past $GLIBC.
tc_floor() {
	case "$1" in
	*.so) ;;
	*) "$READELF" -lW "$1" | grep -qF "[Requesting program interpreter: $TC_LOADER]" ||
		fail "$(basename "$1"): its loader is not $TC_LOADER" ;;
	esac
	past=$("$OBJDUMP" -T "$1" | awk -v old="$GLIBC" 'BEGIN { split(old, o, ".") } {
		for (i = 1; i < NF; i++) if ($i ~ /^\(?GLIBC_/) {
			v = $i; gsub(/[()]/, "", v); sub(/^GLIBC_/, "", v); split(v, p, ".")
			if (v != "PRIVATE" && (v !~ /^[0-9.]+$/ || p[1] > o[1] || (p[1] == o[1] && p[2] > o[2]))) print $NF "@GLIBC_" v
			break
		}
	}')
	[ -z "$past" ] || fail "$(basename "$1"): linked against a newer glibc than $GLIBC: $past"
}
