/* SPDX-License-Identifier: MIT */
/* arm64's part of the ARM family's oracle (tests/oracle/armfam/): the vDSO's clock_gettime and the counter's registers. */
#ifndef FR_TEST_ORACLE_CPU_H
#define FR_TEST_ORACLE_CPU_H

#include <stdint.h>

/* arch/arm64/kernel/vdso/vdso.lds.S: every function under LINUX_2.6.39, with the __kernel_ prefix. */
#define ACPU_GETTIME "__kernel_clock_gettime"
#define ACPU_GETTIME_VERSION "LINUX_2.6.39"

static inline uint64_t acpu_cntfrq(void)
{
	uint64_t f;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}

/* The virtual counter now, ordered as the library's default read is. */
static inline uint64_t acpu_counter_now(void)
{
	uint64_t now;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(now));
	return now;
}

#endif
