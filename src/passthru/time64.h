/* SPDX-License-Identifier: MIT */
/* The kernel's clock_gettime into a 64-bit-time timespec on a 32-bit ABI: clock_gettime64, or the 32-bit call once the kernel said it has none. */
#ifndef FR_TIME64_H
#define FR_TIME64_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* A system call of three arguments, by the instruction (fr_sys3), or the unit tests' stand-in. */
typedef long (*fr_sys3_fn)(long nr, long a, long b, long c);

/* The two system calls' numbers: the ABI's SYS_clock_gettime64 and SYS_clock_gettime. */
struct fr_time64_nrs {
	long nr64, nr32;
};

/*
 * clock_gettime64 (Linux 5.1+) into ts; a kernel without it answers ENOSYS, and then the 32-bit
 * call is made and widened, as glibc does (its tv_sec cannot be past 2038 there, the kernel's own
 * being 32 bits). The first ENOSYS is remembered in *none (0 until then): a kernel does not gain
 * the call while a process runs, and before 5.1 every RAW call would otherwise make two system
 * calls where one answers. That halves a pass-through's cost there and narrows calibrated mode's
 * sandwiches to one call (measured on 32-bit ARM 4.19 under QEMU: 386 counter ticks wide with the
 * refused call, 248 without). Only ENOSYS is remembered: a seccomp filter that refuses the call
 * later still gets the fallback, and one that allowed it is never asked again for nothing.
 */
static inline __attribute__((always_inline)) int fr_time64_gettime(fr_sys3_fn sys, struct fr_time64_nrs nrs, int *none,
								    clockid_t clk, struct timespec *ts)
{
	struct {
		int32_t sec, nsec;
	} t32;
	int ret;

	if (!__atomic_load_n(none, __ATOMIC_RELAXED)) {
		ret = (int)sys(nrs.nr64, clk, (long)ts, 0);
		if (ret != -ENOSYS)
			return ret;
		__atomic_store_n(none, 1, __ATOMIC_RELAXED);
	}
	ret = (int)sys(nrs.nr32, clk, ts ? (long)&t32 : 0, 0);
	if (ret == 0 && ts) {
		/* The whole struct, padding after the 32-bit tv_nsec included, as the kernel's 64-bit call writes it. */
		*ts = (struct timespec){ 0 };
		ts->tv_sec = t32.sec;
		ts->tv_nsec = t32.nsec;
	}
	return ret;
}

#pragma GCC visibility pop

#endif
