#!/bin/sh
# SPDX-License-Identifier: MIT
# One glibc of the matrix: probes built for it, with -lrt and without, run under its own loader with libfastraw preloaded, in every FASTRAW_* mode, each run under a timeout.
#
#   glibc_matrix.sh 2.17|2.31|2.41|host
#
# Environment (tests/floor.cmake): FR_SOURCE_DIR, FASTRAW_LIB, FR_LAUNCHER, CC, FR_DEB_ARCH, FR_ARCH,
# OBJDUMP, READELF, and FR_SUITE_BRACKET, FR_SUITE_CLOCKS, FR_SUITE_LOOKUP: this build's Check
# suites (tests/e2e/test_e2e_*.c), which run whatever probe FR_PROBE_* names.
# The glibc: 2.17 from scripts/glibc217.sh (CentOS 7's, with its GCC 4.8.5), 2.31 and 2.41 from
# scripts/oldglibc.sh (Debian 11's and 13's), host: this machine's. Skipped (77) when it cannot
# be had. Each probe is built twice: "libc" (clock_gettime from libc only) and "lrt" (linked with
# -lrt before libc: on glibc 2.17 clock_gettime then binds librt's clock_gettime@GLIBC_2.2.5).
# Asserted, for each build:
# - the probes run on that glibc (loader, symbol versions, gnu_get_libc_version(), every object
#   loaded from its sysroot) and bind clock_gettime where that glibc's linker puts it;
# - in every mode (default, FASTRAW_TSC=<unordered>, FASTRAW_STATS=1, FASTRAW_SYSCALL=1,
#   FASTRAW_SHADOW_VDSO=1, FASTRAW_DISABLE=1, FASTRAW_SOURCE=calibrated): clock_gettime of each
#   version node (librt's @GLIBC_2.2.5, libc's @GLIBC_2.17 and __clock_gettime) by dlsym and
#   dlvsym on RTLD_DEFAULT, RTLD_NEXT, librt's and libc's handles is found exactly where glibc
#   alone finds it and answers MONOTONIC and RAW inside the kernel's bracket; librt's
#   clock_getres, clock_nanosleep and timer_create work; RAW from two threads lies inside the
#   kernel's bracket; the library prints only what the mode asks for;
# - a library (not the program, which is not linked with libdl: libdl then comes after libc in
#   the loader's list before glibc 2.34) that dlopens a plugin and looks it up by handle,
#   RTLD_DEFAULT after RTLD_GLOBAL, RTLD_NEXT from the plugin and dlvsym gets exactly what it
#   gets without the preload, dlerror() texts included;
# - the e2e suites' own checks (bracket, clocks, lookup) against these probes;
# - the launcher (static: it runs on any glibc) starts them with the library.
# A run that does not end within its timeout is a failure reported as "hung", and a build whose
# probes hang is not handed to the suites.
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
# shellcheck source=tests/floor/glibc_toolchain.sh
. "$(dirname "$0")/glibc_toolchain.sh"
WHICH=${1:?usage: glibc_matrix.sh 2.17|2.31|2.41|host}
: "${FR_SOURCE_DIR:?run under ctest}" "${FASTRAW_LIB:?}" "${FR_LAUNCHER:?}" "${CC:?}" "${FR_DEB_ARCH:?}" "${FR_ARCH:?}"
: "${FR_SUITE_BRACKET:?}" "${FR_SUITE_CLOCKS:?}" "${FR_SUITE_LOOKUP:?}"
: "${READELF:=readelf}" "${OBJDUMP:=objdump}"
unset LD_PRELOAD LD_LIBRARY_PATH FASTRAW_TSC FASTRAW_DEBUG FASTRAW_STATS FASTRAW_DISABLE FASTRAW_SOURCE FASTRAW_SYSCALL FASTRAW_SHADOW_VDSO
LIB=$(readlink -f "$FASTRAW_LIB")
F=$FR_SOURCE_DIR/tests/floor
E2E=$FR_SOURCE_DIR/tests/e2e
# Seconds a probe may take (each takes well under one here); probe_nodes stops each of its
# checks after a quarter of a second of CPU, so it may take a few seconds when many spin. A suite
# (the longest, bracket, takes about 7 s).
PROBE_SECS=${FR_GLIBC_PROBE_TIMEOUT:-5}
NODES_SECS=${FR_GLIBC_NODES_TIMEOUT:-60}
SUITE_SECS=${FR_GLIBC_SUITE_TIMEOUT:-240}
command -v timeout >/dev/null 2>&1 || skip "no timeout(1) to bound the runs"
# The unordered read's FASTRAW_TSC name, from the CPU's own test facts (tests/oracle/<cpu>/).
[ -f "$F/../oracle/$FR_ARCH/facts.sh" ] || skip "no test facts for $FR_ARCH (tests/oracle/$FR_ARCH/facts.sh)"
# shellcheck source=/dev/null  # the CPU's facts file, chosen at run time
. "$F/../oracle/$FR_ARCH/facts.sh"
# shellcheck disable=SC2154  # set by the facts file
UNORDERED=$ctr_uno

