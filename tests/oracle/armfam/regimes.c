/* SPDX-License-Identifier: MIT */
/* The ARM family's oracle regimes: synthetic RAW entries and counter values of every kind, through the kernel's code and ours. */
#include <check.h>
#include <string.h>

#include "../vvar_entry.h"
#include "../seq_writer.h"
#include "compare.h"
#include "oracle_cpu.h"
#include "regimes.h"

#define MASK56 ((1ULL << 56) - 1)

/*
 * The mult/shift pairs the arch timer clocksource gets: read from the data page of a 6.1 guest
 * at each CNTFRQ_EL0 (QEMU's cntfrq= CPU property).
 */
static const struct {
	const char *name;
	uint32_t mult, shift;
} rates[] = {
	{ "24 MHz", 699050667u, 24 },
	{ "62.5 MHz", 1u << 27, 23 },
	{ "1 GHz", 1u << 23, 23 },
};

/* A realistic clock: the 24 MHz pair, the 56-bit mask, random bases. */
static struct aorun_clock real_clock(void)
{
	struct aorun_clock c = {
		.cycle_last = (1ULL << 40) + orng_below(1ULL << 44),
		.mask = MASK56,
		.mult = rates[0].mult,
		.shift = rates[0].shift,
		.sec = orng_below(1ULL << 32),
	};

	c.nsec = orng_below(1000000000u) << c.shift;
	return c;
}

/* Anything goes: every field random, the mask of a random width (or random bits), shift in [0, 31]. */
static struct aorun_clock random_clock(void)
{
	unsigned w = 1 + (unsigned)orng_below(64);
	struct aorun_clock c = {
		.cycle_last = orng_mag(64),
		.mask = orng_below(4) ? ~0ULL >> (64 - w) : orng_rand(),
		.mult = (uint32_t)(1 + orng_below(0xffffffffULL)),
		.shift = (uint32_t)orng_below(32),
		.sec = orng_rand(),
	};

	c.nsec = orng_below(2) ? orng_rand() : orng_below(1000000000u) << c.shift;
	return c;
}

/* A counter value of one kind relative to c, by kind % 5. */
static uint64_t counter_kind(const struct aorun_clock *c, unsigned kind)
{
	switch (kind % 5) {
	case 0:
		return c->cycle_last + orng_mag(40);         /* ahead, as usual */
	case 1:
		return c->cycle_last - 1 - orng_mag(50);     /* behind cycle_last */
	case 2:
		return c->cycle_last + c->mask + 1 + orng_mag(62); /* past the mask */
	case 3:
		return orng_rand() | 1ULL << 63;             /* bit 63 set (x86's "invalid" marker) */
	default:
		return orng_rand();
	}
}

/* Runs n values of counter_kind(kind) over the clock c, or over a fresh clock of make() per value. */
static int run(const char *name, struct aorun_clock (*make)(void), struct aorun_clock c, int kind)
{
	struct aorun_tally t;

	aorun_begin(&t, name, AORUN_COMPUTE);
	aorun_set_clock(0, FR_MODE_COUNTER, &c);
	for (unsigned i = 0; i < AORUN_N; i++) {
		if (make) {
			c = make();
			aorun_set_clock(0, FR_MODE_COUNTER, &c);
		}
		aorun_one(&t, counter_kind(&c, kind < 0 ? i : (unsigned)kind));
	}
	return aorun_end(&t);
}

