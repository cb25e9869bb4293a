/* SPDX-License-Identifier: MIT */
/* The pass-through target: the real vDSO's clock_gettime (or the system call). */
#ifndef FR_PASSTHRU_H
#define FR_PASSTHRU_H

#include <stdint.h>
#include <time.h>

#include "base/access.h"
#include "base/clockfn.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Starts at an init trampoline that resolves the real vDSO and swaps itself out on first use.
 * Declared hidden: -fvisibility=hidden covers definitions only, and without it every other
 * file would load the pointer through the GOT, one more load on each pass-through call.
 */
extern fr_real_fn fr_real __attribute__((visibility("hidden")));

/* The pass-through target, resolving and publishing it first if no one has yet. */
fr_real_fn fr_real_get(void);

/* The error half of fr_finish, out of line: errno = -ret, and -1. */
int fr_fail(int ret) __attribute__((cold));

/*
 * A vDSO-convention result (0 or -errno) in libc's: 0, or -1 with errno set. Inline with the
 * error path out of line, so that a caller's common path needs no saved register.
 */
static inline int fr_finish(int ret)
{
	return FR_LIKELY(ret == 0) ? 0 : fr_fail(ret);
}

/* clock_gettime through the real vDSO (or the system call), in libc's convention; counted by FASTRAW_STATS. */
int fr_passthrough(clockid_t clk, struct timespec *ts);

/*
 * The clocks the vDSO answers itself and for which its answer is 0: REALTIME, MONOTONIC, their
 * COARSE variants, BOOTTIME and TAI are always valid ids, so the only failure left is a bad
 * pointer, and the vDSO writes through it itself (a fault there is a fault under libc's own as
 * well). For these the vDSO's convention is libc's, and the call is a tail jump into the vDSO.
 * The one difference: while the clocksource is one the vDSO cannot read (it then makes the
 * system call), a bad pointer gets -EFAULT returned instead of -1 and errno (README, Guarantees).
 */
#define FR_ALWAYS_ZERO ((1u << CLOCK_REALTIME) | (1u << CLOCK_MONOTONIC) | (1u << CLOCK_REALTIME_COARSE) | \
			(1u << CLOCK_MONOTONIC_COARSE) | (1u << CLOCK_BOOTTIME) | (1u << CLOCK_TAI))

static inline int fr_vdso_answers_zero(clockid_t clk)
{
	return (unsigned)clk < 32 && (FR_ALWAYS_ZERO >> clk) & 1;
}

/*
 * The vDSO with libc's convention put on top: what libc's own clock_gettime does, one call and
 * one jump closer. For the clocks of fr_vdso_answers_zero the conventions agree, and the call
 * is a tail jump into the vDSO.
 */
extern fr_real_fn fr_direct __attribute__((visibility("hidden")));

/*
 * The first pass-through call (fr_pass and fr_direct both NULL): resolves where the chain goes,
 * publishes it and makes the call. Before this object is relocated it resolves nothing of ours
 * and calls the next clock_gettime in the chain (fr_early_clock_gettime).
 */
int fr_pass_first(clockid_t clk, struct timespec *ts) __attribute__((cold, noinline));

/*
 * clock_gettime in libc's convention for an object that is not relocated yet: the next
 * clock_gettime in the chain (libc's own, found without our GOT), else the system call, whose
 * error then comes back as -1 without errno (errno is out of reach before relocation).
 */
int fr_early_clock_gettime(clockid_t clk, struct timespec *ts);

static inline int fr_vdso_libc(clockid_t clk, struct timespec *ts)
{
	fr_real_fn real = __atomic_load_n(&fr_direct, __ATOMIC_ACQUIRE);

	if (FR_UNLIKELY(!real))
		return fr_pass_first(clk, ts);
	if (fr_vdso_answers_zero(clk))
		return real(clk, ts);
	return fr_finish(real(clk, ts));
}

/*
 * Where the exported clock_gettime sends every clock but RAW, in libc's convention, reached by a
 * tail jump: the next clock_gettime in the lookup chain when it is a later interposer's. NULL
 * when it is libc's own and the process has a vDSO: the caller then goes to the vDSO itself
 * (fr_vdso_libc, through fr_direct), which saves libc's wrapper and this jump. Both start NULL,
 * which needs no relocation: the first call finds fr_direct NULL and resolves the target
 * (fr_pass_first) without dlsym or system calls (so before the constructor and in signal
 * handlers too), publishing fr_pass or fr_direct. With FASTRAW_STATS a counting wrapper stands
 * in front of the target; otherwise it costs nothing.
 */
extern fr_clock_fn fr_pass __attribute__((visibility("hidden")));

/*
 * f(clk, ts), f a clock_gettime of libc's convention outside this object, unless this thread
 * already has FR_DEPTH_MAX such calls under way inside each other (passthru/depth.h): a
 * definition after ours that leads back here is then answered by the system call, and
 * FASTRAW_DEBUG says so once. Every call from here to another object's clock_gettime goes
 * through it.
 */
int fr_pass_call(fr_clock_fn f, clockid_t clk, struct timespec *ts);

/* The next clock_gettime in the chain after this object, whoever's (libc's own included), cached; NULL if none. */
fr_clock_fn fr_pass_next(void);

/*
 * The chain's next clock_gettime (fr_pass's target without the counting wrapper), resolving it
 * if need be: a later interposer's behind fr_pass_call's bound, else libc's own.
 */
fr_clock_fn fr_pass_target(void);

/* The chain's next clock_gettime when it is another interposer's, NULL when it is libc's own (or none). */
fr_clock_fn fr_pass_interposer(void);

/*
 * Resolves and publishes the pass-through target as the first call would, without making one.
 * The constructor calls it, so that no later first call walks the loader's list: that walk
 * takes the loader's lock, on which a child forked while another thread held it would wait
 * forever, as would a signal handler that interrupted its own thread inside it.
 */
void fr_pass_prime(void);

/* FASTRAW_STATS: points fr_pass at a wrapper that counts each call (fr_stats_pass) before its target. */
void fr_pass_count(void);


/* The kernel's clock_gettime through the syscall instruction: 0 or a negative errno. */
int fr_sys_clock_gettime(clockid_t clk, struct timespec *ts);

#pragma GCC visibility pop

#endif