START=$(date +%s)
glibc_toolchain "$WHICH"
GLIBC=$WHICH
if [ "$WHICH" = host ]; then
	GLIBC=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc //p')
	[ -n "$GLIBC" ] || skip "this machine's C library is not glibc"
fi
echo "glibc $GLIBC: compiler $TC_CC ($("$TC_CC" -dumpversion)), loader $TC_LOADER"

# timed SECS CMD...: runs CMD with stdout in $T/out and stderr in $T/err; st is its exit status,
# or "hung" when it did not end within SECS (then it is killed, with whatever it started).
timed() {
	secs=$1
	shift
	timeout -k 2 "$secs" "$@" >"$T/out" 2>"$T/err"
	st=$?
	case "$st" in 124 | 137) st=hung ;; esac
}
show() {
	sed 's/^/  out| /' "$T/out"
	sed 's/^/  err| /' "$T/err"
}

# The builds. libfloor_host.so is linked with -ldl (needed for dlopen before glibc 2.34), the
# program with it but not with -ldl; the plugin depends on the host, as a PAM module on libpam.
echo "== building for glibc $GLIBC"
mkdir -p "$T/libc" "$T/lrt"
for way in libc lrt; do
	if [ "$way" = lrt ]; then rt="-lrt" def=-DFR_LINKED_RT; else rt='' def=''; fi
	# shellcheck disable=SC2086  # rt and def are an option or nothing
	{
		tc_build "$way/libc_version" "$F/libc_version.c" -- $rt -ldl
		tc_build "$way/probe_nodes" $def "$F/probe_nodes.c" -- $rt -ldl -lpthread
		tc_build "$way/probe_bracket" "$E2E/probe_bracket.c" -- $rt -ldl -lpthread
		tc_build "$way/probe_clocks" "$E2E/probe_clocks.c" -- $rt -ldl -lpthread
		tc_build "$way/probe_lookup" "$E2E/probe_lookup.c" "$E2E/elfwalk.c" "$E2E/lookup_common.c" -- $rt -ldl -lpthread
		tc_build "$way/probe_chain" "$E2E/probe_chain.c" -- $rt -ldl
	}
done
# e2e_clocks' test interposer (its clocks_beside_interposer case), built against this glibc too.
tc_build libe2e_chain.so "$E2E/chain_lib.c" -- -ldl
tc_build libfloor_host.so "$F/host_lib.c" -- -ldl
tc_build libfloor_plugin.so "$F/host_plugin.c" -- "-Wl,--version-script=$F/host_plugin.map" -L"$T" -lfloor_host -ldl
tc_build probe_host "$F/probe_host.c" -- -L"$T" -lfloor_host "-Wl,-rpath,$T"
[ "$failures" -eq 0 ] || finish