START_TEST(regime1_random)
{
	int ok = 1;

	if (!oracle_ready("1 (random fields)"))
		return;
	aorun_reset_pages();
	orng_seed(1);
	ok &= run("1a random fields, every counter kind", random_clock, random_clock(), -1);
	ok &= run("1b 24 MHz clock, random counter", real_clock, real_clock(), 4);
	ok &= run("1c 24 MHz clock, counter ahead of cycle_last", real_clock, real_clock(), 0);
	aorun_reset_pages();
	ck_assert_msg(ok, "regime 1: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

START_TEST(regime2_behind_and_mask)
{
	int ok = 1;

	if (!oracle_ready("2 (behind cycle_last, past the mask)"))
		return;
	aorun_reset_pages();
	orng_seed(2);
	ok &= run("2a counter behind cycle_last", real_clock, real_clock(), 1);
	ok &= run("2b delta past the 56-bit mask", real_clock, real_clock(), 2);
	ok &= run("2c counter with bit 63 set", real_clock, real_clock(), 3);
	ok &= run("2d random clock, behind cycle_last", random_clock, random_clock(), 1);
	ok &= run("2e random clock, past its mask", random_clock, random_clock(), 2);
	aorun_reset_pages();
	ck_assert_msg(ok, "regime 2: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

/* base_nsec near 2^64: the multiply-add wraps in 64 bits; the carried seconds pass 2^32. */
static struct aorun_clock huge_base_clock(void)
{
	struct aorun_clock c = random_clock();

	c.nsec = ~0ULL - orng_mag(48);
	return c;
}

/* One shift after another: shift = i % 32 with a random mult. */
static unsigned shift_next;
static struct aorun_clock shift_clock(void)
{
	struct aorun_clock c = real_clock();

	c.shift = shift_next++ % 32;
	c.mult = (uint32_t)(1 + orng_below(0xffffffffULL));
	c.nsec = orng_below(2) ? orng_rand() : orng_below(1000000000u) << c.shift;
	return c;
}

/* mult at its extremes. */
static struct aorun_clock mult_clock(void)
{
	static const uint32_t mults[] = { 1, 2, 1u << 31, 0xfffffffeu, 0xffffffffu };
	struct aorun_clock c = random_clock();

	c.mult = mults[orng_below(sizeof(mults) / sizeof(mults[0]))];
	return c;
}

START_TEST(regime3_extremes)
{
	int ok = 1;

	if (!oracle_ready("3 (huge base, shifts, mult extremes)"))
		return;
	aorun_reset_pages();
	orng_seed(3);
	ok &= run("3a base_nsec near 2^64, every counter kind", huge_base_clock, huge_base_clock(), -1);
	shift_next = 0;
	ok &= run("3b shift 0..31, random mult, every kind", shift_clock, shift_clock(), -1);
	ok &= run("3c mult 1, 2, 2^31, 2^32-2, 2^32-1", mult_clock, mult_clock(), -1);
	aorun_reset_pages();
	ck_assert_msg(ok, "regime 3: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

START_TEST(regime4_rates)
{
	static const char *const names[] = {
		"4a 24 MHz mult/shift, counter ahead", "4b 62.5 MHz mult/shift, counter ahead",
		"4c 1 GHz mult/shift, counter ahead",
	};
	int ok = 1;

	if (!oracle_ready("4 (counter rates)"))
		return;
	aorun_reset_pages();
	orng_seed(4);
	for (unsigned r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		struct aorun_tally t;
		struct aorun_clock c = real_clock();

		c.mult = rates[r].mult;
		c.shift = rates[r].shift;
		c.nsec = orng_below(1000000000u) << c.shift;
		aorun_set_clock(0, FR_MODE_COUNTER, &c);
		aorun_begin(&t, names[r], AORUN_COMPUTE);
		aorun_one(&t, c.cycle_last);
		for (unsigned i = 0; i < AORUN_N; i++)
			aorun_one(&t, c.cycle_last + orng_below(1ULL << 40));
		ok &= aorun_end(&t);
	}
	aorun_reset_pages();
	ck_assert_msg(ok, "regime 4: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

START_TEST(regime5_modes)
{
	struct aorun_tally t;
	struct aorun_clock c;
	int ok = 1;

	if (!oracle_ready("5 (clock modes)"))
		return;
	aorun_reset_pages();
	orng_seed(5);
	aorun_begin(&t, "5a mode ARCHTIMER_NOCOMPAT, every kind", AORUN_COMPUTE);
	for (unsigned i = 0; i < AORUN_N; i++) {
		c = random_clock();
		aorun_set_clock(0, FR_MODE_COUNTER_ALT, &c);
		aorun_one(&t, counter_kind(&c, i));
	}
	ok &= aorun_end(&t);
	/* Mode none: the kernel's code makes its system call without reading the counter. */
	aorun_begin(&t, "5b mode NONE: both fall back", AORUN_FALLBACK);
	for (unsigned i = 0; i < AORUN_N / 10; i++) {
		c = random_clock();
		aorun_set_clock(0, FR_MODE_NONE, &c);
		aorun_one(&t, counter_kind(&c, i));
	}
	ok &= aorun_end(&t);
	aorun_reset_pages();
	ck_assert_msg(ok, "regime 5: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

/* A time-namespace offset: sec within +-2^40, nsec mostly normalised (as the kernel keeps it). */
static void offset(uint64_t *sec, uint64_t *nsec)
{
	*sec = orng_below(2) ? orng_mag(40) : -orng_mag(40);
	*nsec = orng_below(8) ? orng_below(1000000000u) : orng_rand();
}

START_TEST(regime6_time_namespace)
{
	struct aorun_tally t;
	struct aorun_clock c;
	uint64_t sec, nsec;
	int ok = 1;

	if (!oracle_ready("6 (synthetic time namespace)"))
		return;
	/* An era without a namespace page (every 32-bit ARM era: no GENERIC_VDSO_TIME_NS) has no such page to fill. */
	if (!aorun_timens_page()) {
		aorun_sum->regimes--;
		aorun_skip("6 (synthetic time namespace)", "the era has no time-namespace page");
		return;
	}
	aorun_reset_pages();
	orng_seed(6);
	aorun_set_timens(100000, 123456789);
	c = real_clock();
	aorun_set_clock(aorun_timens_page(), FR_MODE_COUNTER, &c);
	aorun_begin(&t, "6a timens +100000.123456789 s, 24 MHz", AORUN_COMPUTE);
	for (unsigned i = 0; i < AORUN_N; i++)
		aorun_one(&t, counter_kind(&c, i));
	ok &= aorun_end(&t);
	aorun_begin(&t, "6b timens random offsets, random clock", AORUN_COMPUTE);
	for (unsigned i = 0; i < AORUN_N; i++) {
		offset(&sec, &nsec);
		aorun_set_timens(sec, nsec);
		c = random_clock();
		aorun_set_clock(aorun_timens_page(), FR_MODE_COUNTER, &c);
		aorun_one(&t, counter_kind(&c, i));
	}
	ok &= aorun_end(&t);
	aorun_reset_pages();
	ck_assert_msg(ok, "regime 6: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

/* Regime 7: seq_writer.h's writer (seq + 2 at the counter read), then the live page. */
START_TEST(regime7_seq_and_live)
{
	struct aorun_tally t;
	struct aorun_clock c;
	int ok = 1;

	if (!oracle_ready("7 (seq bump, live page)"))
		return;
	aorun_reset_pages();
	orng_seed(7);
	c = real_clock();
	aorun_set_clock(0, FR_MODE_COUNTER, &c);
	/* A writer finishes an update at the counter read (seq + 2, new cycle_last): both read again. */
	aorun_begin(&t, "7a seq bumped at the counter read", AORUN_COMPUTE);
	t.reads = 2;
	oseq_arm(aorun_entry(0), oe_get32(aorun_entry(0) + FR_OFF_SEQ) & ~1u);
	oseq_arm_also(aorun_entry(0) - aorun_kd.lay->clock_size);
	aorun_set_hooks(oseq_before, oseq_on_read);
	for (unsigned i = 0; i < AORUN_N; i++) {
		uint64_t after = oseq_next(c.cycle_last);

		aorun_one2(&t, c.cycle_last + orng_below(1ULL << 32), after + orng_below(1ULL << 32));
	}
	aorun_set_hooks(NULL, NULL);
	ok &= aorun_end(&t);
	/* The live snapshot, as copied, at counter values from now on. */
	aorun_reset_pages();
	if (fr_mode_is_counter(aorun_ac.live_mode)) {
		uint64_t now;

		aorun_begin(&t, "7b live snapshot, counter = now + [0, 2^33)", AORUN_COMPUTE);
		for (unsigned i = 0; i < AORUN_N; i++) {
			now = acpu_counter_now();
			aorun_one(&t, now + orng_below(1ULL << 33));
		}
		ok &= aorun_end(&t);
	} else {
		aorun_skip("7b (live snapshot)", "the live clock mode is not the arch timer");
	}
	/* Inside a time namespace: the live namespace page with the live data behind it. */
	if (aorun_ac.live_in_timens && fr_mode_is_counter(aorun_ac.live_mode)) {
		uint64_t now;

		aorun_use_live_timens();
		aorun_begin(&t, "7c live namespace page, counter = now + [0, 2^33)", AORUN_COMPUTE);
		for (unsigned i = 0; i < AORUN_N; i++) {
			now = acpu_counter_now();
			aorun_one(&t, now + orng_below(1ULL << 33));
		}
		ok &= aorun_end(&t);
	}
	aorun_reset_pages();
	ck_assert_msg(ok, "regime 7: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

void oracle_add_regimes(TCase *tc)
{
	tcase_add_test(tc, regime1_random);
	tcase_add_test(tc, regime2_behind_and_mask);
	tcase_add_test(tc, regime3_extremes);
	tcase_add_test(tc, regime4_rates);
	tcase_add_test(tc, regime5_modes);
	tcase_add_test(tc, regime6_time_namespace);
	tcase_add_test(tc, regime7_seq_and_live);
}
