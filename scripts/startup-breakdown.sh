#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures what LD_PRELOAD=libfastraw.so adds to the start-up of a process that never reads RAW, and where it goes.
#
# Usage: scripts/startup-breakdown.sh [N] [COMMAND...]   (N rounds, default 300; COMMAND default /bin/true)
# FASTRAW_BUILD_DIR picks the build (default "build"); it is configured and built first.
#
# 1. Per-process cost, as fastraw-bench's start-up row measures it (tools/bench/bench_startup.c):
#    /bin/true with no preload, an empty preload (a constructor and nothing else: the goal's
#    baseline) and libfastraw, interleaved round by round; CPU time and minor page faults.
# 2. The steps of initialisation, each timed once, cold, in a fresh process (bench_startup_stages,
#    linked against the library's own core), medians over N processes; then the constructor's
#    share (start) and the whole initialisation the first RAW read runs (init).
# 3. For COMMAND: the system calls the library adds, the CPUID instructions it runs (each a trap
#    to the hypervisor in a VM), and the dynamic loader's relocation statistics.
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
n=${1:-300}
shift || true
[ $# -gt 0 ] || set -- /bin/true
# shellcheck disable=SC2119 # fr_setup's arguments are for cmake, not ours
fr_setup >/dev/null

# The library, the empty preload and the stages program, all built by CMake.
lib="$FR_BUILD/libfastraw.so"
empty="$FR_BUILD/bench_empty.so"
stages="$FR_BUILD/bench_startup_stages"
out="$FR_BUILD/startup"
mkdir -p "$out"

echo "== Start-up per process ($(uname -r), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')) =="
"$stages" processes "$n" "$lib" "$empty"

echo
echo "== The constructor's steps, cold, median ns over $n processes =="
median_steps() {
	local mode=$1

	for _ in $(seq "$n"); do "$stages" "$mode"; done >"$out/steps.txt"
	# Medians per step, in the order the steps ran (mawk has no asort: sort first).
	awk '!seen[$1]++ { print $1 }' "$out/steps.txt" | while read -r step; do
		awk -v s="$step" '$1 == s { print $2 }' "$out/steps.txt" | sort -n |
			awk -v s="$step" '{ v[NR] = $1 } END { printf "  %-14s %9d\n", s, v[int((NR + 1) / 2)] }'
	done
}
median_steps steps
median_steps start
median_steps init

echo
echo "== System calls added to $1 (libfastraw minus the empty preload) =="
if command -v strace >/dev/null 2>&1; then
	count() {
		LD_PRELOAD=$1 strace -qq -f -o "$2" "${@:3}" >/dev/null 2>&1 || true
		# Name, plus the path for opens: the loader's own calls cancel out in the difference.
		sed -E 's/^[0-9]+ +//; s/^(open(at)?)\((AT_FDCWD, )?"([^"]*)".*/\1:\4/; s/\(.*//' "$2" | sort | uniq -c | sort -k2
	}
	count "$empty" "$out/strace-empty.txt" "$@" >"$out/calls-empty.txt"
	count "$lib" "$out/strace-lib.txt" "$@" >"$out/calls-lib.txt"
	join -1 2 -2 2 -a 1 -a 2 -e 0 -o 0,1.1,2.1 "$out/calls-empty.txt" "$out/calls-lib.txt" |
		awk '$3 != $2 { printf "  %+3d %s\n", $3 - $2, $1; d = 1 } END { if (!d) print "  none" }' |
		grep -v -e "empty.so" -e "libfastraw" || true
else
	echo "  skipped: strace is not installed"
fi

echo
echo "== CPUID instructions libfastraw runs in $1 =="
if command -v gdb >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1; then
	real=$(readlink -f "$lib")
	ctor=$(nm "$real" | awk '$3 == "fr_ctor" { print $1 }')
	mapfile -t sites < <(objdump -d "$real" | awk '/\tcpuid/ { sub(":", "", $1); print $1 }')
	if [ -z "$ctor" ] || [ ${#sites[@]} -eq 0 ]; then
		echo "  0 (no CPUID instruction in the library, or no fr_ctor symbol to anchor on)"
	else
		{
			echo "set breakpoint pending on"
			echo "set environment LD_PRELOAD=$real"
			echo "break fr_ctor"
			echo "run"
			for s in "${sites[@]}"; do echo "break *((char *)fr_ctor - 0x$ctor + 0x$s)"; done
			echo "delete 1"
			printf 'commands 2-%d\nsilent\ncontinue\nend\n' $((${#sites[@]} + 1))
			echo "continue"
			echo "info breakpoints"
		} >"$out/cpuid.gdb"
		gdb -q -batch -x "$out/cpuid.gdb" --args "$@" 2>/dev/null |
			awk '/already hit/ { s += $4 } END { printf "  %d (at %d sites in the library)\n", s, '"${#sites[@]}"' }'
	fi
else
	echo "  skipped: gdb or objdump is not installed"
fi

echo
echo "== Dynamic loader statistics (LD_DEBUG=statistics) =="
for v in "$empty" "$lib"; do
	echo "  $(basename "$v"):"
	LD_PRELOAD=$v LD_DEBUG=statistics "$@" 2>&1 >/dev/null | sed -n 's/^ *[0-9]*: *//; /relocation\|startup time/p' | sed 's/^/    /'
done
