/* SPDX-License-Identifier: MIT */
/* The fast path instantiated per counter read and era rules, each with its constants inlined. */
#include "exact/fastpath.h"

#include "passthru/passthru.h"

#include "exact/counters.h"

int fr_raw_read_general_with(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts)
{
	const struct fr_read r = { .kd = kd, .rules = kd->lay->rules, .fs = kd->lay->field_shift, .counter = counter };

	return fr_raw_read_general(&r, r.rules, ts);
}

/* With no general reading in r, the fast one hands its fallback back here, with kd and counter. */
int fr_raw_read_with(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts)
{
	const struct fr_read r = {
		.kd = kd, .rules = kd->lay->rules, .fs = kd->lay->field_shift, .counter = counter, .emit = fr_emit_ts
	};
	int ret = fr_raw_read_fast(&r, ts);

	return ret == FR_GENERAL ? fr_raw_read_general_with(kd, counter, ts) : ret;
}

fr_counter_fn fr_counter_for(enum fr_counter_mode mode)
{
	return mode == FR_CTR_ORDERED ? ctr_ordered : mode == FR_CTR_UNORDERED ? ctr_unordered : ctr_fenced;
}

/* The pages found at initialisation; written before the function pointer that reads them is published. */
struct fr_kdata fr_kd;

/*
 * One reader pair: raw answers in libc's shape, the tail of the exported clock_gettime (which
 * jumps to it), and its general path, out of line (raw_general), passes the call through when it
 * cannot answer; now gives the same reading as one integer of nanoseconds (fastraw_now_ns), -1
 * where raw would pass. Both fall back on raw_read_general, in the library's convention (0 or
 * -errno, errno untouched), which only raw_general converts to libc's. The names are written out
 * in full below, so that a name perf or gdb shows is found by grep; the general paths are the
 * same names with _general appended.
 */
#define FR_READERS(raw, now, rules_, fs_, ctr)                                                          \
	static __attribute__((noinline, cold)) int raw##_read_general(struct timespec *ts)                \
	{                                                                                                 \
		const struct fr_read r = { .kd = &fr_kd, .rules = rules_, .fs = fs_, .counter = ctr_##ctr,   \
					   .unordered = FR_UNORDERED_##ctr };                             \
                                                                                                          \
		if (fr_raw_read_general(&r, rules_, ts) == FR_OK)                                         \
			return 0;                                                                         \
		return fr_passthrough_vdso(CLOCK_MONOTONIC_RAW, ts);                                      \
	}                                                                                                 \
	static __attribute__((noinline, cold)) int raw##_general(void *ts)                                \
	{                                                                                                 \
		return fr_finish((struct fr_kret){ raw##_read_general(ts) });                             \
	}                                                                                                 \
	static int raw(struct timespec *ts)                                                               \
	{                                                                                                 \
		const struct fr_read r = { .kd = &fr_kd,                                                  \
					   .rules = rules_,                                               \
					   .fs = fs_,                                                     \
					   .counter = ctr_##ctr,                                          \
					   .general = raw##_general,                                      \
					   .emit = fr_emit_ts,                                            \
					   .unordered = FR_UNORDERED_##ctr };                             \
                                                                                                          \
		return fr_raw_read_fast(&r, ts);                                                          \
	}                                                                                                 \
	static __attribute__((noinline, cold)) int now##_general(void *ns)                                \
	{                                                                                                 \
		struct timespec ts;                                                                       \
		int ret = raw##_read_general(&ts);                                                        \
                                                                                                          \
		*(int64_t *)ns = ret ? -1 : (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;                 \
		return ret;                                                                               \
	}                                                                                                 \
	static int64_t now(void)                                                                          \
	{                                                                                                 \
		const struct fr_read r = { .kd = &fr_kd,                                                  \
					   .rules = rules_,                                               \
					   .fs = fs_,                                                     \
					   .counter = ctr_##ctr,                                          \
					   .general = now##_general,                                      \
					   .emit = fr_emit_ns,                                            \
					   .unordered = FR_UNORDERED_##ctr };                             \
		int64_t ns;                                                                               \
                                                                                                          \
		fr_raw_read_fast(&r, &ns);                                                                \
		return ns;                                                                                \
	}

/*
 * Each architecture builds only its own readers, those its eras use, each with the field shift
 * its eras have (FR_ARCH_READERS, arch/<cpu>/abi.h, where every name is written out): x86's
 * three rules, or the generic masked delta. Indexed by [rules][counter mode].
 */
FR_ARCH_READERS(FR_READERS)

#define FR_CELL_RAW(raw, now, rules_, fs_, ctr) [rules_][FR_CTR_INDEX_##ctr] = raw,
#define FR_CELL_NOW(raw, now, rules_, fs_, ctr) [rules_][FR_CTR_INDEX_##ctr] = now,
static const fr_raw_fn instances[FR_RULES_COUNT][FR_CTR_MODES] = { FR_ARCH_READERS(FR_CELL_RAW) };
static const fr_now_fn now_instances[FR_RULES_COUNT][FR_CTR_MODES] = { FR_ARCH_READERS(FR_CELL_NOW) };

fr_raw_fn fr_raw_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return fr_pairing_ok(lay) ? instances[lay->rules][mode] : NULL;
}

fr_now_fn fr_now_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return fr_pairing_ok(lay) ? now_instances[lay->rules][mode] : NULL;
}