# Where each build binds clock_gettime: librt's @GLIBC_2.2.5 with -lrt on glibc 2.17 (librt
# defines it there), libc's @GLIBC_2.17 otherwise.
for way in libc lrt; do
	bound=$("$OBJDUMP" -T "$T/$way/probe_nodes" | awk '$NF == "clock_gettime" { v = $(NF - 1); gsub(/[()]/, "", v); print v }')
	echo "$way build: clock_gettime@$bound; needs $("$READELF" -dW "$T/$way/probe_nodes" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
	want=GLIBC_2.17
	# (x86-64's first version: arm64's glibc began at 2.17, and its librt has no clock_gettime.)
	[ "$way" = lrt ] && [ "$GLIBC" = 2.17 ] && [ "$FR_DEB_ARCH" = amd64 ] && want=GLIBC_2.2.5
	[ "$bound" = "$want" ] || fail "$way build: clock_gettime@$bound, not @$want"
done

# version_of WHAT CMD...: CMD runs the version probe; it must say this glibc, map nothing from
# outside the sysroot but the vDSO and the library, and have clock_gettime from libc or libfastraw.
version_of() {
	what=$1
	shift
	echo "== $what"
	timed "$PROBE_SECS" "$@"
	show
	[ "$st" = 0 ] || { fail "$what: exit status $st"; return; }
	grep -qx "glibc=$GLIBC" "$T/out" || fail "$what: not running on glibc $GLIBC"
	sed -n 's/^object=//p' "$T/out" | while IFS= read -r obj; do
		case "$obj" in
		linux-vdso.so.1 | linux-vdso64.so.1) ;;
		*) [ -z "$TC_ROOT" ] || [ "${obj#"$TC_ROOT"/}" != "$obj" ] || [ "$(readlink -f "$obj")" = "$LIB" ] || echo "$obj" ;;
		esac
	done >"$T/outside"
	[ ! -s "$T/outside" ] || fail "$what: objects from outside the sysroot: $(tr '\n' ' ' <"$T/outside")"
	served=$(readlink -f "$(sed -n 's/^clock_gettime=//p' "$T/out")")
	case "$what" in
	*alone*) [ "$served" = "$(readlink -f "$TC_LIBC")" ] || fail "$what: clock_gettime is served by '$served', not libc" ;;
	*) [ "$served" = "$LIB" ] || fail "$what: clock_gettime is served by '$served', not $LIB" ;;
	esac
}
# The library's FASTRAW_DEBUG line: active, unless this machine's clocksource has no vDSO reader.
debug_active() {
	grep -q "^fastraw\[[0-9]*\] [^:]*: kernel=.* active$" "$T/err" ||
		{ [ "${FR_E2E_EXPECT:-}" = passthrough ] && grep -q "passthrough: " "$T/err"; } ||
		fail "$what: no FASTRAW_DEBUG line saying active"
}
for way in libc lrt; do
	version_of "$way build, glibc $GLIBC alone" "$T/$way/libc_version"
	version_of "$way build, libfastraw preloaded" env LD_PRELOAD="$LIB" "$T/$way/libc_version"
	[ ! -s "$T/err" ] || fail "$what: the library wrote to stderr without FASTRAW_DEBUG"
	version_of "$way build, FASTRAW_DEBUG=1" env LD_PRELOAD="$LIB" FASTRAW_DEBUG=1 "$T/$way/libc_version"
	debug_active
done

# The baselines: what glibc alone answers.
echo "== baselines without the library"
for way in libc lrt; do
	timed "$NODES_SECS" "$T/$way/probe_nodes"
	[ "$st" = 0 ] || { show; fail "$way build: probe_nodes fails without the library (exit $st)"; }
	grep -E ' (found|missing)$' "$T/out" >"$T/$way/nodes.base"
	echo "$way build: $(grep -c ' found$' "$T/$way/nodes.base") lookups found, $(grep -c ' missing$' "$T/$way/nodes.base") missing"
done
timed "$PROBE_SECS" "$T/probe_host" "$T/libfloor_plugin.so"
grep -v '^order: ' "$T/out" >"$T/host.base"
echo "host probe: loader order: $(sed -n 's/^order: [0-9]* //p' "$T/out" | tr '\n' ' ')"
grep '^libdl: ' "$T/out"
[ "$st" = 0 ] || { show; fail "the host probe fails without the library (exit $st)"; }
grep -q '^dlsym(handle, floor_plugin_answer) = 42$' "$T/host.base" ||
	fail "the host probe does not find its plugin's function without the library"
