/* SPDX-License-Identifier: MIT */
/* The public API of include/fastraw.h: RAW as one integer, counter ticks and their late conversion, the state. */
#include "fastraw.h"

#include <errno.h>
#include <stddef.h>

#include "base/access.h"
#include "startup/runtime.h"
#include "calib/calib_source.h"
#include "exact/convert.h"
#include "exact/fastpath.h"
#include "passthru/copies.h"
#include "arch/arch.h"
#include "elf/early.h"
#include "base/export.h"

/* The real vDSO's answer, combined: the pass-through target of fastraw_now_ns. */
static int64_t now_pass(void)
{
	struct timespec ts;
	int saved = errno;
	int64_t ns = -1;

	if (fr_passthrough(CLOCK_MONOTONIC_RAW, &ts) == 0)
		ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	errno = saved;
	return ns;
}

/* NULL until the first call after relocation publishes the entry initialisation chose. */
static fr_now_fn now_fn;

/*
 * A later copy of the library (passthru/copies.h) publishes no state: the first copy's API answers
 * for it. NULL in the first copy.
 */
static void *first_now, *first_ticks, *first_to_ns, *first_info;

static __attribute__((noinline, cold)) int64_t now_init(void)
{
	const struct fr_status *st;
	fr_now_fn f = NULL, expected = NULL;
	struct timespec ts;

	if (!fr_relocated())
		return fr_early_clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0 ?
			       (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec : -1;
	fr_init();
	st = fr_status_get();
	/*
	 * No status in a later copy of the library: the first copy's function. The status is
	 * published after fr_kd is written: its acquire load makes fr_kd visible.
	 */
	if (!st)
		f = (fr_now_fn)fr_copy_first_cached(&first_now, "fastraw_now_ns");
	else if (st->active)
		f = fr_now_for(fr_kd.lay, st->counter);
	else if (st->calibrated)
		f = fr_cal_now_for(st->counter);
	/* Otherwise another thread is publishing: this call goes to the real vDSO. */
	if (!st && !f)
		return now_pass();
	if (!f)
		f = now_pass;
	__atomic_compare_exchange_n(&now_fn, &expected, f, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	return f();
}

FR_EXPORT int64_t fastraw_now_ns(void)
{
	fr_now_fn f = __atomic_load_n(&now_fn, __ATOMIC_ACQUIRE);

	return FR_LIKELY(f != NULL) ? f() : now_init();
}

/* The counter mode once known; -1 before. Racing writers store the same value. */
static int ticks_mode = -1;

static __attribute__((noinline)) uint64_t ticks_first(void)
{
	const struct fr_status *st;
	uint64_t (*first)(void);

	if (!fr_relocated())
		return fr_arch_counter_fenced();
	fr_init();
	st = fr_status_get();
	/* A later copy reads the first copy's counter, whichever that chose: every call comes here. */
	if (!st && (first = (uint64_t(*)(void))fr_copy_first_cached(&first_ticks, "fastraw_ticks")))
		return first();
	/* The fenced read exists on every CPU of the architecture; it stands in while another thread publishes. */
	if (!st)
		return fr_arch_counter_fenced();
	__atomic_store_n(&ticks_mode, (int)st->counter, __ATOMIC_RELAXED);
	return fr_counter_for(st->counter)();
}

FR_EXPORT uint64_t fastraw_ticks(void)
{
	int mode = __atomic_load_n(&ticks_mode, __ATOMIC_RELAXED);

	if (FR_LIKELY(mode == FR_CTR_FENCED))
		return fr_arch_counter_fenced();
	if (mode == FR_CTR_UNORDERED)
		return fr_arch_counter_unordered();
	/* Only the probe's choice stores FR_CTR_ORDERED: never reached on a CPU without it. */
	if (mode == FR_CTR_ORDERED)
		return fr_arch_counter_ordered();
	return ticks_first();
}

/* The decision, after running initialisation if no one has; NULL while another thread publishes it. */
static const struct fr_status *status(void)
{
	const struct fr_status *st = fr_status_get();

	if (FR_LIKELY(st != NULL))
		return st;
	fr_init();
	return fr_status_get();
}

FR_EXPORT int64_t fastraw_ticks_to_ns(uint64_t ticks)
{
	const struct fr_status *st = status();
	int64_t (*first)(uint64_t);
	int64_t ns;

	if (!st && (first = (int64_t(*)(uint64_t))fr_copy_first_cached(&first_to_ns, "fastraw_ticks_to_ns")))
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
	const struct fr_status *st;
	struct fastraw_info full;
	int (*first)(struct fastraw_info *);
	size_t n;

	if (!info || !(n = info_fill(info->size)))
		return -1;
	st = status();
	if (!st && (first = (int (*)(struct fastraw_info *))fr_copy_first_cached(&first_info, "fastraw_info")))
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
