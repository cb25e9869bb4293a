#!/bin/sh
# SPDX-License-Identifier: MIT
# The x86-64 facts the shell tool tests expect, sourced by tests/tools/arch_facts.sh.
# shellcheck shell=sh disable=SC2034  # the facts are for the scripts that source arch_facts.sh
ctr_ord=rdtscp ctr_fen=lfence ctr_uno=rdtsc
feature=RDTSCP feature_key=rdtscp counter_word=tsc
cpuinfo_line=flags cpuinfo_flag=rdtscp
arch_clocksource=tsc
# What FASTRAW_TSC accepts, in the order the library's warning lists it.
ctr_accepted="rdtscp, lfence, rdtsc"

# clocksource_mode NAME: the clock mode the clocksource NAME gives the vDSO (the vdso_clock_mode
# of each clocksource).
clocksource_mode() {
	case $1 in
	kvm-clock | xen) echo pvclock ;;
	tsc) echo tsc ;;
	hyperv_clocksource_tsc_page) echo hvclock ;;
	*) echo none ;;
	esac
}

# kernel_trusts_counter: the kernel trusts the TSC (calibrated mode's eligibility): a "tsc"
# clocksource, or the first CPU's tsc_reliable flag and no tsc=unstable on the command line.
kernel_trusts_counter() {
	case " $(cat /sys/devices/system/clocksource/clocksource0/available_clocksource 2>/dev/null) " in
	*" tsc "*) return 0 ;;
	esac
	case " $(cat /proc/cmdline 2>/dev/null) " in *" tsc=unstable "*) return 1 ;; esac
	sed -n '/^flags[[:space:]]*:/{p;q;}' /proc/cpuinfo 2>/dev/null | grep -qw tsc_reliable
}
