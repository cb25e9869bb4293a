/* SPDX-License-Identifier: MIT */
/* The counter facts of a kernel-matrix guest's 32-bit ARM CPU, read the way the architecture allows from user space. */
#include "../../matrix/guest_machine.h"

#include <stdio.h>
#include <sys/auxv.h>

/* <asm/hwcap.h>: the architected timer's event stream runs, so the generic timer exists. */
#ifndef HWCAP_EVTSTRM
#define HWCAP_EVTSTRM (1UL << 21)
#endif

void fr_guest_cpu_facts(char *buf, size_t len)
{
	unsigned long frq = 0;
	int evtstrm = (getauxval(AT_HWCAP) & HWCAP_EVTSTRM) != 0;

	/* CNTFRQ raises SIGILL without the generic timer: read only where the event stream proves it. */
	if (evtstrm)
		__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(frq));
	snprintf(buf, len, "evtstrm=%d cntfrq=%lu", evtstrm, frq);
}
