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
/* Which counter read is the unordered one, for FR_INSTANCE's ctr argument. */
#define FR_UNORDERED_unordered 1
#define FR_UNORDERED_fenced 0
#define FR_UNORDERED_ordered 0

#define FR_INSTANCE(rules_, fs_, ctr)                                                                 \
	static __attribute__((noinline, cold)) int general_##rules_##_##ctr(                        \
		const struct fr_kdata *kd, fr_counter_fn counter, void *ts)                           \
	{                                                                                             \
		const struct fr_read r = { .kd = kd, .rules = rules_, .fs = fs_, .counter = ctr_##ctr,   \
					   .unordered = FR_UNORDERED_##ctr };                         \
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
					   .emit = fr_emit_ts,                                        \
					   .unordered = FR_UNORDERED_##ctr };                         \
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
					   .emit = fr_emit_ns,                                        \
					   .unordered = FR_UNORDERED_##ctr };                         \
		int64_t ns;                                                                           \
                                                                                                      \
		fr_raw_read_fast(&r, &ns);                                                            \
		return ns;                                                                            \
	}

#define FR_INSTANCES(rules_, fs_)           \
	FR_INSTANCE(rules_, fs_, unordered) \
	FR_INSTANCE(rules_, fs_, fenced)    \
	FR_INSTANCE(rules_, fs_, ordered)

/* One row of the tables below: an era's rules with each counter read. */
#define FR_ROW(pre, rules_)                                                                      \
	[rules_] = { [FR_CTR_ORDERED] = pre##rules_##_ordered, [FR_CTR_FENCED] = pre##rules_##_fenced, \
		     [FR_CTR_UNORDERED] = pre##rules_##_unordered }

/* The rows of the tables below, one per rule FR_ARCH_RULES lists. */
#define FR_ROW_RAW(rules_, fs_) FR_ROW(raw_, rules_),
#define FR_ROW_NOW(rules_, fs_) FR_ROW(now_, rules_),

/*
 * Each architecture builds only its own rules, those its eras use, with the field shift each
 * one's eras have (FR_ARCH_RULES, arch/<cpu>/abi.h): x86's three, or the generic masked delta.
 * Indexed by [rules][counter mode].
 */
FR_ARCH_RULES(FR_INSTANCES)

static const fr_raw_fn instances[FR_RULES_COUNT][FR_CTR_MODES] = { FR_ARCH_RULES(FR_ROW_RAW) };
static const fr_now_fn now_instances[FR_RULES_COUNT][FR_CTR_MODES] = { FR_ARCH_RULES(FR_ROW_NOW) };

/* The instances bake in their rules' field shift (max_cycles from 6.10): any other pairing is refused. */
#define FR_PAIRING(rules_, fs_) || (lay->rules == (rules_) && lay->field_shift == (fs_))
static int pairing_ok(const struct fr_layout *lay)
{
	return 0 FR_ARCH_RULES(FR_PAIRING);
}

fr_raw_fn fr_raw_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return pairing_ok(lay) ? instances[lay->rules][mode] : NULL;
}

fr_now_fn fr_now_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return pairing_ok(lay) ? now_instances[lay->rules][mode] : NULL;
}
