/* SPDX-License-Identifier: MIT */
/* What the ARM family's vDSO copy (vdso_copy.c) asks of the CPU's folder, and the state its trampolines' handler serves. */
#ifndef FR_TEST_ACOPY_CPU_H
#define FR_TEST_ACOPY_CPU_H

#include <stdint.h>

/*
 * The CPU's folder (tests/oracle/<cpu>/, on the include path) gives oracle_cpu.h: the name and
 * version of the vDSO's clock_gettime for this build's struct timespec (ACPU_GETTIME,
 * ACPU_GETTIME_VERSION), acpu_cntfrq() and acpu_counter_now() (an ordered read of the virtual
 * counter); trampolines.h, whose at_reg is one saved register; sites.h, the finder of what is
 * rerouted; and copy_cpu.c, acpu_on_trap.
 */
#include "oracle_cpu.h"
#include "trampolines.h"
#include "vdso_copy.h"

#define AC_NSEC_PER_SEC 1000000000ull

/* What the handler serves and counts during one call of the copy: one copy at a time, from one thread. */
struct ac_serve {
	const struct asites *sites;
	uint64_t tsc, tsc2;
	unsigned reads, carries, bad_carry, syscalls;
	int read_site;
	ac_read_hook hook;
};
extern struct ac_serve ac_hs;

/* The trampolines' handler (the CPU's copy_cpu.c): f holds the saved registers and flags, written back on return. */
void acpu_on_trap(at_reg *f, unsigned id);

#endif
