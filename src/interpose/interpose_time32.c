/* SPDX-License-Identifier: MIT */
/* The 32-bit-time clock_gettime and __clock_gettime of a 32-bit ABI built with 64-bit time_t: the 64-bit answer, converted as glibc converts it. */
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "arch/arch.h"
#include "base/export.h"
#include "interpose/time32.h"
#include "math/rawmath.h"
#include "startup/runtime.h"

#if FR_ARCH_HAS_TIME64
/*
 * glibc's 32-bit clock_gettime (sysdeps/unix/sysv/linux/clock_gettime.c, 2.31+) is
 * __clock_gettime64 into a 64-bit timespec, then: a tv_sec outside int32_t gives EOVERFLOW and
 * -1, the caller's timespec untouched; else both fields copied. So is this, over the library's
 * own 64-bit entry (RAW by the fast path, every other clock on along the 64-bit chain). A NULL
 * timespec gets the 64-bit entry's answer for NULL (EFAULT, EINVAL for a bad id) where glibc
 * would write through it.
 */
int fr_clock_gettime32(clockid_t clk, struct fr_timespec32 *ts32)
{
	struct timespec ts;
	int ret;

	if (!ts32)
		return fr_clock_gettime(clk, NULL);
	ret = fr_clock_gettime(clk, &ts);
	if (ret != 0)
		return ret;
	if (fr_ts_to32(&ts, &ts32->tv_sec, &ts32->tv_nsec) != 0) {
		errno = EOVERFLOW;
		return -1;
	}
	return 0;
}

/* The names <time.h> would redirect to the 64-bit entry under _TIME_BITS=64, spelt out. */
FR_EXPORT int fr_export_clock_gettime(clockid_t clk, struct fr_timespec32 *ts) FR_SYMBOL_NAME("clock_gettime")
	__attribute__((alias("fr_clock_gettime32")));
FR_EXPORT int fr_export___clock_gettime(clockid_t clk, struct fr_timespec32 *ts) FR_SYMBOL_NAME("__clock_gettime")
	__attribute__((alias("fr_clock_gettime32")));

/*
 * The vDSO's 32-bit __vdso_clock_gettime, for lookups that land on it (interpose_dl.c): the
 * vDSO's convention (0 or -errno, errno untouched) and its conversion, which keeps the low 32
 * bits of tv_sec (lib/vdso's __cvdso_clock_gettime32 assigns, it does not check).
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
