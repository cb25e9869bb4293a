/* SPDX-License-Identifier: MIT */
/* Process-wide state: lazy lock-free initialisation, the chosen fast path and the pass-through target. */
#ifndef FR_RUNTIME_H
#define FR_RUNTIME_H

#include <stdint.h>
#include <sys/utsname.h>
#include <time.h>

#include "base/access.h"
#include "kdata/kdata.h"
#include "startup/locate.h"
#include "arch/arch.h"
#include "passthru/passthru.h"
#include "proc/env.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * RAW while fr_hot.raw is NULL: before relocation the next clock_gettime in the chain; after it,
 * initialisation, then the entry it chose.
 */
int fr_raw_first(struct timespec *ts) __attribute__((cold, noinline));

/* clock_gettime(CLOCK_MONOTONIC_RAW, ts) in libc's convention, by whatever serves it now. */
static inline int fr_raw_call(struct timespec *ts)
{
	fr_raw_fn f = __atomic_load_n(&fr_hot.raw, __ATOMIC_ACQUIRE);

	if (FR_UNLIKELY(!f))
		return fr_raw_first(ts);
	return f(ts);
}

/*
 * clock_gettime with the vDSO's convention (0 or -errno, errno untouched): RAW takes the fast
 * path, the rest fr_passthrough_vdso.
 */
int fr_vdso_clock_gettime(clockid_t clk, struct timespec *ts);

/*
 * What lookups that land in the vDSO get instead of __vdso_clock_gettime (the dlsym interposer,
 * the shadow image): fr_vdso_clock_gettime, or, once FASTRAW_CLOCKS's clocks are served (start-up
 * publishes them in the constructor), an entry that serves them too (fr_served_vdso). Chosen at
 * the lookup, so that by default the entry is the one it always was; a lookup made before the
 * constructor gets RAW alone.
 */
fr_real_fn fr_vdso_entry(void);

/* The exported clock_gettime's body (interpose.c), in libc's convention. */
int fr_clock_gettime(clockid_t clk, struct timespec *ts);

/* What initialisation decided, for FASTRAW_DEBUG and the tools. */
struct fr_status {
	const char *release;           /* kernel release (uname) */
	struct fr_pick pick;           /* the layout (pick.era: its name, or "none"), assumed or not, and why */
	int mode;                      /* clock mode of the RAW entry at start, -1 if unknown */
	enum fr_counter_mode counter;  /* counter read in use */
	int active;                    /* fast path serves RAW from the kernel's data */
	const char *reason;            /* why not, when !active */
	int calibrated;                /* calibrated mode serves RAW (then !active) */
	const char *cal_note;          /* calibrated: the seed; otherwise why not, or NULL if not tried */
	unsigned clocks_wanted;        /* FASTRAW_CLOCKS as clock-id bits (RAW's always set) */
	unsigned clocks;               /* the other clocks served from the kernel's page (startup/served.h) */
	const char *clocks_why;        /* why those wanted are not served, or NULL */
};

/*
 * FASTRAW_*, read once from the environment the process started with (the initial stack's, not
 * environ as it is now) by the constructor, before main, and never again: clearenv, putenv and
 * setenv change nothing here. The kept configuration, or scratch filled with the same when
 * another caller is parsing it this instant.
 */
const struct fr_env *fr_env_get(struct fr_env *scratch);

/* Runs initialisation if no one has yet; safe from constructors, signal handlers and threads. */
void fr_init(void);

/*
 * fr_init, deciding as if uname said release (kept, not copied): an internal entry for the tools
 * alone, reached only through interpose/tools.h's fr_tool_decide (fastraw-info --release), never
 * from the preloaded library. The release travels as an argument, no state is set for it. Only
 * the first initialisation of a process decides.
 */
void fr_init_release(const char *release);

/*
 * Everything start-up decided, immutable once published: built on the initialiser's stack and
 * in one static record, published by one release store (base/once.h), read by every export,
 * the API and syscall(). The hot path reads copies derived from it, written by the initialiser
 * before the publication: the fields of fr_hot (base/hot.h: the RAW entry, the served clocks,
 * syscall()'s words, the debug and stats flags), fr_kd (exact/fastpath.h), the API's own.
 */
struct fr_state {
	int later_copy;         /* a copy of the library ahead of this one answers for it (passthru/copies.h) */
	int syscall_mode;       /* FASTRAW_SYSCALL as syscall()'s stub reads it (arch/stubs.h); UNKNOWN: not decided here */
	fr_raw_fn raw;          /* the RAW entry, fr_hot.raw's value */
	fr_now_fn now;          /* fastraw_now_ns's entry; NULL: the real vDSO's answer */
	struct fr_status st;    /* the decision (meaningless in a later copy) */
	struct utsname uts;     /* uname's answer, which st.release points into */
	struct fr_env env;      /* the configuration read once from the starting environment (debug, stats, source, clocks) */
	struct fr_kdata kd;     /* the kernel's pages found; fr_kd (exact/fastpath.h) is the readers' copy */
};

/* The decisions once published; NULL before, and while another thread publishes them. */
const struct fr_state *fr_state_published(void);

/* The decisions, after running initialisation if no one has; NULL while another thread publishes them. */
const struct fr_state *fr_state_get(void);

/*
 * FASTRAW_SYSCALL as syscall()'s stub reads it (arch/stubs.h), FR_RAW_MODE_ON when
 * syscall(SYS_clock_gettime, CLOCK_MONOTONIC_RAW, ...) may take the fast path: FASTRAW_SYSCALL=1
 * and not FASTRAW_DISABLE=1. The published decision's, or else read from the environment (no
 * system call, no initialisation). Only after relocation (the environment is out of reach
 * before it): syscall()'s stub asks only then.
 */
int fr_syscall_mode(void);

/* The decision, once initialisation has published it; NULL before, and in a later copy. */
const struct fr_status *fr_status_get(void);

#pragma GCC visibility pop

#endif
