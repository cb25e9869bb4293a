/* SPDX-License-Identifier: MIT */
/* The counter facts of a kernel-matrix guest's 32-bit ARM CPU, read the way the architecture allows from user space. */
#include "../../matrix/guest_machine.h"

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * On 32-bit ARM user space may read the generic timer only when the kernel lets it (CNTKCTL's
 * PL0VCTEN, set when its vDSO may use the counter); otherwise the read is undefined and raises
 * SIGILL, as it does on a CPU without the generic timer. So each read runs under a SIGILL
 * handler that jumps back: PID 1 must not die of a fact it was asked to report.
 */
static sigjmp_buf trapped;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(trapped, 1);
}

void fr_guest_cpu_facts(char *buf, size_t len)
{
	struct sigaction sa, old;
	volatile uint32_t frq = 0;
	volatile int cntvct = 0;
	uint32_t lo, hi, f;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigill;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &old);
	if (sigsetjmp(trapped, 1) == 0) {
		/* CNTVCT, ordered as the library's default read is. */
		__asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
		(void)lo;
		(void)hi;
		cntvct = 1;
	}
	if (sigsetjmp(trapped, 1) == 0) {
		/* CNTFRQ: readable at PL0 whenever either counter is. */
		__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(f));
		frq = f;
	}
	sigaction(SIGILL, &old, NULL);
	snprintf(buf, len, "cntvct=%d cntfrq=%lu", cntvct, (unsigned long)frq);
}
