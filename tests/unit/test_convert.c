/* SPDX-License-Identifier: MIT */
/* Unit tests of the late conversion (fr_ticks_to_ns) and the no-split sum (fr_ts_ns) on synthetic pages of every era. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "math/rawmath.h"
#include "math/wide.h"
#include "run_suite.h"
#include "exact/convert.h"
#include "synth.h"

#define NSEC 1000000000ULL

/* A TSC clocksource of about 2.1 GHz, as test_fastpath's. */
static const struct clockvals tsc_clock = {
	.seq = 2, .mode = FR_MODE_COUNTER, .L = 1000000000000ULL, .max = 0x7fffffffffULL,
	.mult = 8004479, .shift = 24, .sec = 1000, .B = (123456789ULL << 24) + 0x123,
};

#if FR_ARCH_HAS_VCLOCK
/* kvm-clock: mult 2^23, shift 23, and its pvclock page. */
static const struct clockvals kvm_clock = {
	.seq = 4, .mode = FR_MODE_PVCLOCK, .L = 4000000000000ULL, .max = 0x1cd42e4dffbULL,
	.mult = 1u << 23, .shift = 23, .sec = 86400, .B = 987654321ULL << 23,
};
static const struct pvvals kvm_pv = {
	.version = 0x10, .tsts = 0x123456789abcULL, .sys = 4000000000000ULL, .mul = 0xf446a645u, .shift = -1,
	.flags = FR_PV_STABLE_BIT,
};
#endif

