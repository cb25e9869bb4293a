#!/bin/sh
# SPDX-License-Identifier: MIT
# The ARM family's facts the shell tool tests expect (arm64 and 32-bit ARM alike), sourced by
# tests/oracle/aarch64/facts.sh and tests/oracle/arm/facts.sh.
# shellcheck shell=sh disable=SC2034  # the facts are for the scripts that source arch_facts.sh
ctr_ord=cntvctss ctr_fen=isb+cntvct ctr_uno=cntvct
feature=ECV feature_key=ecv counter_word=cntvct
cpuinfo_line=Features cpuinfo_flag=ecv
arch_clocksource=arch_sys_counter
# What FASTRAW_TSC accepts, in the order the library's warning lists it.
ctr_accepted="$ctr_ord, $ctr_fen, $ctr_uno, ordered, unordered, rdtscp, lfence, rdtsc"

# clocksource_mode NAME: the clock mode the clocksource NAME gives the vDSO: the arch timer's
# ARCHTIMER (arm64's ARCHTIMER_NOCOMPAT, where an erratum keeps compat tasks off it, is not told apart).
clocksource_mode() {
	case $1 in
	arch_sys_counter) echo archtimer ;;
	*) echo none ;;
	esac
}

# kernel_trusts_counter: the kernel trusts the generic timer: an "arch_sys_counter" clocksource.
kernel_trusts_counter() {
	case " $(cat /sys/devices/system/clocksource/clocksource0/available_clocksource 2>/dev/null) " in
	*" arch_sys_counter "*) return 0 ;;
	esac
	return 1
}
