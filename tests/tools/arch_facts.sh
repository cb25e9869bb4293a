#!/bin/sh
# SPDX-License-Identifier: MIT
# Sourced by the tool tests: the target architecture's facts as the tests expect them, stated here apart from the code, and how to run a target program.
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

case $arch in
x86_64)
	ctr_ord=rdtscp ctr_fen=lfence ctr_uno=rdtsc
	feature=RDTSCP feature_key=rdtscp counter_word=tsc
	cpuinfo_line=flags cpuinfo_flag=rdtscp
	arch_clocksource=tsc
	;;
aarch64)
	ctr_ord=cntvctss ctr_fen=isb+cntvct ctr_uno=cntvct
	feature=ECV feature_key=ecv counter_word=cntvct
	cpuinfo_line=Features cpuinfo_flag=ecv
	arch_clocksource=arch_sys_counter
	;;
*)
	echo "SKIP: no test facts for architecture $arch"
	exit 77
	;;
esac
# What FASTRAW_TSC accepts, in the order the library's warning lists it.
case $arch in
x86_64) ctr_accepted="rdtscp, lfence, rdtsc" ;;
*) ctr_accepted="$ctr_ord, $ctr_fen, $ctr_uno, ordered, unordered, rdtscp, lfence, rdtsc" ;;
esac

# cpu_has FLAG: /proc/cpuinfo's feature line names FLAG. Under qemu-user it is the host's: unknown.
cpu_has() { grep -m1 "^$cpuinfo_line" /proc/cpuinfo 2>/dev/null | tr ' \t' '\n' | grep -qx "$1"; }

# The clock mode a clocksource gives the vDSO (x86: vdso_clock_mode of each clocksource; arm64:
# the arch timer's ARCHTIMER, or ARCHTIMER_NOCOMPAT where an erratum keeps compat tasks off it).
# "unknown" where no vDSO is mapped (qemu-user).
expected_mode() {
	[ "$emulated" = 1 ] && { echo unknown; return; }
	case $arch/$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null) in
	x86_64/kvm-clock | x86_64/xen) echo pvclock ;;
	x86_64/tsc) echo tsc ;;
	x86_64/hyperv_clocksource_tsc_page) echo hvclock ;;
	aarch64/arch_sys_counter) echo archtimer ;;
	*/) echo unknown ;;
	*) echo none ;;
	esac
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
