/* SPDX-License-Identifier: MIT */
/* The public API of include/fastraw.h: RAW as one integer, any served clock, counter ticks and their late conversion, the state. */
#include "fastraw.h"

#include <stddef.h>
#include <time.h>

#include "base/access.h"
#include "base/once.h"
#include "startup/runtime.h"
#include "startup/served.h"
#include "calib/calib_source.h"
#include "exact/convert.h"
#include "exact/fastpath.h"
#include "passthru/copies.h"
#include "arch/arch.h"
#include "elf/early.h"
#include "interpose/time32.h"
#include "base/export.h"

/* The real vDSO's answer, combined: the pass-through target of fastraw_now_ns. Its convention leaves errno alone. */
static int64_t now_pass(void)
{
	struct timespec ts;

	if (fr_passthrough_vdso(CLOCK_MONOTONIC_RAW, &ts) != 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A later copy of the library (passthru/copies.h) decides nothing: the first copy's API answers
 * for it. The first copy's definition of the export at index i, found once; NULL when this is
 * not a later copy (s NULL: another thread is publishing) or the first copy lacks it.
 */
enum { FIRST_NOW, FIRST_TICKS, FIRST_TO_NS, FIRST_INFO, FIRST_CLOCK, FIRST_N };

/*
 * The API's copies of the published decision (runtime.h's fr_state), read by one load on every
 * call as the hot path's words (base/hot.h): fastraw_now_ns's entry (fr_state.now; NULL until the
 * first call after relocation), and fastraw_ticks's counter mode (-1 before; racing writers
 * store the same value); and the first copy's exports, found once (first_copy).
 */
static struct {
	fr_now_fn now;
	int ticks_mode;
	void *first[FIRST_N];
} api = { .ticks_mode = -1 };

static void *first_copy(const struct fr_state *s, int i)
{
	static const char *const names[FIRST_N] = { "fastraw_now_ns", "fastraw_ticks", "fastraw_ticks_to_ns",
						     "fastraw_info", "fastraw_clock_gettime" };

	return s && s->later_copy ? fr_copy_first_cached(&api.first[i], names[i]) : NULL;
}

static __attribute__((noinline, cold)) int64_t now_init(void)
{
	const struct fr_state *s;
	fr_now_fn f;
	struct timespec ts;

	if (!fr_relocated())
		return fr_early_clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0 ?
			       (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec : -1;
	s = fr_state_get();
	/* Another thread is publishing: this call goes to the real vDSO. */
	if (!s)
		return now_pass();
	if (s->later_copy) {
		if (!(f = (fr_now_fn)first_copy(s, FIRST_NOW)))
			return now_pass();
	} else {
		f = s->now ? s->now : now_pass;
	}
	/* The published state made fr_kd visible (its acquire load); racers store the same entry. */
	return ((fr_now_fn)fr_once_put((void **)&api.now, (void *)f))();
}

FR_EXPORT int64_t fastraw_now_ns(void)
{
	fr_now_fn f = __atomic_load_n(&api.now, __ATOMIC_ACQUIRE);

	return FR_LIKELY(f != NULL) ? f() : now_init();
}

/* The header declares the id as an int, which needs no POSIX feature macro: clockid_t is one on Linux. */
_Static_assert(sizeof(clockid_t) == sizeof(int) && (clockid_t)-1 < 0, "clockid_t is an int");

/*
 * fastraw_clock_gettime for every call but a RAW one with a timespec. Before relocation, the
 * next clock_gettime in the chain (as every export then); a NULL timespec gets the kernel's own
 * answer (EFAULT, or EINVAL for a bad id); a later copy asks the first copy; a served clock is
 * read from the page; everything else, and what the page cannot answer exactly, is the vDSO's
 * (or the system call's) answer, as fastraw_now_ns passes on.
 */
static __attribute__((noinline)) int clock_other(int clk, struct timespec *ts)
{
	const struct fr_state *s;
	int (*first)(int, struct timespec *);

	if (!fr_relocated())
		return fr_early_clock_gettime(clk, ts);
	if (!ts)
		return fr_finish(fr_kcall(fr_real_sys(), clk, NULL));
	/* Initialises if no one has, as the other calls do: FASTRAW_CLOCKS's readers are published then. */
	s = fr_state_get();
	if ((first = (int (*)(int, struct timespec *))first_copy(s, FIRST_CLOCK)))
		return first(clk, ts);
	return fr_served_libc(clk, ts);
}

/* fastraw_clock_gettime's body, inline in each export (an exported name is called through the PLT). */
static inline int clock_gettime_api(int clk, struct timespec *ts)
{
	/* RAW's own entry, as the exported clock_gettime takes it (it initialises on first use). */
	if (FR_LIKELY(clk == CLOCK_MONOTONIC_RAW && ts != NULL))
		return fr_raw_call(ts);
	return clock_other(clk, ts);
}

FR_EXPORT int fastraw_clock_gettime(int clk, struct timespec *ts)
{
	return clock_gettime_api(clk, ts);
}

#if FR_HAS_TIME64
/*
 * fastraw_clock_gettime for a program built with a 32-bit time_t, which fastraw.h sends here (as
 * glibc's <time.h> sends a 64-bit-time program's clock_gettime to __clock_gettime64): the
 * 64-bit answer converted as glibc's 32-bit clock_gettime converts it.
 */
FR_EXPORT int fastraw_clock_gettime32(int clk, struct fr_timespec32 *ts32);

FR_EXPORT int fastraw_clock_gettime32(int clk, struct fr_timespec32 *ts32)
{
	struct timespec ts;
	int ret = clock_gettime_api(clk, ts32 ? &ts : NULL);

	if (ret != 0 || !ts32)
		return ret;
	return fr_ts32_finish((struct fr_kret){ 0 }, &ts, ts32);
}
#endif

static __attribute__((noinline)) uint64_t ticks_first(void)
{
	const struct fr_state *s;
	uint64_t (*first)(void);

	if (!fr_relocated())
		return fr_arch_counter_fenced();
	s = fr_state_get();
	/* A later copy reads the first copy's counter, whichever that chose: every call comes here. */
	if ((first = (uint64_t(*)(void))first_copy(s, FIRST_TICKS)))
		return first();
	/* The fenced read exists on every CPU of the architecture; it stands in while another thread publishes. */
	if (!s || s->later_copy)
		return fr_arch_counter_fenced();
	__atomic_store_n(&api.ticks_mode, (int)s->st.counter, __ATOMIC_RELAXED);
	return fr_counter_for(s->st.counter)();
}

FR_EXPORT uint64_t fastraw_ticks(void)
{
	int mode = __atomic_load_n(&api.ticks_mode, __ATOMIC_RELAXED);

	if (FR_LIKELY(mode == FR_CTR_FENCED))
		return fr_arch_counter_fenced();
	if (mode == FR_CTR_UNORDERED)
		return fr_arch_counter_unordered();
	/* Only the probe's choice stores FR_CTR_ORDERED: never reached on a CPU without it. */
	if (mode == FR_CTR_ORDERED)
		return fr_arch_counter_ordered();
	return ticks_first();
}

/* The decision, after running initialisation if no one has; NULL in a later copy and while another thread publishes it. */
static const struct fr_status *status(const struct fr_state *s)
{
	return s && !s->later_copy ? &s->st : NULL;
}

FR_EXPORT int64_t fastraw_ticks_to_ns(uint64_t ticks)
{
	const struct fr_state *s = fr_state_get();
	const struct fr_status *st = status(s);
	int64_t (*first)(uint64_t);
	int64_t ns;

	if ((first = (int64_t(*)(uint64_t))first_copy(s, FIRST_TO_NS)))
		return first(ticks);
	if (!st || !st->active || fr_ticks_to_ns(&fr_kd, ticks, &ns) != FR_OK)
		return -1;
	return ns;
}

/* Where a field of struct fastraw_info ends. */
#define INFO_END(f) (offsetof(struct fastraw_info, f) + sizeof(((struct fastraw_info *)0)->f))

/*
 * The bytes filled for a caller's size: up to the end of the last field that fits whole, so a
 * size that ends inside a field (or inside the padding after active) never gets part of a
 * pointer. 0 when not even size and active fit.
 */
static size_t info_fill(size_t size)
{
	static const size_t ends[] = {
		INFO_END(era_note), INFO_END(source),     INFO_END(reason), INFO_END(counter),
		INFO_END(clock_mode), INFO_END(era), INFO_END(kernel), INFO_END(active),
	};

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (size >= ends[i])
			return ends[i];
	return 0;
}

FR_EXPORT int fastraw_info(struct fastraw_info *info)
{
	const struct fr_state *s;
	const struct fr_status *st;
	struct fastraw_info full;
	int (*first)(struct fastraw_info *);
	size_t n;

	if (!info || !(n = info_fill(info->size)))
		return -1;
	s = fr_state_get();
	st = status(s);
	if ((first = (int (*)(struct fastraw_info *))first_copy(s, FIRST_INFO)))
		return first(info);
	if (!st)
		return -1;
	full.size = n;
	full.kernel = st->release ? st->release : "?";
	full.era = st->pick.era;
	full.clock_mode = st->mode < 0 ? "unknown" : fr_mode_name(st->mode);
	full.counter = fr_counter_name(st->counter);
	full.reason = st->active || st->calibrated ? "active" : st->reason;
	full.active = st->active || st->calibrated;
	full.source = st->active ? "kernel" : st->calibrated ? "calibrated" : "none";
	full.era_note = st->pick.assumed ? st->pick.note : "";
	__builtin_memcpy(info, &full, n);
	return 0;
}
