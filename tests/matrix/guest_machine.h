/* SPDX-License-Identifier: MIT */
/* What a kernel-matrix guest's CPU offers the clock path, and where its console is, by architecture. */
#ifndef FR_MATRIX_GUEST_MACHINE_H
#define FR_MATRIX_GUEST_MACHINE_H

#include <stddef.h>

#include "cpu_test.h"

/* The serial console's device, tried when /dev/console cannot be opened. */
#define FR_GUEST_SERIAL FRT_GUEST_SERIAL

/*
 * The CPU's counter facts as the words of the guest's machine line that follow
 * "clocksource=...": x86-64 "rdtscp=0|1" (CPUID 0x80000001 EDX bit 27); arm64 "ecv=0|1
 * cntfrq=HZ" (HWCAP2_ECV, which the kernel sets when CNTVCTSS_EL0 may be read, and the
 * counter's frequency from CNTFRQ_EL0); 32-bit ARM "cntvct=0|1 cntfrq=HZ" (whether user space
 * may read CNTVCT, which the kernel allows when its vDSO may use it, and CNTFRQ, 0 when unreadable).
 */
void fr_guest_cpu_facts(char *buf, size_t len);

#endif
