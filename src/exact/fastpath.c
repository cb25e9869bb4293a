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

static int general_with(const struct fr_kdata *kd, fr_counter_fn counter, void *ts)
{
	return fr_raw_read_general_with(kd, counter, ts);
}

int fr_raw_read_with(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts)
{
	const struct fr_read r = { .kd = kd,
				   .rules = kd->lay->rules,
				   .fs = kd->lay->field_shift,
				   .counter = counter,
				   .general = general_with,
				   .emit = fr_emit_ts };

	return fr_raw_read_fast(&r, ts);
}

fr_counter_fn fr_counter_for(enum fr_counter_mode mode)
{
	return mode == FR_CTR_ORDERED ? ctr_ordered : mode == FR_CTR_UNORDERED ? ctr_unordered : ctr_fenced;
}

/* The pages found at initialisation; written before the function pointer that reads them is published. */
struct fr_kdata fr_kd;

/*
 * An instance answers in libc's convention; its general path, out of line, ignores the counter
 * argument (its own read is inlined) and passes the call through when it cannot answer. Its
 * twin now_* gives the same reading as one integer of nanoseconds (fastraw_now_ns).
 */
#define FR_INSTANCE(rules_, fs_, ctr)                                                                 \
	static __attribute__((noinline, cold)) int general_##rules_##_##ctr(                        \
		const struct fr_kdata *kd, fr_counter_fn counter, void *ts)                           \
	{                                                                                             \
		const struct fr_read r = { .kd = kd, .rules = rules_, .fs = fs_, .counter = ctr_##ctr }; \
                                                                                                      \
		if (fr_raw_read_general(&r, rules_, ts) == FR_OK)                                             \
			return 0;                                                                     \
		return fr_passthrough(CLOCK_MONOTONIC_RAW, ts);                                       \
	}                                                                                             \
	static int raw_##rules_##_##ctr(struct timespec *ts)                                          \
	{                                                                                             \
		const struct fr_read r = { .kd = &fr_kd,                                              \
					   .rules = rules_,                                           \
					   .fs = fs_,                                                 \
					   .counter = ctr_##ctr,                                      \
					   .general = general_##rules_##_##ctr,                       \
					   .emit = fr_emit_ts };                                      \
                                                                                                      \
		return fr_raw_read_fast(&r, ts);                                                      \
	}                                                                                             \
	static __attribute__((noinline, cold)) int general_ns_##rules_##_##ctr(                     \
		const struct fr_kdata *kd, fr_counter_fn counter, void *ns)                           \
	{                                                                                             \
		struct timespec ts;                                                                   \
		int ret = general_##rules_##_##ctr(kd, counter, &ts);                                 \
                                                                                                      \
		*(int64_t *)ns = ret ? -1 : (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;             \
		return ret;                                                                           \
	}                                                                                             \
	static int64_t now_##rules_##_##ctr(void)                                                     \
	{                                                                                             \
		const struct fr_read r = { .kd = &fr_kd,                                              \
					   .rules = rules_,                                           \
					   .fs = fs_,                                                 \
					   .counter = ctr_##ctr,                                      \
					   .general = general_ns_##rules_##_##ctr,                    \
					   .emit = fr_emit_ns };                                      \
		int64_t ns;                                                                           \
                                                                                                      \
		fr_raw_read_fast(&r, &ns);                                                            \
		return ns;                                                                            \
	}

FR_INSTANCE(FR_RULES_5_3, 0, unordered)
FR_INSTANCE(FR_RULES_5_3, 0, fenced)
FR_INSTANCE(FR_RULES_5_3, 0, ordered)
FR_INSTANCE(FR_RULES_6_5, 0, unordered)
FR_INSTANCE(FR_RULES_6_5, 0, fenced)
FR_INSTANCE(FR_RULES_6_5, 0, ordered)
FR_INSTANCE(FR_RULES_6_10, 8, unordered)
FR_INSTANCE(FR_RULES_6_10, 8, fenced)
FR_INSTANCE(FR_RULES_6_10, 8, ordered)

/* Indexed by [rules][counter mode]. Each era's rules go with its own field shift (kdata.c). */
static const fr_raw_fn instances[3][FR_CTR_MODES] = {
	[FR_RULES_5_3] = { [FR_CTR_ORDERED] = raw_FR_RULES_5_3_ordered, [FR_CTR_FENCED] = raw_FR_RULES_5_3_fenced,
			   [FR_CTR_UNORDERED] = raw_FR_RULES_5_3_unordered },
	[FR_RULES_6_5] = { [FR_CTR_ORDERED] = raw_FR_RULES_6_5_ordered, [FR_CTR_FENCED] = raw_FR_RULES_6_5_fenced,
			   [FR_CTR_UNORDERED] = raw_FR_RULES_6_5_unordered },
	[FR_RULES_6_10] = { [FR_CTR_ORDERED] = raw_FR_RULES_6_10_ordered, [FR_CTR_FENCED] = raw_FR_RULES_6_10_fenced,
			   [FR_CTR_UNORDERED] = raw_FR_RULES_6_10_unordered },
};

static const fr_now_fn now_instances[3][FR_CTR_MODES] = {
	[FR_RULES_5_3] = { [FR_CTR_ORDERED] = now_FR_RULES_5_3_ordered, [FR_CTR_FENCED] = now_FR_RULES_5_3_fenced,
			   [FR_CTR_UNORDERED] = now_FR_RULES_5_3_unordered },
	[FR_RULES_6_5] = { [FR_CTR_ORDERED] = now_FR_RULES_6_5_ordered, [FR_CTR_FENCED] = now_FR_RULES_6_5_fenced,
			   [FR_CTR_UNORDERED] = now_FR_RULES_6_5_unordered },
	[FR_RULES_6_10] = { [FR_CTR_ORDERED] = now_FR_RULES_6_10_ordered, [FR_CTR_FENCED] = now_FR_RULES_6_10_fenced,
			   [FR_CTR_UNORDERED] = now_FR_RULES_6_10_unordered },
};

/* The instances bake in max_cycles exactly for the 6.10+ rules; any other pairing is refused. */
static int pairing_ok(const struct fr_layout *lay)
{
	return (lay->rules == FR_RULES_6_10) == (lay->field_shift == 8);
}

fr_raw_fn fr_raw_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return pairing_ok(lay) ? instances[lay->rules][mode] : NULL;
}

fr_now_fn fr_now_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return pairing_ok(lay) ? now_instances[lay->rules][mode] : NULL;
}