static int64_t expect_ns(const struct synth *s, const struct clockvals *v, const struct pvvals *p,
			 const struct nsoff *ns, uint64_t c)
{
	struct timespec ts;

	ck_assert_msg(synth_expect(s->era, v, p, ns, c, &ts), "the model passes counter %llu", (unsigned long long)c);
	return (int64_t)((uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec);
}

static int64_t convert(const struct synth *s, uint64_t c)
{
	int64_t ns = -1;

	ck_assert_int_eq(fr_ticks_to_ns(&s->kd, c, &ns), FR_OK);
	return ns;
}

/* The kernel's accumulation of k cycles into a snapshot: exact, whole seconds carried. */
static struct clockvals advance(struct clockvals v, uint64_t k)
{
	fr_u128 x = fr_u128_add64(fr_u128_mul(k, v.mult), v.B);
	uint64_t unit = NSEC << v.shift;
	fr_u128 q = fr_u128_div64(x, unit);

	v.L += k;
	v.sec += fr_u128_lo(q);
	v.B = fr_u128_lo(x) - fr_u128_lo(q) * unit; /* x % unit < 2^64: the low halves suffice */
	v.seq += 2;
	return v;
}

START_TEST(ts_ns_is_the_split_sum)
{
	static const uint64_t ns[] = { 0, 1, NSEC - 1, NSEC, 2 * NSEC + 5, 123456789012ULL,
				       FR_NS_CARRY_EXACT - 1, FR_NS_CARRY_EXACT, FR_NS_CARRY_EXACT + 7 * NSEC + 3,
				       UINT64_MAX };
	static const uint64_t sec[] = { 0, 1, 86400, 1ULL << 33, 9223372035ULL };

	for (size_t i = 0; i < sizeof(sec) / sizeof(sec[0]); i++)
		for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
			struct timespec ts;

			fr_ts_set(&ts, sec[i], ns[j]);
			ck_assert_uint_eq((uint64_t)fr_ts_ns(sec[i], ns[j]),
					  (uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec);
		}
}
END_TEST

/* Forward of cycle_last, with the snapshot unchanged: exactly the vDSO's reading. */
START_TEST(tsc_forward_is_the_reading)
{
	static const uint64_t fwd[] = { 0, 1, 2500000, 1000000000, 5000000000ULL, 0x7fffffffffULL };
	struct synth s;
	struct clockvals v = tsc_clock;

	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	for (size_t k = 0; k < sizeof(fwd) / sizeof(fwd[0]); k++)
		ck_assert_int_eq(convert(&s, v.L + fwd[k]), expect_ns(&s, &v, NULL, NULL, v.L + fwd[k]));
	synth_free(&s);
}
END_TEST

/* A counter value read under one snapshot and converted after the kernel moved on: the same number. */
START_TEST(tsc_late_conversion_is_exact)
{
	static const uint64_t d[] = { 0, 1, 777, 2500000, 999999999, 4000000000ULL };
	static const uint64_t later[] = { 1, 1000, 10000000, 2100000000ULL, 2100000000ULL * 200 };
	struct synth s;

	synth_init(&s, _i);
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		for (size_t j = 0; j < sizeof(later) / sizeof(later[0]); j++) {
			struct clockvals v0 = tsc_clock, v1;
			uint64_t c = v0.L + d[i];
			int64_t want = expect_ns(&s, &v0, NULL, NULL, c);

			v1 = advance(v0, d[i] + later[j]);
			synth_set_clock(&s, 0, &v1);
			ck_assert_uint_lt(c, v1.L);
			ck_assert_int_eq(convert(&s, c), want);
		}
	synth_free(&s);
}
END_TEST

#if FR_ARCH_HAS_VCLOCK
/* pvclock: forward is the reading; with an unchanged pvclock page, late is exact too. */
START_TEST(pvclock_late_conversion_is_exact)
{
	struct synth s;
	struct pvvals p = kvm_pv;
	uint64_t tsc = p.tsts + 3000000000ULL, kc;

	synth_init(&s, _i);
	synth_set_pv(&s, &p);
	ck_assert_int_eq(fr_pvclock_cycles(&(struct fr_pvclock_vals){ p.tsts, p.sys, p.mul, p.shift }, tsc, &kc),
			 FR_OK);
	for (uint64_t back = 0; back < 5000000000ULL; back = back * 7 + 12345) {
		struct clockvals v0 = kvm_clock, v1;
		int64_t want;

		v0.L = kc - back;
		want = expect_ns(&s, &v0, &p, NULL, tsc);
		synth_set_clock(&s, 0, &v0);
		ck_assert_int_eq(convert(&s, tsc), want);
		v1 = advance(v0, back + 123456789);
		synth_set_clock(&s, 0, &v1);
		ck_assert_int_eq(convert(&s, tsc), want);
	}
	synth_free(&s);
}
END_TEST

/*
 * hvclock (Hyper-V TSC page, 10 MHz reference clock): reference time is a line of the TSC, so a
 * tick converted before or after the kernel moved its snapshot on gives the reading's value.
 */
START_TEST(hvclock_late_conversion_is_exact)
{
	static const struct hvvals h = { .seq = 3, .scale = 0x010624dd2f1a9fbeULL, .offset = 5000000000ULL };
	struct synth s;
	uint64_t tsc = 0x123456789abcULL, ref;

	synth_init(&s, _i);
	synth_set_hv(&s, &h);
	ck_assert(m_hvclock(tsc, h.seq, h.scale, h.offset, &ref));
	for (uint64_t back = 0; back < 500000000ULL; back = back * 7 + 1234) {
		struct clockvals v0 = { .seq = 2, .mode = FR_MODE_HVCLOCK, .max = 0x1ffffffffffULL,
					.mult = 100u << 22, .shift = 22, .sec = 86400, .B = 987654321ULL << 22 };
		struct clockvals v1;
		struct timespec ts;
		int64_t want;

		v0.L = ref - back;
		ck_assert(synth_expect_vclock(s.era, &v0, NULL, &h, NULL, tsc, &ts));
		want = (int64_t)((uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec);
		synth_set_clock(&s, 0, &v0);
		ck_assert_int_eq(convert(&s, tsc), want);
		v1 = advance(v0, back + 12345678);
		synth_set_clock(&s, 0, &v1);
		ck_assert_int_eq(convert(&s, tsc), want);
	}
	synth_free(&s);
}
END_TEST

/* Below tsc_timestamp the pvclock line is extrapolated: earlier values, never a pass. */
START_TEST(pvclock_before_timestamp_extrapolates)
{
	struct synth s;
	struct clockvals v = kvm_clock;
	struct pvvals p = kvm_pv;
	int64_t at, before;

	synth_init(&s, _i);
	synth_set_pv(&s, &p);
	synth_set_clock(&s, 0, &v);
	at = convert(&s, p.tsts);
	before = convert(&s, p.tsts - 2096000000ULL); /* about a second at 2.096 GHz */
	ck_assert_int_lt(before, at);
	ck_assert_int_lt(llabs(at - before - 1000000000LL), 1000000);
	synth_free(&s);
}
END_TEST
#endif

#if FR_ARCH_DELTA_MASKED
/* Both counter modes convert, with a 56-bit and a 64-bit mask, before and after cycle_last. */
START_TEST(masked_late_conversion_is_exact)
{
	static const uint32_t modes[] = { FR_MODE_COUNTER, FR_MODE_COUNTER_ALT };
	static const uint64_t masks[] = { SYNTH_MASK56, ~0ULL };
	struct synth s;

	synth_init(&s, _i);
	for (size_t m = 0; m < 2; m++)
		for (size_t k = 0; k < 2; k++) {
			struct clockvals v0 = tsc_clock, v1;
			uint64_t c = v0.L + 62500000;
			int64_t want;

			v0.mode = modes[m];
			v0.mask = masks[k];
			synth_set_clock(&s, 0, &v0);
			want = expect_ns(&s, &v0, NULL, NULL, c);
			ck_assert_int_eq(convert(&s, c), want);
			v1 = advance(v0, 62500000 + 625000000);
			synth_set_clock(&s, 0, &v1);
			ck_assert_int_eq(convert(&s, c), want);
		}
	synth_free(&s);
}
END_TEST
#endif

START_TEST(time_namespace_offset)
{
	static const struct nsoff off = { 100000, 123456789 };
	struct synth s;
	struct clockvals v = tsc_clock;

	synth_init(&s, _i);
	if (!s.era->timens_page) {
		synth_free(&s);
		return;
	}
	synth_set_timens(&s, &off, s.era->timens_mode);
	synth_set_clock(&s, s.era->timens_page, &v);
	ck_assert_int_eq(convert(&s, v.L + 2500000), expect_ns(&s, &v, NULL, &off, v.L + 2500000));
	synth_free(&s);
}
END_TEST

START_TEST(cannot_convert)
{
	struct synth s;
	struct clockvals v = tsc_clock;
	int64_t ns;

	synth_init(&s, _i);
	v.mode = FR_MODE_NONE;
	synth_set_clock(&s, 0, &v);
	ck_assert_int_eq(fr_ticks_to_ns(&s.kd, v.L + 5, &ns), FR_PASS);
	/* The mode past the last one the architecture knows (read as the counter where the vDSO does). */
	v.mode = FR_MODE_LAST + 1;
	synth_set_clock(&s, 0, &v);
	ck_assert_int_eq(fr_ticks_to_ns(&s.kd, v.L + 5, &ns), FR_ARCH_MODE_ANY_COUNTER ? FR_OK : FR_PASS);
#if FR_ARCH_HAS_VCLOCK
	struct pvvals p = kvm_pv;

	/* hvclock with the Hyper-V page marked invalid (sequence 0). */
	v.mode = FR_MODE_HVCLOCK;
	synth_set_hv(&s, &(struct hvvals){ .seq = 0, .scale = 1ULL << 63, .offset = 0 });
	synth_set_clock(&s, 0, &v);
	ck_assert_int_eq(fr_ticks_to_ns(&s.kd, v.L + 5, &ns), FR_PASS);
	v = kvm_clock;
	p.flags = 0;
	synth_set_pv(&s, &p);
	synth_set_clock(&s, 0, &v);
	ck_assert_int_eq(fr_ticks_to_ns(&s.kd, p.tsts + 5, &ns), FR_PASS);
#endif
	/* Bit 63: the invalid marker up to 6.4; masked off from 6.5; no marker in the generic delta. */
	v = tsc_clock;
	synth_set_clock(&s, 0, &v);
	ck_assert_int_eq(fr_ticks_to_ns(&s.kd, (1ULL << 63) | (v.L + 5), &ns),
			 s.kd.lay->rules == FR_RULES_5_3 ? FR_PASS : FR_OK);
	synth_free(&s);
}
END_TEST

static Suite *convert_suite(void)
{
	Suite *s = suite_create("convert");
	TCase *tc = tcase_create("convert");

	tcase_add_test(tc, ts_ns_is_the_split_sum);
	tcase_add_loop_test(tc, tsc_forward_is_the_reading, 0, N_ERAS);
	tcase_add_loop_test(tc, tsc_late_conversion_is_exact, 0, N_ERAS);
#if FR_ARCH_HAS_VCLOCK
	tcase_add_loop_test(tc, pvclock_late_conversion_is_exact, 0, N_ERAS);
	tcase_add_loop_test(tc, pvclock_before_timestamp_extrapolates, 0, N_ERAS);
	tcase_add_loop_test(tc, hvclock_late_conversion_is_exact, 0, N_ERAS);
#endif
#if FR_ARCH_DELTA_MASKED
	tcase_add_loop_test(tc, masked_late_conversion_is_exact, 0, N_ERAS);
#endif
	tcase_add_loop_test(tc, time_namespace_offset, 0, N_ERAS);
	tcase_add_loop_test(tc, cannot_convert, 0, N_ERAS);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(convert_suite());
}
