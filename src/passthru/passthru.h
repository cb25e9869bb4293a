/* SPDX-License-Identifier: MIT */
/* The pass-through target: the real vDSO's clock_gettime (or the system call). */
#ifndef FR_PASSTHRU_H
#define FR_PASSTHRU_H

#include <stdint.h>
#include <time.h>

#include "base/access.h"
#include "base/clockfn.h"
#include "base/hot.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * The pass-through target in the vDSO's convention (0 or -errno), resolving and publishing it
 * first if no one has yet: the real vDSO's clock_gettime, or the system call where the process
 * has no vDSO. Outside src/passthru/ the kernel's convention is reached only through this and
 * fr_passthrough_vdso; every export speaks libc's.
 */
fr_real_fn fr_real_get(void);

/*
 * A result in the vDSO's convention (0 or -errno), typed apart from libc's int (0, or -1 with
 * errno): a struct does not convert to or from an int, so it cannot be returned from a function
 * of libc's convention by mistake, nor be taken for one. fr_finish is the one way from it to
 * libc's. Small and inline everywhere, it costs no instruction.
 */
struct fr_kret {
	int err;
};

/* f(clk, ts) for f of the vDSO's convention (fr_real_fn), its result typed as such. */
static inline struct fr_kret fr_kcall(fr_real_fn f, clockid_t clk, struct timespec *ts)
{
	return (struct fr_kret){ f.call(clk, ts) };
}

/* The error half of fr_finish, out of line: errno = -err, and -1. */
int fr_fail(int err) __attribute__((cold));

/*
 * A vDSO-convention result in libc's: 0, or -1 with errno set. Inline with the error path out
 * of line, so that a caller's common path needs no saved register.
 */
static inline int fr_finish(struct fr_kret r)
{
	return FR_LIKELY(r.err == 0) ? 0 : fr_fail(r.err);
}

/*
 * libc's shape before this object is relocated: 0, or -1 with errno left as it was, for errno is
 * out of reach until the loader relocates us (elf/early.h). The one conversion of the early
 * branches, which only the exports and their tails take.
 */
static inline int fr_finish_unrelocated(struct fr_kret r)
{
	return r.err == 0 ? 0 : -1;
}

/*
 * clock_gettime through the real vDSO (or the system call), in the library's convention (0 or
 * -errno, errno untouched); counted by FASTRAW_STATS. What fr_vdso_clock_gettime passes on, and
 * what every internal caller asks.
 */
int fr_passthrough_vdso(clockid_t clk, struct timespec *ts);

/*
 * The same converted to libc's shape (fr_finish): the tail of an export only, reached by a tail
 * jump (the RAW entries' pass-through, syscall()'s served clocks), so that the export returns its
 * answer unchanged. Nothing else calls it (src/base/README.md, Errors).
 */
int fr_passthrough_libc(clockid_t clk, struct timespec *ts);

/*
 * clock_gettime in libc's shape for an object that is not relocated yet, the exports' and their
 * tails' early branch: the next clock_gettime in the chain (libc's own, found without our GOT),
 * whose answer is returned as it is, else the system call through fr_finish_unrelocated.
 */
int fr_early_clock_gettime(clockid_t clk, struct timespec *ts);

/*
 * fr_hot.pass (base/hot.h): where the exported clock_gettime sends every clock but RAW, in libc's
 * convention, reached by a tail jump: the next clock_gettime in the lookup chain when it is a
 * later interposer's. NULL when it is libc's own and the process has a vDSO: the caller then goes
 * to the vDSO itself (fr_vdso_libc in passthru/direct.h), which saves libc's wrapper and this
 * jump. Both start NULL, which needs no relocation: the first call finds fr_hot.direct NULL and
 * resolves the target (fr_pass_first) without dlsym or system calls (so before the constructor
 * and in signal handlers too), publishing fr_hot.pass or fr_hot.direct. With FASTRAW_STATS a
 * counting wrapper stands in front of the target; otherwise it costs nothing.
 */

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
 * The chain's next clock_gettime (fr_hot.pass's target without the counting wrapper), resolving it
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

/* FASTRAW_STATS: points fr_hot.pass at a wrapper that counts each call (fr_stats_pass) before its target. */
void fr_pass_count(void);

/* The kernel's clock_gettime through the syscall instruction: 0 or a negative errno. */
int fr_sys_clock_gettime(clockid_t clk, struct timespec *ts);

/* fr_sys_clock_gettime typed as what it is, a function of the vDSO's convention. */
static inline fr_real_fn fr_real_sys(void)
{
	return (fr_real_fn){ fr_sys_clock_gettime };
}

/*
 * The system call as the self-test's reference where the process had a vDSO and has unmapped it
 * since (startup/runtime.c): a function of its own, so that the self-test, which refuses the
 * system call where there never was a vDSO (fr_real_sys), tells the two apart.
 */
int fr_sys_clock_gettime_after_vdso(clockid_t clk, struct timespec *ts);

#pragma GCC visibility pop

#endif