# Before glibc 2.34 dlsym is libdl's, and the case of the probe is libdl after libc.
case "$GLIBC" in
2.1? | 2.2? | 2.3[0-3]) grep -qx 'libdl: after libc' "$T/out" || fail "the host probe's libdl does not come after libc" ;;
esac

# mode_env MODE: the environment of a mode ("default": none).
mode_env() {
	[ "$1" = default ] || echo "$1"
}
# quiet_or_stats MODE CASE: the library printed only what MODE asks for.
quiet_or_stats() {
	if [ "$1" = FASTRAW_STATS=1 ]; then
		grep -q "^fastraw\[[0-9]*\] [^:]*: stats: " "$T/err" || fail "$2: no stats line"
		grep -v "^fastraw\[[0-9]*\] [^:]*: stats: " "$T/err" | grep -q . && fail "$2: more than stats on stderr"
	elif [ -s "$T/err" ]; then
		fail "$2: the library wrote to stderr"
	fi
}
# hung_at CASE [SECS]: the failure of a run that did not end, naming the last thing the probe printed.
hung_at() {
	fail "$1: hung (no end within ${2:-$PROBE_SECS} s; last line: $(tail -n 1 "$T/out"))"
}

# The builds and modes whose probes hung, as " way/mode" words.
hung_in=
for mode in default "FASTRAW_TSC=$UNORDERED" FASTRAW_STATS=1 FASTRAW_SYSCALL=1 FASTRAW_SHADOW_VDSO=1 FASTRAW_DISABLE=1 FASTRAW_SOURCE=calibrated; do
	echo "== mode $mode"
	for way in libc lrt; do
		case=$way/$mode/nodes
		# shellcheck disable=SC2046  # mode_env prints one word or none
		timed "$NODES_SECS" env LD_PRELOAD="$LIB" $(mode_env "$mode") "$T/$way/probe_nodes"
		if [ "$st" = hung ]; then
			hung_at "$case" "$NODES_SECS"
			hung_in="$hung_in $way/$mode"
		else
			grep -E ' (found|missing)$' "$T/out" >"$T/nodes"
			if ! cmp -s "$T/nodes" "$T/$way/nodes.base"; then
				fail "$case: lookups differ from glibc's (< alone, > preloaded):"
				diff "$T/$way/nodes.base" "$T/nodes" | sed -n 's/^[<>]/    &/p' | head -n 20
			fi
			grep ' bad' "$T/out" | head -n 10 | sed "s|^|    $case: |"
			grep -q ' bad' "$T/out" && fail "$case: $(grep -c ' bad' "$T/out") wrong answers"
			if grep -q ' hung$' "$T/out"; then
				fail "$case: $(grep -c ' hung$' "$T/out") checks hung (spun through their CPU budget):"
				sed -n 's/ hung$//p' "$T/out" | tr '\n' ';' | sed 's/;$//; s/;/; /g; s/^/    /; s/$/\n/'
				hung_in="$hung_in $way/$mode"
			fi
			# It exits 1 after a wrong or hung check, counted above.
			[ "$st" = 0 ] || grep -q ' bad\| hung$' "$T/out" || fail "$case: exit status $st"
			quiet_or_stats "$mode" "$case"
			echo "$case: $(grep -c ' ok$' "$T/out") checks right, exit $st"
		fi
		# Calibrated mode promises 2 us, not the kernel's bracket, which the bracket probe asserts.
		[ "$mode" = FASTRAW_SOURCE=calibrated ] && continue
		case=$way/$mode/bracket
		# shellcheck disable=SC2046
		timed "$PROBE_SECS" env LD_PRELOAD="$LIB" $(mode_env "$mode") "$T/$way/probe_bracket" 20000 2
		if [ "$st" = hung ]; then
			hung_at "$case"
		else
			[ "$st" = 0 ] || { show; fail "$case: exit status $st"; }
			grep -qx "served=$LIB" "$T/out" || fail "$case: clock_gettime not served by $LIB"
			quiet_or_stats "$mode" "$case"
		fi
	done
	case=host/$mode
	# shellcheck disable=SC2046
	timed "$PROBE_SECS" env LD_PRELOAD="$LIB" $(mode_env "$mode") "$T/probe_host" "$T/libfloor_plugin.so"
	if [ "$st" = hung ]; then
		hung_at "$case"
	else
		grep -v '^order: ' "$T/out" >"$T/host"
		if ! cmp -s "$T/host" "$T/host.base"; then
			fail "$case: a library's lookups differ from glibc's (< alone, > preloaded):"
			diff "$T/host.base" "$T/host" | sed -n 's/^[<>]/    &/p' | head -n 24
		else
			echo "$case: $(wc -l <"$T/host") lines as glibc's"
		fi
		[ "$st" = 0 ] || fail "$case: exit status $st"
		quiet_or_stats "$mode" "$case"
	fi
