/* SPDX-License-Identifier: MIT */
/* The counter facts of a kernel-matrix guest's arm64 CPU, read the way the architecture allows from user space. */
#include "../../matrix/guest_machine.h"

#include <stdio.h>
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
