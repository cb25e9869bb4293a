/* SPDX-License-Identifier: MIT */
/* The 32-bit-time entries of a 32-bit ABI built with 64-bit time_t (FR_ARCH_HAS_TIME64): what interpose_dl.c hands out for the 32-bit names. */
#ifndef FR_TIME32_H
#define FR_TIME32_H

#include <stdint.h>
#include <time.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* The kernel's old_timespec32 and glibc's 32-bit struct timespec. */
struct fr_timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

/* clock_gettime with 32-bit time, libc's convention: EOVERFLOW past 2038, as glibc's. */
int fr_clock_gettime32(clockid_t clk, struct fr_timespec32 *ts);
/* __vdso_clock_gettime's stand-in: the vDSO's convention, tv_sec's low 32 bits. */
int fr_vdso_clock_gettime32(clockid_t clk, struct fr_timespec32 *ts);

#pragma GCC visibility pop

#endif
