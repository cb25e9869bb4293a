/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's part of the ARM family's oracle (tests/oracle/armfam/): the vDSO's clock_gettime and the counter's registers. */
#ifndef FR_TEST_ORACLE_CPU_H
#define FR_TEST_ORACLE_CPU_H

#include <stdint.h>

/* The virtual counter now (CNTVCT), ordered as the library's default read is. */
static inline uint64_t acpu_counter_now(void)
{
	uint32_t lo, hi;

	__asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* CNTFRQ: readable at PL0 whenever the virtual counter is (the oracle reads neither under qemu-user). */
static inline uint64_t acpu_cntfrq(void)
{
	uint32_t f;

	__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(f));
	return f;
}

/*
 * arch/arm/vdso/vdso.lds.S (5.5+): every function under LINUX_2.6, with the __vdso_ prefix.
 * This build's struct timespec has a 64-bit time_t (src/arch/arm/sources.cmake), which is
 * __vdso_clock_gettime64's (5.5+); __vdso_clock_gettime's is the old 32-bit one.
 */
#define ACPU_GETTIME "__vdso_clock_gettime64"
#define ACPU_GETTIME_VERSION "LINUX_2.6"

#endif
