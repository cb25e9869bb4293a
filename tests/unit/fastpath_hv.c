/* SPDX-License-Identifier: MIT */
/* Unit tests of the hvclock (Hyper-V TSC page) readers on synthetic pages of every era, against the model. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "synth.h"

/* The Hyper-V TSC page is x86's (FR_HAS_VCLOCK): elsewhere the test case is empty. */
#if FR_HAS_VCLOCK
/*
 * A 10 MHz clocksource (Hyper-V reference time counts 100 ns units): mult 100 << 22, shift 22.
 * Its TSC page for a 2.5 GHz TSC: scale 2^64 / 250 and a negative offset.
 */
static const struct clockvals hv_clock = {
	.seq = 6, .mode = FR_MODE_HVCLOCK, .max = 0x1ffffffffffULL, .mult = 100u << 22, .shift = 22,
	.sec = 86400, .B = 987654321ULL << 22,
};
static const struct hvvals hv_page = { .seq = 7, .scale = 0x010624dd2f1a9fbeULL, .offset = (uint64_t)-123456789 };

/* The model's reference time for tsc on page h. */
static uint64_t ref(const struct hvvals *h, uint64_t tsc)
{
	uint64_t c = 0;

	ck_assert(m_hvclock(tsc, h->seq ? h->seq : 1, h->scale, h->offset, &c));
	return c;
}

/* Reference time minus cycle_last: ordinary, at and past max_cycles, negative, bit 62, bit 63. */
static const uint64_t hv_d[] = {
	0, 1, 9999999, 4000000000ULL, 0x1ffffffffffULL, 0x20000000000ULL, 1ULL << 42, (1ULL << 61) + 3,
	(uint64_t)-1, (uint64_t)-1000000, (1ULL << 62) + 1, (1ULL << 63) + 1,
};

START_TEST(hvclock_deltas)
{
	static const uint64_t tscs[] = { 0, 2500000000ULL, 0x123456789abcULL, 1ULL << 62, (1ULL << 63) | 12345, ~0ULL };
	struct synth s;
	struct clockvals v = hv_clock;
	struct hvvals h = hv_page;

	synth_init(&s, _i);
	synth_set_hv(&s, &h);
	for (size_t t = 0; t < sizeof(tscs) / sizeof(tscs[0]); t++) {
		for (size_t k = 0; k < sizeof(hv_d) / sizeof(hv_d[0]); k++) {
			v.L = ref(&h, tscs[t]) - hv_d[k];
			synth_set_clock(&s, 0, &v);
			synth_check_read_hv(&s, &v, &h, NULL, tscs[t], "hvclock");
		}
	}
	synth_free(&s);
}
END_TEST

/*
 * Large scale and offset, and values with bit 63 set: up to 6.4 such a value is the vDSO's
 * "invalid" marker (system call), from 6.5 the reader masks it to 63 bits and computes.
 */
START_TEST(hvclock_large_and_masked)
{
	static const struct hvvals pages[] = {
		{ 1, ~0ULL, 0 },
		{ 2, ~0ULL, 1ULL << 63 },
		{ 3, 1ULL << 63, (uint64_t)-1 },
		{ 0xffffffffu, 0x8000000000000001ULL, 0x7fffffffffffffffULL },
		{ 9, 1, 0x4000000000000000ULL },
	};
	static const uint64_t tscs[] = { 0, 1, 1ULL << 40, (1ULL << 63) - 1, 1ULL << 63, ~0ULL };
	struct synth s;
	struct clockvals v = hv_clock;

	synth_init(&s, _i);
	for (size_t p = 0; p < sizeof(pages) / sizeof(pages[0]); p++) {
		synth_set_hv(&s, &pages[p]);
		for (size_t t = 0; t < sizeof(tscs) / sizeof(tscs[0]); t++) {
			/* cycle_last just below the masked value: an ordinary small delta where it computes. */
			v.L = (ref(&pages[p], tscs[t]) & 0x7fffffffffffffffULL) - 1000;
			synth_set_clock(&s, 0, &v);
			synth_check_read_hv(&s, &v, &pages[p], NULL, tscs[t], "hvclock large/masked");
		}
	}
	synth_free(&s);
}
END_TEST

