/* SPDX-License-Identifier: MIT */
/* The exported symbols: clock_gettime and __clock_gettime, with RAW on the fast path. */
#include <errno.h>
#include <time.h>

#include "interpose/prime.h"
#include "passthru/direct.h"
#include "base/access.h"
#include "startup/runtime.h"
#include "startup/start.h"
#include "elf/early.h"
#include "elf/nextsym.h"
#include "report/stats.h"
#include "base/export.h"
#include "base/once.h"
#include "startup/served.h"

/*
 * A NULL timespec, off the hot path. libc's own clock_gettime would hand NULL to the vDSO, which
 * writes through it: the kernel's answer instead (EFAULT, or EINVAL for a bad id). A later
 * interposer gets the call as it would without us.
 */
static __attribute__((noinline, cold)) int null_path(clockid_t clk)
{
	fr_clock_fn next;

	/* Before relocation: the kernel's answer, -1 (errno is out of reach then). */
	if (!fr_relocated())
		return fr_early_clock_gettime(clk, NULL);
	if (clk == CLOCK_MONOTONIC_RAW)
		return fr_finish((struct fr_kret){ -EFAULT });
	if ((next = fr_pass_interposer()))
		return fr_pass_call(next, clk, NULL);
	fr_stats_pass(clk);
	return fr_finish(fr_kcall(fr_real_sys(), clk, NULL));
}

/*
 * Every clock but RAW, inline or out of line as the architecture's code for the RAW path is
 * shortest (FR_ARCH_OTHER_CLOCK_INLINE, measured per CPU by single-stepping, docs/performance.md).
 */
static FR_ARCH_OTHER_CLOCK_INLINE int other_clock(clockid_t clk, struct timespec *ts)
{
	fr_clock_fn pass = __atomic_load_n(&fr_hot.pass, __ATOMIC_ACQUIRE);

	if (pass)
		return pass(clk, ts);
	return fr_vdso_libc(clk, ts);
}

/*
 * The body has its own name: <time.h> declares clock_gettime's timespec nonnull, which would
 * let the compiler drop the NULL check. The exported names are aliases of it; the hidden name
 * is what dlsym's interposer hands out, whoever else exports clock_gettime.
 *
 * RAW leaves by a tail jump to the fast path (which passes through itself when it must). Every
 * other clock goes to the next clock_gettime in the chain (passthru/passthru.h): by a tail jump
 * through fr_hot.pass when that is another interposer (or the counting wrapper, or the resolver
 * before first use); when it is libc's own, fr_hot.pass is NULL and the vDSO is reached from here
 * (fr_vdso_libc), so that the pass-through costs only the dispatch. Cache-line aligned, so that
 * the dispatch never straddles two lines.
 */
__attribute__((aligned(64))) int fr_clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (FR_UNLIKELY(ts == NULL))
		return null_path(clk);
	if (clk == CLOCK_MONOTONIC_RAW)
		return fr_raw_call(ts);
	return other_clock(clk, ts);
}

#if FR_HAS_TIME64
/*
 * A 32-bit ABI built with 64-bit time_t (arch/<cpu>/sources.cmake): this body is glibc's
 * __clock_gettime64 (<time.h> would redirect a definition named clock_gettime there too; the
 * name is spelt out). clock_gettime and __clock_gettime, the 32-bit-time entries, convert its
 * answer (interpose_time32.c).
 */
FR_EXPORT int fr_export_clock_gettime64(clockid_t clk, struct timespec *ts) FR_SYMBOL_NAME("__clock_gettime64")
	__attribute__((alias("fr_clock_gettime")));
#else
FR_EXPORT int clock_gettime(clockid_t clk, struct timespec *ts) __attribute__((alias("fr_clock_gettime")));

/*
 * __clock_gettime's every clock but RAW where the next __clock_gettime is libc's own: libc's
 * answer, as clock_gettime's pass-through gives it (the clocks FASTRAW_CLOCKS serves from the
 * pages, every other one the vDSO's, counted by FASTRAW_STATS); for NULL the kernel's (null_path).
 * Before relocation, the system call.
 */
static int libc_underscore(clockid_t clk, struct timespec *ts)
{
	if (!fr_relocated())
		return fr_finish_unrelocated(fr_kcall(fr_real_sys(), clk, ts));
	if (!ts) {
		fr_stats_pass(clk);
		return fr_finish(fr_kcall(fr_real_sys(), clk, NULL));
	}
	return fr_served_libc(clk, ts);
}

/*
 * Where __clock_gettime sends every clock but RAW: the next __clock_gettime in the chain when it
 * is another interposer's, else libc_underscore. Not the next clock_gettime, as each exported name
 * chains to the next definition of that same name: without libfastraw a call of __clock_gettime
 * reaches libc's, never a later interposer of clock_gettime. glibc 2.17's librt resolves its
 * clock_gettime IFUNC to __clock_gettime as its GOT binds it (ours): a later interposer that finds
 * that IFUNC by dlsym(RTLD_NEXT) would otherwise be called again by each of its own calls.
 */
static fr_clock_fn underscore_target(void)
{
	return (fr_clock_fn)fr_next_interposer(fr_slot(FR_W_UNDERSCORE_NEXT), "__clock_gettime", (void *)libc_underscore);
}

/*
 * __clock_gettime's every clock but RAW: to underscore_target, another interposer's behind
 * fr_pass_call's bound and counted by FASTRAW_STATS as clock_gettime's counting wrapper counts
 * what it passes on. Out of line, so that RAW's path saves no register.
 */
static __attribute__((noinline)) int underscore_other(clockid_t clk, struct timespec *ts)
{
	fr_clock_fn f = underscore_target();

	if (f == libc_underscore)
		return libc_underscore(clk, ts);
	fr_stats_pass(clk);
	return fr_pass_call(f, clk, ts);
}

/* The body of __clock_gettime: RAW exactly as clock_gettime's (NULL included), every other clock by underscore_other. */
static int underscore_clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (clk != CLOCK_MONOTONIC_RAW)
		return underscore_other(clk, ts);
	return ts ? fr_raw_call(ts) : null_path(clk);
}

FR_EXPORT int __clock_gettime(clockid_t clk, struct timespec *ts) __attribute__((alias("underscore_clock_gettime")));
#endif

/*
 * Start-up's share that cannot wait for the first RAW read (startup/start.h), whose one walk of
 * the loader's list records the objects after ours (elf/nextsym.h). With that record, the next
 * definitions the exports chain to are found when first needed, by reading it (no walk, no lock,
 * no system call): a process that never calls them pays nothing for them. Without it, they are
 * found now (interpose/prime.h says why).
 */
static void __attribute__((constructor)) fr_ctor(void)
{
	fr_start();
	if (fr_chain_recorded())
		return;
	fr_pass_prime();
#if FR_HAS_TIME64
	fr_time32_prime();
#else
	underscore_target();
#endif
	fr_dl_prime();
	fr_syscall_prime();
}
