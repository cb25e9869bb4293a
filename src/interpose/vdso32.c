/* SPDX-License-Identifier: MIT */
/* The vDSO's 32-bit-time clock_gettime's stand-in, and the 32-bit-time names, of a 32-bit ABI built with 64-bit time_t. */
#include <stdint.h>
#include <time.h>

#include "arch/arch.h"
#include "elf/elfsym.h"
#include "interpose/time32.h"
#include "startup/runtime.h"

#if FR_HAS_TIME64
int fr_is_time32_name(const char *name)
{
	return fr_streq(name, "clock_gettime") || fr_streq(name, "__clock_gettime") ||
	       fr_streq(name, FR_ARCH_VDSO_CLOCK_GETTIME32);
}

/*
 * The vDSO's 32-bit __vdso_clock_gettime, for lookups that land on it (interpose_dl.c) and the
 * shadow image's symbol of that name (shadow.c): the vDSO's convention (0 or -errno, errno
 * untouched) and its conversion, which keeps the low 32 bits of tv_sec (lib/vdso's
 * __cvdso_clock_gettime32 assigns, it does not check).
 */
int fr_vdso_clock_gettime32(clockid_t clk, struct fr_timespec32 *ts32)
{
	struct timespec ts;
	int ret = fr_vdso_entry().call(clk, ts32 ? &ts : NULL);

	if (ret == 0 && ts32) {
		ts32->tv_sec = (int32_t)ts.tv_sec;
		ts32->tv_nsec = (int32_t)ts.tv_nsec;
	}
	return ret;
}
#endif
