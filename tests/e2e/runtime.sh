#!/bin/sh
# SPDX-License-Identifier: MIT
# A real runtime's monotonic clock under the preload with FASTRAW_CLOCKS=all: served, monotonic, inside the kernel's bracket.
# usage: runtime.sh python|java|node|cxx LIBFASTRAW PROBE_RUNTIME
# The runtime's program is tests/e2e/runtimes/ (clock.py, Clock.java, clock.js, steady_clock.cpp):
# a loop of LOOP reads, then ROUNDS reads each taken between two kernel reads of CLOCK_MONOTONIC
# by e2e_probe_runtime (the pipe orders them). Exit 77 (skipped) when the runtime is not installed.
set -eu
runtime=$1
lib=$2
probe=$3
dir=$(cd "$(dirname "$0")/runtimes" && pwd)
# shellcheck source=tests/e2e/script_common.sh
. "$(dirname "$0")/script_common.sh"
unset FASTRAW_CLOCKS
LOOP=200000
ROUNDS=1000

skip() {
	echo "SKIP: $*"
	exit 77
}

case $runtime in
python)
	command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
	# The interpreter itself, not a wrapper script (pyenv's shims are shell scripts): its process
	# is the one the probe starts.
	py=$(python3 -c 'import sys; print(sys.executable)') || py=
	[ -n "$py" ] || skip "python3 names no executable"
	set -- "$py" "$dir/clock.py" check "$LOOP"
	;;
java)
	command -v java >/dev/null 2>&1 ||
		skip "java not installed (Debian package openjdk-17-jre-headless; scripts/common.sh installs it)"
	# A single source file runs through the JDK's compiler module, which the JRE's image holds
	# since Java 11 (Debian's openjdk-17-jre-headless included).
	java --list-modules 2>/dev/null | grep -q '^jdk\.compiler@' ||
		skip "this java cannot run a source file (no jdk.compiler module; Java 11 or later has it)"
	set -- java "$dir/Clock.java" check "$LOOP"
	;;
node)
	node=$(command -v node || command -v nodejs) ||
		skip "node not installed (Debian package nodejs; scripts/common.sh installs it)"
	set -- "$node" "$dir/clock.js" check "$LOOP"
	;;
cxx)
	cxx=$(command -v "${CXX:-c++}" || command -v g++) || skip "no C++ compiler (c++, g++)"
	# shellcheck disable=SC2034 # fail (script_common.sh) names the step
	what="build steady_clock.cpp"
	"$cxx" -O2 -o "$T/steady_clock" "$dir/steady_clock.cpp" >"$T/out" 2>"$T/err" || fail "$cxx failed"
	set -- "$T/steady_clock" check "$LOOP"
	;;
*)
	echo "runtime.sh: unknown runtime $runtime" >&2
	exit 2
	;;
esac

run "$runtime under LD_PRELOAD with FASTRAW_CLOCKS=all" \
	"$probe" "$ROUNDS" LD_PRELOAD="$lib" FASTRAW_CLOCKS=all FASTRAW_STATS=1 FASTRAW_DEBUG=1 "$@"
cat "$T/out"

# val KEY: the value of KEY=... on the probe's summary lines.
val() { sed -n "/^loop /d; s/^\(.* \)\{0,1\}$1=\([0-9-]*\).*/\2/p" "$T/out" | head -n 1; }
pid=$(val child_pid)
[ "$(val status)" = 0 ] || fail "the runtime exited with status $(val status)"

# Monotonic over the loop, and the loop ran in full.
grep -q "^loop " "$T/out" || fail "the runtime printed no loop line"
[ "$(sed -n 's/^loop .*calls=\([0-9]*\).*/\1/p' "$T/out")" = "$LOOP" ] || fail "the loop did not make $LOOP calls"
[ "$(sed -n 's/^loop .*backwards=\([0-9]*\).*/\1/p' "$T/out")" = 0 ] || fail "the runtime's clock went backwards in its loop"

# Inside the kernel's bracket, every round, and never backwards across the rounds.
[ "$(val rounds)" = "$ROUNDS" ] || fail "only $(val rounds) of $ROUNDS bracketed rounds"
[ "$(val values)" -ge "$ROUNDS" ] || fail "fewer readings than rounds"
[ "$(val outside)" = 0 ] || fail "$(val outside) readings outside the kernel's bracket"
[ "$(val backwards)" = 0 ] || fail "$(val backwards) readings below the one before"

# Served here wherever RAW is served from the kernel's data (the clocks' own self-test passes
# wherever RAW's does, as e2e_served asserts): the debug lines of the runtime's own process (the
# last of that process id) say whether it is, and then nearly every call is counted fast. Where
# RAW is not, every call passes through and was checked in the bracket above.
lines=$(grep "^fastraw\[$pid\] " "$T/err") || fail "no line of the library from process $pid: it was not loaded"
kernel=$(printf '%s\n' "$lines" | grep ': kernel=' | tail -n 1) || fail "no debug line from process $pid"
clocks=$(printf '%s\n' "$lines" | grep ': clocks: ' | tail -n 1) || clocks=
stats=$(printf '%s\n' "$lines" | grep ': stats: ' | tail -n 1) || fail "no stats line from process $pid"
echo "$kernel"
echo "$clocks"
echo "$stats"
counts=$(printf '%s\n' "$stats" | sed -n 's/.*, MONOTONIC \(fast=[0-9]* \)\{0,1\}passthrough=\([0-9]*\).*/\1 \2/p')
[ -n "$counts" ] || fail "no MONOTONIC count on the stats line: the runtime's clock did not reach the library"
fast=$(echo "$counts" | sed -n 's/^fast=\([0-9]*\) .*/\1/p')
fast=${fast:-0}
pass=${counts##* }
[ $((fast + pass)) -ge "$LOOP" ] || fail "MONOTONIC counted $((fast + pass)) calls, fewer than the loop's $LOOP"
case $kernel in
*" active"*)
	case $clocks in
	*"served from the kernel's page:"*" MONOTONIC "*) ;;
	*) fail "RAW is served here, but MONOTONIC is not: ${clocks:-no clocks line}" ;;
	esac
	# A pass-through is only a seqcount that never settled: at most 1 % of the calls.
	[ $((pass * 100)) -le $((fast + pass)) ] || fail "MONOTONIC served, yet fast=$fast passthrough=$pass"
	echo "MONOTONIC served: fast=$fast passthrough=$pass"
	;;
*)
	[ "$fast" = 0 ] || fail "MONOTONIC counted fast=$fast although RAW is not served from the kernel's data here"
	echo "RAW not served from the kernel's data here, so neither is MONOTONIC: passthrough=$pass (bracket checked)"
	;;
esac
echo PASS