/* Sequence 0 (the hypervisor's "invalid"), or no page known: the call passes, never a fault. */
START_TEST(hvclock_invalid_passes)
{
	struct synth s;
	struct clockvals v = hv_clock;
	struct hvvals h = hv_page;

	synth_init(&s, _i);
	h.seq = 0;
	synth_set_hv(&s, &h);
	v.L = ref(&h, 5000000000ULL) - 1000;
	synth_set_clock(&s, 0, &v);
	synth_check_read_hv(&s, &v, &h, NULL, 5000000000ULL, "hvclock sequence 0");
	synth_close_hv(&s);
	fr_kdata_init(&s.kd, s.kd.lay, s.vvar, NULL);
	synth_check_read_hv(&s, &v, NULL, NULL, 5000000000ULL, "hvclock, no vclock pages");
	synth_free(&s);
}
END_TEST

/*
 * The hypervisor changes the page at the first counter read (new sequence, scale and offset
 * already in place): both readers retry and use the second counter value with the new page.
 * A change to sequence 0 makes the retry pass the call.
 */
START_TEST(hvclock_sequence_change_retries)
{
	struct synth s;
	struct clockvals v = hv_clock;
	struct hvvals h = hv_page, h2;
	uint64_t c1 = 5000000000ULL, c2 = 7000000000ULL;

	synth_init(&s, _i);
	h2 = h;
	h2.scale = h.scale + 12345;
	h2.offset = 1000000000777ULL; /* positive: a valid value in every era */
	v.L = ref(&h2, c2) - 5000;
	synth_set_clock(&s, 0, &v);
	for (int g = 0; g < 2; g++) {
		struct timespec want, got;
		int r;

		/* The bump adds 2 to the sequence: write the new page with the sequence before it. */
		h2.seq = h.seq;
		synth_set_hv(&s, &h2);
		synth_put32(s.hv, h.seq);
		ck_assert(synth_expect_vclock(s.era, &v, NULL, &h2, NULL, c2, &want));
		synth_ctr_set(c1, c2, s.hv);
		r = synth_read(&s, g, &got);
		ck_assert_msg(r == FR_OK && synth_ctr_calls() == 2 && got.tv_sec == want.tv_sec &&
				      got.tv_nsec == want.tv_nsec,
			      "era %s, %s reading: %d after %u reads, {%lld, %ld} != {%lld, %ld}", s.era->name,
			      g ? "general" : "fast", r, synth_ctr_calls(), (long long)got.tv_sec, got.tv_nsec,
			      (long long)want.tv_sec, want.tv_nsec);
		/* From 0xfffffffe the bump wraps the sequence to 0: the retry sees an invalid page. */
		synth_put32(s.hv, 0xfffffffeu);
		synth_ctr_set(c1, c2, s.hv);
		ck_assert_int_eq(synth_read(&s, g, &got), FR_PASS);
	}
	synth_free(&s);
}
END_TEST

/* The mode flips between TSC (Hyper-V page faulting) and hvclock: each call follows the page. */
START_TEST(hvclock_mode_flips)
{
	uint64_t seed = 0x4876000ULL + (uint64_t)_i;
	struct synth s;

	synth_init(&s, _i);
	for (int n = 0; n < 4000; n++) {
		uint64_t r = m_rand(&seed), c = m_rand(&seed) >> (r % 24);
		struct clockvals v = hv_clock;
		struct hvvals h = { (uint32_t)(r >> 32) | 1, m_rand(&seed) >> (r >> 8) % 64, m_rand(&seed) };

		v.seq = (uint32_t)(r & 0xfffe);
		if (n % 2) {
			synth_set_hv(&s, &h);
			v.L = ref(&h, c) - (m_rand(&seed) >> (r >> 16) % 64);
			synth_set_clock(&s, 0, &v);
			synth_check_read_hv(&s, &v, &h, NULL, c, "random hvclock");
		} else {
			synth_close_hv(&s);
			v.mode = FR_MODE_COUNTER;
			v.L = c - (m_rand(&seed) >> (r >> 16) % 64);
			synth_set_clock(&s, 0, &v);
			synth_check_read(&s, &v, NULL, NULL, c, "tsc between hvclock calls");
		}
	}
	synth_free(&s);
}
END_TEST

#endif

TCase *fastpath_hvclock_tcase(void)
{
	TCase *tc = tcase_create("hvclock");

#if FR_HAS_VCLOCK
	tcase_add_loop_test(tc, hvclock_deltas, 0, N_ERAS);
	tcase_add_loop_test(tc, hvclock_large_and_masked, 0, N_ERAS);
	tcase_add_loop_test(tc, hvclock_invalid_passes, 0, N_ERAS);
	tcase_add_loop_test(tc, hvclock_sequence_change_retries, 0, N_ERAS);
	tcase_add_loop_test(tc, hvclock_mode_flips, 0, N_ERAS);
#endif
	return tc;
}
