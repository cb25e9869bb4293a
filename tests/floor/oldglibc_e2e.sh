#!/bin/sh
# SPDX-License-Identifier: MIT
# The e2e probes built against Debian 11's glibc 2.31 and run under its own loader with libfastraw preloaded.
#
# Environment (tests/floor.cmake): FR_SOURCE_DIR, FASTRAW_LIB, FR_LAUNCHER, CC, FR_DEB_ARCH, and
# FR_SUITE_BRACKET, FR_SUITE_CLOCKS, FR_SUITE_LOOKUP: this build's Check suites of those probes
# (tests/e2e/test_e2e_*.c), which run whatever probe FR_PROBE_* names. The sysroot comes from
# scripts/oldglibc.sh (skipped, 77, when bullseye's packages cannot be had). Asserted: the probes
# really run on glibc 2.31 (their loader, their symbol versions, gnu_get_libc_version() and every
# object mapped into them); the library loads there and serves clock_gettime; the suites' own
# checks hold (exact RAW inside the kernel's bracket in every counter mode, the other clocks
# passed through, every lookup); the launcher runs a bullseye-built program with the library.
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
: "${FR_SOURCE_DIR:?run under ctest}" "${FASTRAW_LIB:?}" "${FR_LAUNCHER:?}" "${CC:?}" "${FR_DEB_ARCH:?}"
: "${FR_SUITE_BRACKET:?}" "${FR_SUITE_CLOCKS:?}" "${FR_SUITE_LOOKUP:?}"
unset LD_PRELOAD FASTRAW_TSC FASTRAW_DEBUG FASTRAW_STATS FASTRAW_DISABLE FASTRAW_SOURCE FASTRAW_SYSCALL FASTRAW_SHADOW_VDSO
OLD=2.31
LIB=$(readlink -f "$FASTRAW_LIB")

case "$FR_DEB_ARCH" in
amd64) triple=x86_64-linux-gnu loader=lib64/ld-linux-x86-64.so.2 ;;
arm64) triple=aarch64-linux-gnu loader=lib/ld-linux-aarch64.so.1 ;;
*) skip "no bullseye sysroot for $FR_DEB_ARCH" ;;
esac
S=$(bash "$FR_SOURCE_DIR/scripts/oldglibc.sh" "$FR_DEB_ARCH" 2>"$T/sysroot.err")
rc=$?
cat "$T/sysroot.err"
if [ "$rc" = 77 ]; then
	skip "no sysroot of glibc $OLD: $(sed -n 's/^oldglibc: SKIPPED: //p' "$T/sysroot.err")"
fi
if [ "$rc" != 0 ] || [ ! -x "$S/$loader" ]; then
	echo "FAIL: scripts/oldglibc.sh made no sysroot with $loader (exit $rc)"
	exit 1
fi
echo "sysroot: $S"

