/* SPDX-License-Identifier: MIT */
/* The served clocks' readers: fastpath.h's reading on the CS_HRES_COARSE entry, and the coarse clocks. */
#include "exact/clocks.h"

#include "exact/counters.h"

/*
 * A coarse clock as the kernel's do_coarse reads it: basetime[clk] of the CS_HRES_COARSE entry
 * under its seqcount, no counter and no clock-mode test, a namespace's offset added after the
 * loop. fs is the era's field shift, a constant in each instance below.
 */
static inline __attribute__((always_inline)) int coarse_read(const struct fr_kdata *kd, uint32_t fs, clockid_t clk,
							     struct timespec *ts)
{
	const struct fr_read r = { .kd = kd, .fs = fs, .hres = 1, .clock = clk };
	const volatile uint8_t *entry = kd->hres0;
	uint64_t off_sec = 0, off_nsec = 0;
	int in_ns = 0;

	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		const volatile uint8_t *base = fr_read_base(&r, entry);
		uint32_t seq = FR_LD32(entry + FR_OFF_SEQ);
		uint64_t sec, nsec;

		if (FR_UNLIKELY(seq & 1)) {
			if (!in_ns && fr_timens_offsets(&r, entry, &off_sec, &off_nsec)) {
				entry = kd->hres_ns;
				in_ns = 1;
				continue;
			}
			fr_arch_pause();
			continue;
		}
		FR_BARRIER();
		sec = FR_LD64(base);
		nsec = FR_LD64(base + 8);
		if (FR_LIKELY(!fr_seq_retry(entry + FR_OFF_SEQ, seq))) {
			/* do_coarse copies the base as it is; do_coarse_timens carries the sum's seconds. */
			if (in_ns) {
				fr_ts_set(ts, sec + off_sec, nsec + off_nsec);
			} else {
				ts->tv_sec = (time_t)sec;
				ts->tv_nsec = (long)nsec;
			}
			return FR_OK;
		}
	}
	return FR_PASS;
}

static int coarse_0(clockid_t clk, struct timespec *ts)
{
	return coarse_read(&fr_kd, 0, clk, ts);
}

static int coarse_8(clockid_t clk, struct timespec *ts)
{
	return coarse_read(&fr_kd, 8, clk, ts);
}

fr_clock_read_fn fr_coarse_for(const struct fr_layout *lay)
{
	return lay->field_shift == 0 ? coarse_0 : lay->field_shift == 8 ? coarse_8 : NULL;
}

/*
 * One high-resolution reader per era rule and counter read, named after the RAW reader of the
 * same rule and read (hres_ + its name): the fast reading, then, out of line, the general one
 * with the same clock. The clock is an argument, not a constant: only the base's offset depends
 * on it, so one instance serves REALTIME, MONOTONIC, BOOTTIME and TAI alike.
 */
