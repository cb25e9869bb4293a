/* SPDX-License-Identifier: MIT */
/* The 32-bit-time entries of a 32-bit ABI built with 64-bit time_t (FR_HAS_TIME64): what interpose_dl.c hands out for the 32-bit names. */
#ifndef FR_TIME32_H
#define FR_TIME32_H

#include <stdint.h>
#include <time.h>

#include "arch/arch.h"
#include "passthru/passthru.h"
#include "startup/runtime.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* The kernel's old_timespec32 and glibc's 32-bit struct timespec. */
struct fr_timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

/*
 * clock_gettime with 32-bit time, libc's convention: EOVERFLOW past 2038, as glibc's. Every
 * clock but RAW goes to the next 32-bit-time clock_gettime in the chain when that is another
 * interposer's.
 */
int fr_clock_gettime32(clockid_t clk, struct fr_timespec32 *ts);
/*
 * r, the kernel-convention answer into ts, as a 32-bit-time answer into ts32 (NULL: none) in
 * libc's shape, as glibc's 32-bit clock_gettime converts: EOVERFLOW and -1 past 2038 with ts32
 * untouched (errno only once relocated).
 */
int fr_ts32_finish(struct fr_kret r, const struct timespec *ts, struct fr_timespec32 *ts32);
/* __vdso_clock_gettime's stand-in: the vDSO's convention, tv_sec's low 32 bits. */
int fr_vdso_clock_gettime32(clockid_t clk, struct fr_timespec32 *ts);

#if FR_HAS_TIME64
/* Whether name is a 32-bit-time clock_gettime's: libc's clock_gettime and __clock_gettime, the vDSO's FR_ARCH_VDSO_CLOCK_GETTIME32. */
int fr_is_time32_name(const char *name);
#else
static inline int fr_is_time32_name(const char *name)
{
	(void)name;
	return 0;
}
#endif

/*
 * What a lookup of the vDSO's clock function called name (a clock name) leads to instead, in the
 * vDSO's convention and the name's time_t width: the lookups (interpose_dl.c) and the shadow
 * image (shadow.c) hand out the same.
 */
static inline void *fr_vdso_stand_in(const char *name)
{
#if FR_HAS_TIME64
	if (fr_is_time32_name(name))
		return (void *)fr_vdso_clock_gettime32;
#endif
	return (void *)fr_vdso_entry().call;
}

#pragma GCC visibility pop

#endif
