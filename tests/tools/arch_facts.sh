#!/bin/sh
# SPDX-License-Identifier: MIT
# Sourced by the tool tests: the target architecture's facts as the tests expect them (its tests/oracle/<cpu>/facts.sh, apart from the code), and how to run a target program.
#
# FR_TARGET_ARCH names the architecture the tools were built for (CMake's CMAKE_SYSTEM_PROCESSOR;
# default uname -m). FR_EMULATOR, set by a cross build (CMAKE_CROSSCOMPILING_EMULATOR, e.g.
# "qemu-aarch64-static -L /usr/aarch64-linux-gnu"), runs them: $RUN goes before every target
# program, unquoted. qemu-user maps no vDSO, and a program it runs cannot execve another target
# program: needs_system says so and exits 77 for the cases that need either.
# shellcheck shell=sh disable=SC2034  # the facts are for the scripts that source this file
arch=${FR_TARGET_ARCH:-$(uname -m)}
RUN=${FR_EMULATOR:-}
emulated=0
[ -n "$RUN" ] && emulated=1

# Each CPU's facts live in its test folder, tests/oracle/<cpu>/facts.sh (every script that sources
# this file sits one folder below tests/): counter and feature words, the cpuinfo line, the
# clocksource, what FASTRAW_TSC accepts (ctr_accepted) and clocksource_mode.
fr_cpu_facts=$(dirname "$0")/../oracle/$arch/facts.sh
if [ ! -f "$fr_cpu_facts" ]; then
	echo "SKIP: no test facts for architecture $arch"
	exit 77
fi
# shellcheck source=tests/oracle/x86_64/facts.sh
. "$fr_cpu_facts"

# cpu_has FLAG: /proc/cpuinfo's feature line names FLAG. Under qemu-user it is the host's: unknown.
cpu_has() { grep -m1 "^$cpuinfo_line" /proc/cpuinfo 2>/dev/null | tr ' \t' '\n' | grep -qx "$1"; }

# The clock mode the current clocksource gives the vDSO (the CPU's clocksource_mode).
# "unknown" where no vDSO is mapped (qemu-user) or no clocksource can be read.
expected_mode() {
	[ "$emulated" = 1 ] && { echo unknown; return; }
	set -- "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
	[ -n "$1" ] || { echo unknown; return; }
	clocksource_mode "$1"
}

# Clock modes the fast path computes.
mode_served() {
	case $1 in
	tsc | pvclock | archtimer | archtimer_nocompat) return 0 ;;
	esac
	return 1
}

# needs_system WHY: exit 77 under an emulator, which lacks what the case needs.
needs_system() {
	[ "$emulated" = 1 ] || return 0
	echo "SKIP: $1: needs a real $arch system (run in the $arch guest), not $RUN"
	exit 77
}
