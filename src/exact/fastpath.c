/* SPDX-License-Identifier: MIT */
/* The fast path instantiated per counter read and era rules, each with its constants inlined. */
#include "exact/fastpath.h"

#include "passthru/passthru.h"

static uint64_t ctr_unordered(void)
{
	return fr_arch_counter_unordered();
}

static uint64_t ctr_fenced(void)
{
	return fr_arch_counter_fenced();
}

static uint64_t ctr_ordered(void)
{
	return fr_arch_counter_ordered();
}

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
 * One reader pair: raw answers in libc's convention and its general path, out of line
 * (raw_general), passes the call through when it cannot answer; now gives the same reading as
 * one integer of nanoseconds (fastraw_now_ns), -1 where raw would pass. The names are written
 * out in full below, so that a name perf or gdb shows is found by grep; the general paths are
 * the same names with _general appended.
 */
#define FR_READERS(raw, now, rules_, fs_, ctr)                                                          \
	static __attribute__((noinline, cold)) int raw##_general(void *ts)                                \
	{                                                                                                 \
		const struct fr_read r = { .kd = &fr_kd, .rules = rules_, .fs = fs_, .counter = ctr_##ctr,   \
					   .unordered = FR_UNORDERED_##ctr };                             \
                                                                                                          \
		if (fr_raw_read_general(&r, rules_, ts) == FR_OK)                                         \
			return 0;                                                                         \
		return fr_passthrough(CLOCK_MONOTONIC_RAW, ts);                                           \
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
		int ret = raw##_general(&ts);                                                             \
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

/* Which counter read is the unordered one, for FR_READERS's ctr argument. */
#define FR_UNORDERED_unordered 1
#define FR_UNORDERED_fenced 0
#define FR_UNORDERED_ordered 0

/* One row of the tables below: an era's three readers, one per counter read. */
#define FR_ROW(rules_, ordered, fenced, unordered) \
	[rules_] = { [FR_CTR_ORDERED] = ordered, [FR_CTR_FENCED] = fenced, [FR_CTR_UNORDERED] = unordered }

/*
 * Each architecture builds only its own rules: x86's three eras, or the generic masked delta.
 * Indexed by [rules][counter mode]; each era's rules go with its own field shift (kdata eras).
 */
#if FR_ARCH_DELTA_MASKED
FR_READERS(raw_masked_unordered, now_masked_unordered, FR_RULES_MASKED, 0, unordered)
FR_READERS(raw_masked_fenced, now_masked_fenced, FR_RULES_MASKED, 0, fenced)
FR_READERS(raw_masked_ordered, now_masked_ordered, FR_RULES_MASKED, 0, ordered)

static const fr_raw_fn instances[FR_RULES_COUNT][FR_CTR_MODES] = {
	FR_ROW(FR_RULES_MASKED, raw_masked_ordered, raw_masked_fenced, raw_masked_unordered),
};
static const fr_now_fn now_instances[FR_RULES_COUNT][FR_CTR_MODES] = {
	FR_ROW(FR_RULES_MASKED, now_masked_ordered, now_masked_fenced, now_masked_unordered),
};

/* The masked rule has no max_cycles: only field shift 0 pairs with it. */
static int pairing_ok(const struct fr_layout *lay)
{
	return lay->rules == FR_RULES_MASKED && lay->field_shift == 0;
}
#else
FR_READERS(raw_53_unordered, now_53_unordered, FR_RULES_5_3, 0, unordered)
FR_READERS(raw_53_fenced, now_53_fenced, FR_RULES_5_3, 0, fenced)
FR_READERS(raw_53_ordered, now_53_ordered, FR_RULES_5_3, 0, ordered)
FR_READERS(raw_65_unordered, now_65_unordered, FR_RULES_6_5, 0, unordered)
FR_READERS(raw_65_fenced, now_65_fenced, FR_RULES_6_5, 0, fenced)
FR_READERS(raw_65_ordered, now_65_ordered, FR_RULES_6_5, 0, ordered)
FR_READERS(raw_610_unordered, now_610_unordered, FR_RULES_6_10, 8, unordered)
FR_READERS(raw_610_fenced, now_610_fenced, FR_RULES_6_10, 8, fenced)
FR_READERS(raw_610_ordered, now_610_ordered, FR_RULES_6_10, 8, ordered)

static const fr_raw_fn instances[FR_RULES_COUNT][FR_CTR_MODES] = {
	FR_ROW(FR_RULES_5_3, raw_53_ordered, raw_53_fenced, raw_53_unordered),
	FR_ROW(FR_RULES_6_5, raw_65_ordered, raw_65_fenced, raw_65_unordered),
	FR_ROW(FR_RULES_6_10, raw_610_ordered, raw_610_fenced, raw_610_unordered),
};

static const fr_now_fn now_instances[FR_RULES_COUNT][FR_CTR_MODES] = {
	FR_ROW(FR_RULES_5_3, now_53_ordered, now_53_fenced, now_53_unordered),
	FR_ROW(FR_RULES_6_5, now_65_ordered, now_65_fenced, now_65_unordered),
	FR_ROW(FR_RULES_6_10, now_610_ordered, now_610_fenced, now_610_unordered),
};

/* The instances bake in max_cycles exactly for the 6.10+ rules; any other pairing is refused. */
static int pairing_ok(const struct fr_layout *lay)
{
	return lay->rules != FR_RULES_MASKED && (lay->rules == FR_RULES_6_10) == (lay->field_shift == 8);
}
#endif

fr_raw_fn fr_raw_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return pairing_ok(lay) ? instances[lay->rules][mode] : NULL;
}

fr_now_fn fr_now_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return pairing_ok(lay) ? now_instances[lay->rules][mode] : NULL;
}