done

# The suites' own checks, each against its probe of each build. Check kills a test that
# outlives its timeout with everything it started; a build whose probes hung above is left out.
: "${CK_TIMEOUT_MULTIPLIER:=0.5}"
export CK_TIMEOUT_MULTIPLIER
suite() {
	echo "== suite $(basename "$1") on glibc $GLIBC, $4 build"
	# e2e_clocks' glibc case (FR_E2E_GLIBC) runs the version probe under the library as well.
	timeout -k 5 "$SUITE_SECS" env "FR_PROBE_$2=$T/$4/probe_$3" FASTRAW_LIB="$FASTRAW_LIB" \
		FR_PROBE_CHAIN="$T/$4/probe_chain" FR_CHAIN_LIB="$T/libe2e_chain.so" \
		FR_E2E_GLIBC="$GLIBC" FR_PROBE_LIBC_VERSION="$T/$4/libc_version" "$1" >"$T/suite" 2>&1
	st=$?
	sed 's/^/  | /' "$T/suite"
	case "$st" in
	0) ;;
	124 | 137) fail "suite $(basename "$1"), $4 build: hung (no end within $SUITE_SECS s)" ;;
	*) fail "suite $(basename "$1") failed against the $4 build's probe (exit $st)" ;;
	esac
}
for way in libc lrt; do
	case "$hung_in " in
	*" $way/"*)
		fail "suites not run on the $way build: its probes hung in$(echo "$hung_in" | tr ' ' '\n' | sed -n "s|^$way/| |p" | tr -d '\n')"
		continue
		;;
	esac
	suite "$FR_SUITE_BRACKET" BRACKET bracket "$way"
	suite "$FR_SUITE_CLOCKS" CLOCKS clocks "$way"
	suite "$FR_SUITE_LOOKUP" LOOKUP lookup "$way"
done

# The launcher starting programs built for this glibc.
for way in libc lrt; do
	version_of "$way build, the launcher" "$FR_LAUNCHER" --debug --lib "$LIB" "$T/$way/libc_version"
	grep -qxF "fastraw: launching $T/$way/libc_version with LD_PRELOAD=$LIB" "$T/err" || fail "$what: no launching line for $LIB"
	debug_active
done
echo "== the launcher, bracket probe on glibc $GLIBC"
timed "$PROBE_SECS" "$FR_LAUNCHER" --lib "$LIB" "$T/libc/probe_bracket" 200000 2
show
[ "$st" = 0 ] || fail "launcher bracket: exit status $st"
grep -qx "served=$LIB" "$T/out" || fail "launcher bracket: clock_gettime not served by $LIB"
grep -qx "samples=200000" "$T/out" || fail "launcher bracket: not every sample taken"
grep -qx "violations=0" "$T/out" || fail "launcher bracket: RAW outside the kernel's bracket"
echo "glibc $GLIBC: $(($(date +%s) - START)) s"
finish
