/* SPDX-License-Identifier: MIT */
/* Unit tests of the readers under the generic masked delta (arm64) on synthetic pages of every era, against the model. */
#include <check.h>
#include <stdint.h>

#include "synth.h"

/*
 * The masked delta is the rule where the vDSO keeps lib/vdso's default (FR_ARCH_DELTA_MASKED);
 * elsewhere the test case is empty (x86's rules are test_fastpath.c's).
 */
#if FR_ARCH_DELTA_MASKED
/* The arm64 generic timer at 62.5 MHz (QEMU's, and many SoCs'): 16 ns a tick, mult 16 << 24, shift 24. */
static const struct clockvals timer_clock = {
	.seq = 2, .mode = FR_MODE_COUNTER, .L = 1000000000000ULL, .mult = 16u << 24, .shift = 24, .sec = 1000,
	.B = (123456789ULL << 24) + 0x123,
};

/*
 * The generic masked delta (arm64): deltas past the counter's mask wrap through it, a counter
 * behind cycle_last reads as a huge masked delta (the product wrapping in 64 bits), and a
 * 64-bit counter (mask ~0) is the same rule with nothing cut off. No bit of the counter is an
 * "invalid" marker.
 */
START_TEST(masked_deltas)
{
	static const uint64_t masks[] = { SYNTH_MASK56, ~0ULL };
	static const uint64_t fwd[] = { 0, 1, 62500000, 1ULL << 32, (1ULL << 40) + 7, SYNTH_MASK56 - 1, SYNTH_MASK56,
					SYNTH_MASK56 + 1, (1ULL << 56) + 12345, 1ULL << 60, (1ULL << 63) + 3 };
	static const uint64_t back[] = { 1, 2, 1000, 1ULL << 32, 1ULL << 55, SYNTH_MASK56 };
	struct synth s;
	struct clockvals v = timer_clock;

	synth_init(&s, _i);
	for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
		v = timer_clock;
		v.mask = masks[m];
		/* A 62.5 MHz timer (16 ns a tick: mult 16 << 24, shift 24) and a 24 MHz one (41.67 ns). */
		for (int clk = 0; clk < 2; clk++) {
			v.mult = clk ? 699050667u : 268435456u;
			v.shift = 24;
			v.seq += 2;
			synth_set_clock(&s, 0, &v);
			for (size_t k = 0; k < sizeof(fwd) / sizeof(fwd[0]); k++)
				synth_check_read(&s, &v, NULL, NULL, v.L + fwd[k], "masked forward");
			for (size_t k = 0; k < sizeof(back) / sizeof(back[0]); k++)
				synth_check_read(&s, &v, NULL, NULL, v.L - back[k], "masked, counter behind cycle_last");
		}
		/* cycle_last near the top of the mask: the counter wraps through it to small values. */
		v.L = (masks[m] & ~0xfffULL) | 0xff0;
		synth_set_clock(&s, 0, &v);
		for (uint64_t c = 0; c < 64; c += 7)
			synth_check_read(&s, &v, NULL, NULL, c, "masked, counter wrapped past the mask");
		synth_check_read(&s, &v, NULL, NULL, UINT64_MAX, "masked, all ones");
		synth_check_read(&s, &v, NULL, NULL, 1ULL << 63, "masked, bit 63 is no marker");
	}
	/* A product past 2^64 wraps as the kernel's u64 does: d = 2^40, mult 2^26. */
	v = timer_clock;
	v.mult = 1u << 26;
	v.B = UINT64_MAX - 5;
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, NULL, NULL, v.L + (1ULL << 40), "masked, product wraps");
	synth_check_read(&s, &v, NULL, NULL, v.L + 1, "masked, sum wraps");
	synth_free(&s);
}
END_TEST

/*
 * Both counter modes (archtimer 1, archtimer_nocompat 2) are read, and so is 3, no arm64 mode
 * yet, as the kernel's vDSO reads the counter in every mode but none (start-up refuses a page
 * showing it: kdata's checks).
 */
START_TEST(masked_modes)
{
	struct synth s;
	struct clockvals v = timer_clock;
	struct timespec ts;

	synth_init(&s, _i);
	v.mode = FR_MODE_COUNTER_ALT;
	synth_set_clock(&s, 0, &v);
	ck_assert(synth_expect(s.era, &v, NULL, NULL, v.L + 1000, &ts));
	synth_check_read(&s, &v, NULL, NULL, v.L + 1000, "archtimer_nocompat");
	synth_check_read(&s, &v, NULL, NULL, v.L - 1000, "archtimer_nocompat, behind cycle_last");
	v.mode = FR_MODE_LAST + 1;
	v.seq += 2;
	synth_set_clock(&s, 0, &v);
	/*
	 * Read where the kernel reads the counter in every mode but none (FR_ARCH_MODE_ANY_COUNTER:
	 * arm64); passed through where only its counter mode is read (32-bit ARM).
	 */
	ck_assert(synth_expect(s.era, &v, NULL, NULL, v.L + 1000, &ts) == (FR_ARCH_MODE_ANY_COUNTER != 0));
	synth_check_read(&s, &v, NULL, NULL, v.L + 1000, "an unknown mode, as the kernel does");
	v.mode = FR_MODE_NONE;
	v.seq += 2;
	synth_set_clock(&s, 0, &v);
	ck_assert(!synth_expect(s.era, &v, NULL, NULL, v.L + 1000, &ts));
	synth_check_read(&s, &v, NULL, NULL, v.L + 1000, "mode none");
	synth_free(&s);
}
END_TEST
#endif

TCase *fastpath_masked_tcase(void)
{
	TCase *tc = tcase_create("masked");

#if FR_ARCH_DELTA_MASKED
	tcase_add_loop_test(tc, masked_deltas, 0, N_ERAS);
	tcase_add_loop_test(tc, masked_modes, 0, N_ERAS);
#endif
	return tc;
}
