/* SPDX-License-Identifier: MIT */
/* The counter facts of a kernel-matrix guest's CPU, read the way each architecture allows from user space. */
#include "guest_machine.h"

#include <stdio.h>

#if defined(__x86_64__)
#include <cpuid.h>

void fr_guest_cpu_facts(char *buf, size_t len)
{
	unsigned a, b, c, d;
	int rdtscp = __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));

	snprintf(buf, len, "rdtscp=%d", rdtscp);
}

#elif defined(__aarch64__)
#include <sys/auxv.h>

/* <asm/hwcap.h>: the kernel's bit for FEAT_ECV (CNTVCTSS_EL0 readable at EL0). */
#ifndef HWCAP2_ECV
#define HWCAP2_ECV (1UL << 19)
#endif

void fr_guest_cpu_facts(char *buf, size_t len)
{
	unsigned long frq;
	int ecv = (getauxval(AT_HWCAP2) & HWCAP2_ECV) != 0;

	/* CNTFRQ_EL0 is readable at EL0 whenever the counter is (the kernel sets CNTKCTL_EL1). */
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	snprintf(buf, len, "ecv=%d cntfrq=%lu", ecv, frq);
}

#else
#error "the kernel matrix knows no counter facts for this architecture (tests/matrix/guest_machine.c)"
#endif
