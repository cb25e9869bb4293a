/* SPDX-License-Identifier: MIT */
/* The 32-bit-time clock_gettime and __clock_gettime of a 32-bit ABI built with 64-bit time_t: the 64-bit answer, converted as glibc converts it. */
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "arch/arch.h"
#include "base/export.h"
#include "base/once.h"
#include "elf/early.h"
#include "elf/elfsym.h"
#include "elf/nextsym.h"
#include "interpose/prime.h"
#include "interpose/time32.h"
#include "math/rawmath.h"
#include "passthru/depth.h"
#include "passthru/passthru.h"
#include "startup/runtime.h"

#if FR_HAS_TIME64
typedef int (*clock32_fn)(clockid_t clk, struct fr_timespec32 *ts);

int fr_ts32_finish(struct fr_kret r, const struct timespec *ts, struct fr_timespec32 *ts32)
{
	if (r.err == 0 && ts32)
		r.err = fr_ts_to32(ts, &ts32->tv_sec, &ts32->tv_nsec);
	return fr_relocated() ? fr_finish(r) : fr_finish_unrelocated(r);
}

/*
 * glibc's 32-bit clock_gettime (sysdeps/unix/sysv/linux/clock_gettime.c, 2.31+) is
 * __clock_gettime64 into a 64-bit timespec, then: a tv_sec outside int32_t gives EOVERFLOW and
 * -1, the caller's timespec untouched; else both fields copied. So is this, over the library's
 * own 64-bit entry (RAW by the fast path, the clocks FASTRAW_CLOCKS serves from the pages, every
 * other clock the vDSO's). A NULL timespec gets the kernel's answer for NULL (EFAULT, EINVAL for
 * a bad id) where glibc would write through it: by the system call, not the 64-bit entry, whose
 * NULL path would hand it to a later interposer of the 64-bit name.
 */
static int own(clockid_t clk, struct fr_timespec32 *ts32)
{
	struct timespec ts;
	int ret;

	if (!ts32)
		return clk == CLOCK_MONOTONIC_RAW ? fr_clock_gettime(clk, NULL)
						  : fr_ts32_finish(fr_kcall(fr_real_sys(), clk, NULL), NULL, NULL);
	ret = fr_clock_gettime(clk, &ts);
	if (ret != 0)
		return ret;
	return fr_ts32_finish((struct fr_kret){ 0 }, &ts, ts32);
}

/*
 * Where every clock but RAW goes: the next 32-bit-time clock_gettime in the chain when it is
 * another interposer's, as the program's call reaches it without us, else own. Not the 64-bit
 * entry's next: a later preload that defines only the 32-bit name would be passed over, and one
 * that defines only __clock_gettime64 would see calls that glibc's 32-bit entry makes inside libc.
 */
static clock32_fn other_target(void)
{
	return (clock32_fn)fr_next_interposer(fr_slot(FR_W_TIME32_NEXT), "clock_gettime", (void *)own);
}

/* f(clk, ts32) for another object's f, behind the forwarding bound (passthru/depth.h); past it, the system call. */
static int pass(clock32_fn f, clockid_t clk, struct fr_timespec32 *ts32)
{
	struct fr_depth saved;
	struct timespec ts;
	int ret;

	if (!fr_depth_enter(&saved)) {
		fr_depth_report("clock_gettime");
		return fr_ts32_finish(fr_kcall(fr_real_sys(), clk, ts32 ? &ts : NULL), &ts, ts32);
	}
	ret = f(clk, ts32);
	fr_depth_leave(&saved);
	return ret;
}

int fr_clock_gettime32(clockid_t clk, struct fr_timespec32 *ts32)
{
	clock32_fn f;

	if (clk == CLOCK_MONOTONIC_RAW || (f = other_target()) == own)
		return own(clk, ts32);
	return pass(f, clk, ts32);
}

void fr_time32_prime(void)
{
	other_target();
}

/* The names <time.h> would redirect to the 64-bit entry under _TIME_BITS=64, spelt out. */
FR_EXPORT int fr_export_clock_gettime(clockid_t clk, struct fr_timespec32 *ts) FR_SYMBOL_NAME("clock_gettime")
	__attribute__((alias("fr_clock_gettime32")));
FR_EXPORT int fr_export___clock_gettime(clockid_t clk, struct fr_timespec32 *ts) FR_SYMBOL_NAME("__clock_gettime")
	__attribute__((alias("fr_clock_gettime32")));
#endif
