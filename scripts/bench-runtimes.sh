#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libfastraw and times each installed runtime's monotonic clock per call, without the preload and with it (FASTRAW_CLOCKS=all), in turns.
# Usage: scripts/bench-runtimes.sh [--quick] [--rounds N] [--calls N]
#   --quick      3 rounds of 200,000 calls (default: 7 rounds of 1,000,000)
#   --rounds N   processes per runtime and side; the rows are their medians
#   --calls N    calls per timed run; each process times 5 runs and reports their median
# The programs are the e2e tests' (tests/e2e/runtimes/), in their bench mode: each times its
# loop by its thread's CPU time (Node: its process's), so other jobs on the machine do not count.
set -euo pipefail

rounds=7
calls=1000000
while [ $# -gt 0 ]; do
	case "$1" in
	--quick)
		rounds=3
		calls=200000
		;;
	--rounds | --calls)
		if [ $# -lt 2 ] || ! [ "$2" -gt 0 ] 2>/dev/null; then
			echo "bench-runtimes.sh: $1 needs a positive number" >&2
			exit 2
		fi
		if [ "$1" = --rounds ]; then rounds=$2; else calls=$2; fi
		shift
		;;
	*)
		echo "usage: scripts/bench-runtimes.sh [--quick] [--rounds N] [--calls N]" >&2
		exit 2
		;;
	esac
	shift
done
runs=5

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck disable=SC2119 # fr_setup's arguments are for cmake, not ours
fr_setup >/dev/null
lib=$FR_BUILD/libfastraw.so
dir=$FR_ROOT/tests/e2e/runtimes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LD_PRELOAD FASTRAW_TSC FASTRAW_DEBUG FASTRAW_STATS FASTRAW_DISABLE FASTRAW_SOURCE FASTRAW_CLOCKS

# median: the middle of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# row NAME CMD...: ROUNDS processes without the preload and ROUNDS with it, taking turns, and
# one line of the table.
row() {
	local name=$1 r side out
	shift
	: >"$tmp/without"
	: >"$tmp/with"
	for ((r = 0; r < rounds; r++)); do
		for side in without with; do
			if [ "$side" = with ]; then
				out=$(env LD_PRELOAD="$lib" FASTRAW_CLOCKS=all "$@")
			else
				out=$("$@")
			fi
			sed -n 's/^ns_per_call=//p' <<<"$out" >>"$tmp/$side"
		done
	done
	awk -v name="$name" -v a="$(median <"$tmp/without")" -v b="$(median <"$tmp/with")" \
		'BEGIN { printf "| %-36s | %7.2f | %7.2f | %+7.2f | %5.2f |\n", name, a, b, b - a, b / a }'
}

echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), Linux $(uname -r)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
env LD_PRELOAD="$lib" FASTRAW_CLOCKS=all FASTRAW_DEBUG=1 true 2>&1 | sed -n 's/^fastraw\[[0-9]*\] [^:]*: /library: /p'
echo "$rounds rounds per side, each process the median of $runs runs of $calls calls; ns per call, loop included"
echo
echo "| runtime, clock | without | with | diff | ratio |"
echo "|---|---|---|---|---|"
if command -v python3 >/dev/null 2>&1 && py=$(python3 -c 'import sys; print(sys.executable)'); then
	row "Python $("$py" -c 'import platform; print(platform.python_version())') time.monotonic_ns" \
		"$py" "$dir/clock.py" bench monotonic_ns "$calls" "$runs"
	row "Python time.perf_counter_ns" "$py" "$dir/clock.py" bench perf_counter_ns "$calls" "$runs"
else
	echo "| Python: not installed | | | | |"
fi
if command -v java >/dev/null 2>&1 && java --list-modules 2>/dev/null | grep -q '^jdk\.compiler@'; then
	# Compiled once, so that each process times the loop and not the compiler.
	if command -v javac >/dev/null 2>&1 && javac -d "$tmp" "$dir/Clock.java" 2>/dev/null; then
		jrun=(java -cp "$tmp" Clock)
	else
		jrun=(java "$dir/Clock.java")
	fi
	jv=$(java -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
	row "Java $jv System.nanoTime" "${jrun[@]}" bench "$calls" "$runs"
else
	echo "| Java: not installed (or no source launcher) | | | | |"
fi
if node=$(command -v node || command -v nodejs); then
	row "Node $("$node" --version) process.hrtime.bigint" "$node" "$dir/clock.js" bench "$calls" "$runs"
else
	echo "| Node: not installed | | | | |"
fi
if cxx=$(command -v "${CXX:-c++}" || command -v g++) && "$cxx" -O2 -o "$tmp/steady_clock" "$dir/steady_clock.cpp"; then
	row "C++ steady_clock::now ($(basename "$cxx") -O2)" "$tmp/steady_clock" bench "$calls" "$runs"
else
	echo "| C++: no compiler | | | | |"
fi