# -B and the -L it implies put the sysroot's crt files and libc.so before the compiler's own
# search path, which --sysroot alone leaves pointing at this machine's; libgcc is linked in.
OG="--sysroot=$S -B$S/usr/lib/$triple/ -static-libgcc -Wl,--dynamic-linker=$S/$loader -Wl,-rpath,$S/lib/$triple -Wl,--disable-new-dtags"
INC="-I$FR_SOURCE_DIR/tests/support -I$FR_SOURCE_DIR/tests/e2e -I$FR_SOURCE_DIR/src"
E2E=$FR_SOURCE_DIR/tests/e2e
build() {
	out=$1
	shift
	# shellcheck disable=SC2086  # OG and INC are lists of options
	"$CC" $OG $INC -std=gnu11 -O2 -Wall -Wextra -pthread -o "$T/$out" "$@" -ldl -lpthread >"$T/cc.log" 2>&1 ||
		{ cat "$T/cc.log"; fail "$out does not build against glibc $OLD"; return 1; }
	# Each probe's loader is the sysroot's, and it needs no glibc version past the sysroot's.
	"$READELF" -lW "$T/$out" | grep -qF "[Requesting program interpreter: $S/$loader]" ||
		fail "$out: its loader is not $S/$loader"
	past=$("$OBJDUMP" -T "$T/$out" | awk -v old="$OLD" 'BEGIN { split(old, o, ".") } {
		for (i = 1; i < NF; i++) if ($i ~ /^\(?GLIBC_/) {
			v = $i; gsub(/[()]/, "", v); sub(/^GLIBC_/, "", v); split(v, p, ".")
			if (v !~ /^[0-9.]+$/ || p[1] > o[1] || (p[1] == o[1] && p[2] > o[2])) print $NF "@GLIBC_" v
			n++; break
		}
	} END { if (!n) print "(no versioned glibc symbol)" }')
	[ -z "$past" ] || fail "$out: linked against a newer glibc: $past"
}
: "${READELF:=readelf}" "${OBJDUMP:=objdump}"
build libc_version "$(dirname "$0")/libc_version.c"
build probe_bracket "$E2E/probe_bracket.c"
build probe_clocks "$E2E/probe_clocks.c"
build probe_lookup "$E2E/probe_lookup.c" "$E2E/elfwalk.c" "$E2E/lookup_common.c"
[ "$failures" -eq 0 ] || finish

# version_of WHAT SERVER CMD...: CMD runs the version probe; it must say glibc OLD, map nothing
# from outside the sysroot but the vDSO and the library, and have clock_gettime from SERVER.
version_of() {
	what=$1 server=$2
	shift 2
	echo "== $what"
	"$@" >"$T/out" 2>"$T/err"
	st=$?
	sed 's/^/  out| /' "$T/out"
	sed 's/^/  err| /' "$T/err"
	[ "$st" = 0 ] || { fail "$what: exit status $st"; return; }
	grep -qx "glibc=$OLD" "$T/out" || fail "$what: not running on glibc $OLD"
	sed -n 's/^object=//p' "$T/out" | while IFS= read -r obj; do
		case "$obj" in
		"$S"/* | linux-vdso.so.1 | linux-vdso64.so.1) ;;
		*) [ "$(readlink -f "$obj")" = "$LIB" ] || echo "$obj" ;;
		esac
	done >"$T/outside"
	[ ! -s "$T/outside" ] || fail "$what: objects from outside the sysroot: $(tr '\n' ' ' <"$T/outside")"
	served=$(sed -n 's/^clock_gettime=//p' "$T/out")
	[ "$(readlink -f "$served")" = "$(readlink -f "$server")" ] || fail "$what: clock_gettime is served by '$served', not $server"
}
# The library's FASTRAW_DEBUG line: active, unless this machine's clocksource has no vDSO reader.
debug_active() {
	grep -q "^fastraw\[[0-9]*\] [^:]*: kernel=.* active$" "$T/err" ||
		{ [ "${FR_E2E_EXPECT:-}" = passthrough ] && grep -q "passthrough: " "$T/err"; } ||
		fail "$what: no FASTRAW_DEBUG line saying active"
}

version_of "glibc $OLD alone" "$S/lib/$triple/libc.so.6" "$T/libc_version"
version_of "glibc $OLD, libfastraw preloaded" "$LIB" env LD_PRELOAD="$LIB" "$T/libc_version"
[ ! -s "$T/err" ] || fail "$what: the library wrote to stderr without FASTRAW_DEBUG"
version_of "glibc $OLD, FASTRAW_DEBUG=1" "$LIB" env LD_PRELOAD="$LIB" FASTRAW_DEBUG=1 "$T/libc_version"
debug_active

# The suites' own checks, each against its probe built for glibc 2.31.
suite() {
	echo "== suite $1 on glibc $OLD"
	env "FR_PROBE_$2=$T/probe_$3" FASTRAW_LIB="$FASTRAW_LIB" "$1" >"$T/suite" 2>&1
	st=$?
	sed 's/^/  | /' "$T/suite"
	[ "$st" = 0 ] || fail "suite $(basename "$1") failed against the glibc $OLD probe (exit $st)"
}
suite "$FR_SUITE_BRACKET" BRACKET bracket
suite "$FR_SUITE_CLOCKS" CLOCKS clocks
suite "$FR_SUITE_LOOKUP" LOOKUP lookup

# The launcher (static: it runs on any glibc) starting bullseye-built programs.
version_of "the launcher, glibc $OLD" "$LIB" "$FR_LAUNCHER" --debug --lib "$LIB" "$T/libc_version"
grep -qxF "fastraw: launching $T/libc_version with LD_PRELOAD=$LIB" "$T/err" || fail "$what: no launching line for $LIB"
debug_active
echo "== the launcher, bracket probe on glibc $OLD"
"$FR_LAUNCHER" --lib "$LIB" "$T/probe_bracket" 200000 2 >"$T/out" 2>"$T/err"
st=$?
sed 's/^/  out| /' "$T/out"
sed 's/^/  err| /' "$T/err"
[ "$st" = 0 ] || fail "launcher bracket: exit status $st"
grep -qx "served=$LIB" "$T/out" || fail "launcher bracket: clock_gettime not served by $LIB"
grep -qx "samples=200000" "$T/out" || fail "launcher bracket: not every sample taken"
grep -qx "violations=0" "$T/out" || fail "launcher bracket: RAW outside the kernel's bracket"
finish
