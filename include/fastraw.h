/* SPDX-License-Identifier: MIT */
/* libfastraw's public API: CLOCK_MONOTONIC_RAW as one integer, raw counter ticks, and the library's state. */
#ifndef FASTRAW_H
#define FASTRAW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Every function here may be called from any thread, from a signal handler and before the
 * library's constructor has run (the first call initialises it); none allocates or takes a
 * lock, and none changes errno but fastraw_clock_gettime on failure, as clock_gettime does.
 * Link with -lfastraw; under LD_PRELOAD, find them with dlsym(RTLD_DEFAULT, "fastraw_now_ns").
 */

struct timespec;

/*
 * CLOCK_MONOTONIC_RAW in nanoseconds: exactly tv_sec * 1000000000 + tv_nsec of what
 * clock_gettime(CLOCK_MONOTONIC_RAW) returns for the same counter reading, without the split
 * into a timespec. When the fast path is off, the kernel's vDSO answers and the result is
 * combined the same way (without a vDSO, under valgrind: calibrated mode where it is eligible,
 * else the system call). In a time namespace whose offset puts CLOCK_MONOTONIC_RAW before zero
 * (a restored checkpoint can), the kernel answers tv_sec < 0 with tv_nsec in [0, 1000000000)
 * and the result is their sum, negative, in every mode. Returns -1 if even the kernel failed (it
 * does not); a -1 is otherwise a reading, exactly 1 ns before zero.
 */
int64_t fastraw_now_ns(void);

/*
 * clock_gettime(clk, ts) with libc's contract: 0, or -1 with errno set to the kernel's answer
 * (EINVAL for an id the kernel does not know, EFAULT for a NULL ts), errno untouched on success.
 * CLOCK_MONOTONIC_RAW is answered as fastraw_now_ns answers it; the clocks FASTRAW_CLOCKS names,
 * where the library serves them (FASTRAW_DEBUG and fastraw-info say so), come from the kernel's
 * data pages exactly as the kernel's vDSO computes them; every other clock, and every call the
 * pages cannot answer exactly, is the kernel's vDSO's answer (or the system call's), never
 * another clock_gettime interposer's. The id is an int, as clockid_t is on Linux, so that this
 * header needs no POSIX feature macro.
 */
#if defined(__GLIBC__) && __SIZEOF_LONG__ == 4 && !defined(__USE_TIME_BITS64) && \
	(!defined(__TIMESIZE) || __TIMESIZE == 32)
/*
 * A program built with glibc's 32-bit time_t on a 32-bit ABI (armhf without _TIME_BITS=64, as
 * Debian's before trixie) has a struct timespec of two 32-bit fields, the library a 64-bit one:
 * its calls go to fastraw_clock_gettime32, which answers in its struct as glibc's 32-bit
 * clock_gettime does (-1 and EOVERFLOW from 2038 on, the timespec untouched), as glibc's
 * <time.h> sends a 64-bit-time program's clock_gettime to __clock_gettime64 (and the same way:
 * by sys/cdefs.h's __REDIRECT where the compiler has it, else by a macro).
 */
#ifdef __REDIRECT
extern int __REDIRECT(fastraw_clock_gettime, (int clk, struct timespec *ts), fastraw_clock_gettime32);
#else
int fastraw_clock_gettime32(int clk, struct timespec *ts);
#define fastraw_clock_gettime fastraw_clock_gettime32
#endif
#else
int fastraw_clock_gettime(int clk, struct timespec *ts);
#endif

/*
 * The counter as the library reads it for CLOCK_MONOTONIC_RAW: the ordered, fenced or unordered
 * read (on x86-64 rdtscp, lfence;rdtsc or rdtsc), chosen at initialisation (FASTRAW_TSC, the
 * CPU's features). The ordered read is never executed on a CPU without it.
 * Always a counter value, even when the fast path is off; fastraw_ticks_to_ns says whether it
 * can be converted.
 */
uint64_t fastraw_ticks(void);

/*
 * The CLOCK_MONOTONIC_RAW time, in nanoseconds, of a value fastraw_ticks() returned, now or
 * later, with the kernel's current data pages: TSC clock mode through the RAW formula, pvclock
 * (kvm-clock, Xen) through the pvclock page to kvmclock time and then the RAW formula, hvclock
 * (Hyper-V) through the TSC page's scale and offset to reference time and then the RAW formula.
 *
 * Error bound. The kernel accumulates the RAW clock exactly and never changes its mult while
 * the clocksource stays the same, so every snapshot lies on one line: the result equals
 * fastraw_now_ns() for a reading of that same counter value, exactly (0 ns), however late the
 * conversion, and for values older than the snapshot (below its cycle_last) the line is
 * extrapolated backwards, again exactly. Two cases differ:
 *  - a live reading whose counter lagged the snapshot (another CPU's counter behind) is clamped
 *    by the vDSO to the snapshot's base; the conversion gives the unclamped, earlier value;
 *  - in pvclock mode, if the hypervisor re-based the pvclock page (new tsc_timestamp,
 *    system_time or mul) between the read and the conversion, the result carries that
 *    update's correction (KVM's master clock: normally well under 1 microsecond) plus at most
 *    1 ns of rounding; in hvclock mode likewise for a new scale or offset of the TSC page.
 * A change of clocksource between read and conversion makes the result meaningless.
 *
 * Returns -1 when the current pages cannot convert: the fast path is off (FASTRAW_DISABLE=1,
 * an unknown kernel...), RAW is calibrated, the process has no data pages at all (under
 * valgrind, where RAW is calibrated or passes through), the clock mode is none, the pvclock
 * stable bit is clear, the Hyper-V TSC page is marked invalid (sequence 0), or the clocksource
 * value (in TSC mode: ticks) has bit 63 set on a kernel before 6.5, which does not mask it off.
 * Inside a time namespace the namespace's offset is added, as clock_gettime does.
 */
int64_t fastraw_ticks_to_ns(uint64_t ticks);

/*
 * What initialisation decided. Set size to sizeof(struct fastraw_info) before the call: the
 * library fills only the fields that fit whole in size (older callers keep working as fields
 * are added at the end), writes nothing past the last of them, and sets size to where it ends. The strings are the library's, static,
 * never to be freed.
 */
struct fastraw_info {
	size_t size;            /* in: the caller's sizeof; out: bytes filled */
	int active;             /* 1: CLOCK_MONOTONIC_RAW is served in-process; 0: pass-through */
	const char *kernel;     /* kernel release, e.g. "6.18.44-fc" ("?" if unknown) */
	const char *era;        /* data-page layout, e.g. "6.17+", or "none" */
	const char *clock_mode; /* RAW entry's clock mode at start: "tsc", "pvclock", "none", ... or "unknown" */
	const char *counter;    /* counter read as FASTRAW_TSC names it: "rdtsc", "lfence" or "rdtscp" on x86-64 */
	const char *reason;     /* why pass-through when !active; "active" otherwise */
	const char *source;     /* "kernel" (exact, from the data pages), "calibrated" (estimated from
				   the counter, within 2 us of the kernel after warm-up) or "none" */
	const char *era_note;   /* "" when era is the kernel release's own layout; else why it was
				   assumed, e.g. "assumed: kernel 8.1 is newer than the newest known,
				   7.3; page and vDSO agree" (the page checks and the self-test chose it) */
};

/*
 * Fills *info. Returns 0, or -1 when info is NULL, info->size is smaller than the first two
 * fields, or another thread is initialising the library this instant (call again).
 */
int fastraw_info(struct fastraw_info *info);

#ifdef __cplusplus
}
#endif

#endif