/* A high-resolution clock's reading of the CS_HRES_COARSE entry, emitting a timespec. */
#define HRES_READ(rules_, fs_, ctr, clk)                                                        \
	{ .kd = &fr_kd, .rules = rules_, .fs = fs_, .counter = ctr_##ctr, .emit = fr_emit_ts,   \
	  .unordered = FR_UNORDERED_##ctr, .hres = 1, .clock = clk }

#define FR_HRES_READERS(raw, now, rules_, fs_, ctr)                                                     \
	static __attribute__((noinline, cold)) int hres_##raw##_general(clockid_t clk, struct timespec *ts) \
	{                                                                                                 \
		const struct fr_read r = { .kd = &fr_kd, .rules = rules_, .fs = fs_, .counter = ctr_##ctr,   \
					   .unordered = FR_UNORDERED_##ctr, .hres = 1, .clock = clk };   \
                                                                                                          \
		return fr_raw_read_general(&r, rules_, ts);                                               \
	}                                                                                                 \
	static int hres_##raw(clockid_t clk, struct timespec *ts)                                         \
	{                                                                                                 \
		const struct fr_read r = HRES_READ(rules_, fs_, ctr, clk);                               \
		int ret = fr_raw_read_fast(&r, ts);                                                       \
                                                                                                          \
		return FR_LIKELY(ret != FR_GENERAL) ? ret : hres_##raw##_general(clk, ts);                \
	}                                                                                                 \
	static int served_##raw(clockid_t clk, struct timespec *ts)                                       \
	{                                                                                                 \
		if (FR_LIKELY(fr_clock_in(fr_hot.served.hres, clk))) {                                        \
			const struct fr_read r = HRES_READ(rules_, fs_, ctr, clk);                       \
			int ret = fr_raw_read_fast(&r, ts);                                               \
                                                                                                          \
			if (FR_LIKELY(ret == FR_OK) || (ret == FR_GENERAL && hres_##raw##_general(clk, ts) == FR_OK)) \
				return 0;                                                                 \
		} else if (fr_clock_in(fr_hot.served.coarse, clk) && fr_hot.served.coarse_read(clk, ts) == FR_OK) {  \
			return 0;                                                                         \
		}                                                                                         \
		return fr_hot.served.next(clk, ts);                                                           \
	}

FR_ARCH_READERS(FR_HRES_READERS)

#define FR_CELL_HRES(raw, now, rules_, fs_, ctr) [rules_][FR_CTR_INDEX_##ctr] = hres_##raw,
#define FR_CELL_SERVED(raw, now, rules_, fs_, ctr) [rules_][FR_CTR_INDEX_##ctr] = served_##raw,
static const fr_clock_read_fn hres_instances[FR_RULES_COUNT][FR_CTR_MODES] = { FR_ARCH_READERS(FR_CELL_HRES) };
static const fr_clock_fn served_instances[FR_RULES_COUNT][FR_CTR_MODES] = { FR_ARCH_READERS(FR_CELL_SERVED) };

fr_clock_read_fn fr_hres_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return fr_pairing_ok(lay) ? hres_instances[lay->rules][mode] : NULL;
}

fr_clock_fn fr_served_for(const struct fr_layout *lay, enum fr_counter_mode mode)
{
	return fr_pairing_ok(lay) ? served_instances[lay->rules][mode] : NULL;
}

int fr_clock_read_general_with(const struct fr_kdata *kd, fr_counter_fn counter, clockid_t clk,
			       struct timespec *ts)
{
	const struct fr_read r = { .kd = kd,
				   .rules = kd->lay->rules,
				   .fs = kd->lay->field_shift,
				   .counter = counter,
				   .hres = clk != CLOCK_MONOTONIC_RAW,
				   .clock = clk };

	if (fr_clock_in(FR_CLOCKS_COARSE, clk))
		return coarse_read(kd, kd->lay->field_shift, clk, ts);
	if (!fr_clock_in(FR_CLOCKS_HRES | (1u << CLOCK_MONOTONIC_RAW), clk))
		return FR_PASS;
	return fr_raw_read_general(&r, r.rules, ts);
}

int fr_clock_read_with(const struct fr_kdata *kd, fr_counter_fn counter, clockid_t clk, struct timespec *ts)
{
	const struct fr_read r = { .kd = kd,
				   .rules = kd->lay->rules,
				   .fs = kd->lay->field_shift,
				   .counter = counter,
				   .emit = fr_emit_ts,
				   .hres = clk != CLOCK_MONOTONIC_RAW,
				   .clock = clk };
	int ret;

	if (!fr_clock_in(FR_CLOCKS_HRES | (1u << CLOCK_MONOTONIC_RAW), clk))
		return fr_clock_read_general_with(kd, counter, clk, ts);
	ret = fr_raw_read_fast(&r, ts);
	return ret == FR_GENERAL ? fr_clock_read_general_with(kd, counter, clk, ts) : ret;
}
