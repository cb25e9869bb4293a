/* SPDX-License-Identifier: MIT */
/* Unit tests of rawmath.h: each era's delta rules, normalisation, the pvclock and Hyper-V scaling, against a u128 model. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "math/rawmath.h"
#include "model.h"
#include "run_suite.h"

static const enum fr_rules lib_rules[] = { FR_RULES_5_3, FR_RULES_6_5, FR_RULES_6_10 };
static const enum m_era model_era[] = { M_5_3, M_6_5, M_6_10 };
static const char *const rules_name[] = { "5.3", "6.5", "6.10" };

/* kvm-clock as measured (docs/kernel-data.md §1.2): mult 2^23, shift 23, max_cycles 0x1cd42e4dffb. */
#define KVM_MULT (1u << 23)
#define KVM_SHIFT 23u
#define KVM_MAX 0x1cd42e4dffbULL

static struct fr_raw_vals vals(uint64_t L, uint64_t max, uint32_t mult, uint32_t shift, uint64_t sec,
			       uint64_t B)
{
	struct fr_raw_vals v = { .cycle_last = L, .max_cycles = max, .mult = mult, .shift = shift,
				 .base_sec = sec, .base_nsec = B };
	return v;
}

/* fr_raw_ns under rules i equals the model and, where given, the hand-derived value. */
static void expect_ns(int i, uint64_t c, const struct fr_raw_vals *v, uint64_t want)
{
	uint64_t got = fr_raw_ns(lib_rules[i], c, v);
	uint64_t model = m_raw_ns(model_era[i], c, v->cycle_last, v->max_cycles, v->mult, v->shift,
				  v->base_nsec);

	ck_assert_msg(model == want, "model disagrees with the derivation (rules %s): %llu != %llu",
		      rules_name[i], (unsigned long long)model, (unsigned long long)want);
	ck_assert_msg(got == want, "rules %s: c=%#llx L=%#llx: got %llu, want %llu", rules_name[i],
		      (unsigned long long)c, (unsigned long long)v->cycle_last, (unsigned long long)got,
		      (unsigned long long)want);
}

START_TEST(ordinary_delta)
{
	/* 3 ms of a 1 GHz kvm-clock after the base 123456789 ns: every era gives 126456789. */
	uint64_t L = 1000000000000ULL;
	struct fr_raw_vals v = vals(L, KVM_MAX, KVM_MULT, KVM_SHIFT, 77, 123456789ULL << KVM_SHIFT);

	expect_ns(_i, L + 3000000, &v, 126456789ULL);
	/* c == L: the delta term is zero. */
	expect_ns(_i, L, &v, 123456789ULL);
	/* A TSC clocksource (mult 8004479, shift 24), B with fraction bits: floor((B + d*mult) / 2^24). */
	v = vals(L, 0x7fffffffffULL, 8004479u, 24, 77, (5ULL << 24) + 0xabcdef);
	expect_ns(_i, L + 2500000, &v, ((5ULL << 24) + 0xabcdef + 2500000ULL * 8004479u) >> 24);
}
END_TEST

START_TEST(counter_below_cycle_last)
{
	/* 5.3: not c > L; 6.5: (c-L)&S64_MAX has bit 62; 6.10: c-L > max and bit 62: all give B >> s. */
	uint64_t L = 5000000000ULL, B = (999999999ULL << KVM_SHIFT) | 0x7fffff;
	struct fr_raw_vals v = vals(L, KVM_MAX, KVM_MULT, KVM_SHIFT, 1, B);

	expect_ns(_i, L - 1, &v, 999999999ULL);
	expect_ns(_i, L - 5000000, &v, 999999999ULL);
	expect_ns(_i, 0, &v, 999999999ULL);
}
END_TEST

START_TEST(beyond_max_cycles_128bit)
{
	/*
	 * d = 2^42 > max_cycles with mult 2^23: d*mult = 2^65 overflows 64 bits. 6.10 takes the u128
	 * path: (2^65 + B) >> 23 = 2^42 + (B >> 23). 5.3 and 6.5 wrap: (2^65 + B) mod 2^64 = B.
	 */
	uint64_t L = 1ULL << 40, B = 400000000ULL << KVM_SHIFT;
	struct fr_raw_vals v = vals(L, KVM_MAX, KVM_MULT, KVM_SHIFT, 9, B);
	uint64_t c = L + (1ULL << 42);

	ck_assert_uint_eq(fr_raw_ns(FR_RULES_6_10, c, &v), (1ULL << 42) + 400000000ULL);
	ck_assert_uint_eq(fr_raw_ns(FR_RULES_6_5, c, &v), 400000000ULL);
	ck_assert_uint_eq(fr_raw_ns(FR_RULES_5_3, c, &v), 400000000ULL);
	expect_ns(2, c, &v, (1ULL << 42) + 400000000ULL);

	/* Just past max_cycles without overflow: the u128 path equals the 64-bit formula. */
	expect_ns(2, L + KVM_MAX + 1, &v, (KVM_MAX + 1) + 400000000ULL);
	/* Exactly max_cycles stays on the 64-bit path (d > max is the test). */
	expect_ns(2, L + KVM_MAX, &v, KVM_MAX + 400000000ULL);
	/* d == max_cycles stays on the 64-bit path even where that wraps: 2^42 * 2^23 + B wraps to B. */
	v = vals(L, 1ULL << 42, KVM_MULT, KVM_SHIFT, 9, B);
	expect_ns(2, c, &v, 400000000ULL);
	/* d == max with bit 62: still the 64-bit product, (2^62 + 1) * 4 = 2^64 + 4 wraps to 4, >> 2 = 1. */
	v = vals(0, M_BIT62 + 1, 4, 2, 0, 0);
	expect_ns(2, M_BIT62 + 1, &v, 1);
	/* 6.10 with a small max: d = 2^61 (bit 62 clear), mult 3, shift 1: (3*2^61 + B) >> 1. */
	v = vals(0, 1000, 3, 1, 0, 1);
	expect_ns(2, 1ULL << 61, &v, ((3ULL << 61) + 1) >> 1);
}
END_TEST

START_TEST(delta_bits_62_63)
{
	uint32_t mult = 1000, shift = 4;
	uint64_t B = 16 * 7, L;
	struct fr_raw_vals v;

	/* 6.5: raw delta 2^63 + 50 (bit 63 set, bit 62 clear) masks to 50: (112 + 50000) >> 4 = 3132. */
	L = (1ULL << 63) + 50;
	v = vals(L, 0, mult, shift, 0, B);
	expect_ns(1, 100, &v, (112 + 50 * 1000) >> 4);
	/* 5.3 on the same values: 100 < L, so B >> 4 = 7. */
	expect_ns(0, 100, &v, 7);
	/* 6.10, max 2^40: d = 2^63 + 50 > max, bit 62 clear: (d & S64_MAX) * mult via u128 = same 3132. */
	v.max_cycles = 1ULL << 40;
	expect_ns(2, 100, &v, (112 + 50 * 1000) >> 4);

	/* A forward delta of 2^62 + 7 has bit 62: 6.5 and 6.10 (above max) return B >> s = 7. */
	L = 1000;
	v = vals(L, 1ULL << 40, mult, shift, 0, B);
	expect_ns(1, L + M_BIT62 + 7, &v, 7);
	expect_ns(2, L + M_BIT62 + 7, &v, 7);
	/* 5.3 multiplies and wraps: (112 + (2^62+7)*1000) mod 2^64, then >> 4. */
	expect_ns(0, L + M_BIT62 + 7, &v, fr_u128_lo(m_mul_add(M_BIT62 + 7, 1000, 112)) >> 4);

	/* 6.5: c below L by m <= 2^62 gives a raw delta 2^64 - m with bits 63 and 62: B >> s. */
	v = vals(M_BIT62, 0, mult, shift, 0, B);
	expect_ns(1, 50, &v, 7);
	/*
	 * c below L by m = 2^62 + 50: raw delta 0xBFFF...FFCE has bit 63 but not bit 62, so 6.5
	 * multiplies the masked delta 2^62 - 50, wrapping in 64 bits.
	 */
	v = vals(M_BIT62 + 100, 0, mult, shift, 0, B);
	expect_ns(1, 50, &v, fr_u128_lo(m_mul_add(M_BIT62 - 50, 1000, 112)) >> 4);
}
END_TEST

START_TEST(random_against_model)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL + (uint64_t)_i;

	for (int n = 0; n < 200000; n++) {
		uint64_t r = m_rand(&seed);
		uint64_t L = m_rand(&seed), c, max, got, want;
		uint32_t shift = (uint32_t)(r % 40), mult = (uint32_t)m_rand(&seed);
		struct fr_raw_vals v;

		/* Mostly near L (both signs), sometimes anywhere; max from tiny to huge. */
		switch ((r >> 8) % 4) {
		case 0: c = L + (m_rand(&seed) >> 20); break;
		case 1: c = L - (m_rand(&seed) >> 20); break;
		case 2: c = L + (m_rand(&seed) >> (r >> 16) % 64); break;
		default: c = m_rand(&seed); break;
		}
		max = m_rand(&seed) >> ((r >> 24) % 64);
		v = vals(L, max, mult, shift, 0, m_rand(&seed));
		want = m_raw_ns(model_era[_i], c, L, max, mult, shift, v.base_nsec);
		got = fr_raw_ns(lib_rules[_i], c, &v);
		/* Check's assertions are slow (each one reports a mark point): test, then assert. */
		if (got != want)
			ck_abort_msg("rules %s: c=%#llx L=%#llx max=%#llx mult=%u shift=%u B=%#llx: %llu != %llu",
				     rules_name[_i], (unsigned long long)c, (unsigned long long)L,
				     (unsigned long long)max, mult, shift, (unsigned long long)v.base_nsec,
				     (unsigned long long)got, (unsigned long long)want);
	}
}
END_TEST

/* The generic masked delta (FR_RULES_MASKED) equals the model and the hand-derived value. */
static void expect_masked(uint64_t c, uint64_t L, uint64_t mask, uint32_t mult, uint32_t shift, uint64_t B,
			  uint64_t want)
{
	struct fr_raw_vals v = vals(L, 0, mult, shift, 0, B);
	uint64_t got, model = m_raw_masked(c, L, mask, mult, shift, B);

	v.mask = mask;
	got = fr_raw_ns(FR_RULES_MASKED, c, &v);
	ck_assert_msg(model == want, "model disagrees with the derivation: %llu != %llu", (unsigned long long)model,
		      (unsigned long long)want);
	ck_assert_msg(got == want, "masked: c=%#llx L=%#llx mask=%#llx: got %llu, want %llu", (unsigned long long)c,
		      (unsigned long long)L, (unsigned long long)mask, (unsigned long long)got,
		      (unsigned long long)want);
}

#define MASK56 ((1ULL << 56) - 1)

/* A 62.5 MHz timer (16 ns a tick: mult 2^28, shift 24) with a 56-bit mask, as arm64's generic timer. */
START_TEST(masked_by_hand)
{
	const uint32_t mult = 1u << 28, shift = 24;
	const uint64_t L = 1000, B = 5ULL << 24;

	/* One second: 62.5e6 ticks * 16 ns + 5 ns of base. */
	expect_masked(L + 62500000, L, MASK56, mult, shift, B, 1000000005ULL);
	expect_masked(L, L, MASK56, mult, shift, B, 5);
	/* Past the mask the delta wraps: 2^56 + 3 ticks are 3 ticks. */
	expect_masked(L + (1ULL << 56) + 3, L, MASK56, mult, shift, B, 3 * 16 + 5);
	/*
	 * One tick behind cycle_last: d = 2^56 - 1, d * 2^28 = 2^84 - 2^28, which is -2^28 modulo
	 * 2^64; plus 5 * 2^24 it is 2^64 - 11 * 2^24, so >> 24 gives 2^40 - 11. No clamp to the base.
	 */
	expect_masked(L - 1, L, MASK56, mult, shift, B, (1ULL << 40) - 11);
	/* The same with a 64-bit counter (mask ~0): d = 2^64 - 1, the same residue. */
	expect_masked(L - 1, L, ~0ULL, mult, shift, B, (1ULL << 40) - 11);
	/* A counter wrapped through the mask: L near 2^56, c small again. */
	expect_masked(4, MASK56 - 5, MASK56, mult, shift, B, 10 * 16 + 5);
	/* Bit 63 is no marker: mult 1, shift 0 gives the delta itself. */
	expect_masked((1ULL << 63) + 10, 0, ~0ULL, 1, 0, 0, (1ULL << 63) + 10);
	/* The sum wraps in 64 bits: B = 2^64 - 16, d * mult = 32. */
	expect_masked(L + 2, L, MASK56, 16, 0, (uint64_t)-16, 16);
	/* A machine shift: 64 acts as 0, 65 as 1. */
	expect_masked(L + 5, L, MASK56, 3, 64, 1, 16);
	expect_masked(L + 5, L, MASK56, 3, 65, 1, 8);
	/* A 32-bit mask (the narrowest the checks accept): 2^32 + 9 ticks are 9. */
	expect_masked(L + (1ULL << 32) + 9, L, 0xffffffffULL, 1, 0, 0, 9);
}
END_TEST

/* FR_RULES_MASKED against the model, with 56-bit, 64-bit, 32-bit and random-width low masks. */
START_TEST(masked_random_against_model)
{
	uint64_t seed = 0x6d61736bULL;

	for (int n = 0; n < 200000; n++) {
		uint64_t r = m_rand(&seed), L = m_rand(&seed), c, got, want;
		unsigned width = 32 + (unsigned)(r % 33);
		uint64_t mask = (r >> 8) % 4 == 0 ? MASK56 : (r >> 8) % 4 == 1 ? ~0ULL
							: width == 64 ? ~0ULL : (1ULL << width) - 1;
		uint32_t shift = (uint32_t)((r >> 16) % 40), mult = (uint32_t)m_rand(&seed);
		struct fr_raw_vals v;

		switch ((r >> 24) % 4) {
		case 0: c = L + (m_rand(&seed) >> 20); break;
		case 1: c = L - (m_rand(&seed) >> 20); break;
		case 2: c = L + (m_rand(&seed) >> (r >> 32) % 64); break;
		default: c = m_rand(&seed); break;
		}
		v = vals(L, 0, mult, shift, 0, m_rand(&seed));
		v.mask = mask;
		want = m_raw_masked(c, L, mask, mult, shift, v.base_nsec);
		got = fr_raw_ns(FR_RULES_MASKED, c, &v);
		if (got != want)
			ck_abort_msg("masked: c=%#llx L=%#llx mask=%#llx mult=%u shift=%u B=%#llx: %llu != %llu",
				     (unsigned long long)c, (unsigned long long)L, (unsigned long long)mask, mult, shift,
				     (unsigned long long)v.base_nsec, (unsigned long long)got, (unsigned long long)want);
	}
}
END_TEST

static void expect_ts(uint64_t sec, uint64_t ns, long long want_sec, long want_nsec)
{
	struct timespec ts, m = m_ts(sec, ns);

	fr_ts_set(&ts, sec, ns);
	ck_assert_int_eq(m.tv_sec, want_sec);
	ck_assert_int_eq(m.tv_nsec, want_nsec);
	ck_assert_msg(ts.tv_sec == want_sec && ts.tv_nsec == want_nsec, "fr_ts_set(%llu, %llu) = {%lld, %ld}",
		      (unsigned long long)sec, (unsigned long long)ns, (long long)ts.tv_sec, ts.tv_nsec);
}

START_TEST(ts_set_normalises)
{
	expect_ts(5, 0, 5, 0);
	expect_ts(5, 999999999, 5, 999999999);
	expect_ts(5, 1000000000, 6, 0);
	expect_ts(5, 1999999999, 6, 999999999);
	expect_ts(5, 2000000000, 7, 0);
	expect_ts(5, 2000000001, 7, 1);
	/* 10^15 + 123 ns = 10^6 s + 123 ns. */
	expect_ts(5, 1000000000000000ULL + 123, 1000005, 123);
	/*
	 * The carried seconds are a u32 in the kernel: UINT64_MAX ns = 18446744073 s + 709551615 ns,
	 * and 18446744073 mod 2^32 = 18446744073 - 4 * 4294967296 = 1266874889.
	 */
	expect_ts(0, UINT64_MAX, 1266874889LL, 709551615L);
	/* (2^32 - 1) s still fits; 2^32 s wraps to 0. */
	expect_ts(10, 4294967296000000000ULL - 1, 10 + 4294967295LL, 999999999L);
	expect_ts(10, 4294967296000000000ULL, 10, 0);
	expect_ts(10, 4294967296000000000ULL + 3000000007ULL, 13, 7);
	/* A negative namespace offset: sec = -1 (as u64) plus 1.5 s is 0.5 s. */
	expect_ts((uint64_t)-1, 1500000000, 0, 500000000);

	uint64_t seed = 42;
	for (int n = 0; n < 100000; n++) {
		uint64_t sec = m_rand(&seed) >> 34, ns = m_rand(&seed) >> (n % 64);
		struct timespec ts, m = m_ts(sec, ns);

		fr_ts_set(&ts, sec, ns);
		if (ts.tv_sec != m.tv_sec || ts.tv_nsec != m.tv_nsec)
			ck_abort_msg("fr_ts_set(%llu, %llu) = {%lld, %ld}", (unsigned long long)sec,
				     (unsigned long long)ns, (long long)ts.tv_sec, ts.tv_nsec);
	}
}
END_TEST

static void expect_pv(uint64_t tsc, uint64_t tsts, uint64_t st, uint32_t mul, int8_t sh, uint64_t want)
{
	struct fr_pvclock_vals p = { .tsc_timestamp = tsts, .system_time = st, .mul = mul, .shift = sh };
	uint64_t got = 0, model = 0;

	ck_assert_int_eq(m_pvclock(tsc, tsts, st, mul, sh, &model), 1);
	ck_assert_uint_eq(model, want);
	ck_assert_int_eq(fr_pvclock_cycles(&p, tsc, &got), FR_OK);
	ck_assert_uint_eq(got, want);
}

START_TEST(pvclock_cycles)
{
	uint64_t T = 0x123456789aULL, S = 5000000000000ULL;

	/* tsc == tsc_timestamp: system_time. */
	expect_pv(T, T, S, 0xf446a645u, -1, S);
	/* shift +2, mul 2^31 (one half): 1000 << 2 = 4000, halved = 2000. */
	expect_pv(T + 1000, T, S, 1u << 31, 2, S + 2000);
	/* shift -1, mul 2^31: 1001 >> 1 = 500, halved = 250. */
	expect_pv(T + 1001, T, S, 1u << 31, -1, S + 250);
	/* 128-bit product: 2^40 * mul >> 32 = mul << 8. */
	expect_pv(T + (1ULL << 40), T, S, 0xf446a645u, 0, S + (0xf446a645ULL << 8));
	/* 2^62 * (2^32 - 1) >> 32 = 2^62 - 2^30. */
	expect_pv(T + (1ULL << 62), T, S, 0xffffffffu, 0, S + (1ULL << 62) - (1ULL << 30));
	/* The measured page (mul 0xf446a645, shift -1) over 2e9 TSC cycles: floor(1e9 * mul / 2^32). */
	expect_pv(T + 2000000000ULL, T, S, 0xf446a645u, -1,
		  S + m_mul_shr(1000000000ULL, 0xf446a645u, 32));
	/* shift +4 loses the top bits as the kernel's u64 shift does: (2^61 + 5) << 4 wraps to 80; halved 40. */
	expect_pv(T + (1ULL << 61) + 5, T, S, 1u << 31, 4, S + 40);

	/* Below tsc_timestamp (and delta >= 2^63 as s64): kernels disagree, so FR_PASS. */
	struct fr_pvclock_vals p = { .tsc_timestamp = T, .system_time = S, .mul = 1u << 31, .shift = 0 };
	uint64_t out = 0xdead;

	ck_assert_int_eq(fr_pvclock_cycles(&p, T - 1, &out), FR_PASS);
	ck_assert_int_eq(fr_pvclock_cycles(&p, 0, &out), FR_PASS);
	ck_assert_int_eq(fr_pvclock_cycles(&p, T + (1ULL << 63), &out), FR_PASS);
	ck_assert_uint_eq(out, 0xdead);

	uint64_t seed = 7;
	for (int n = 0; n < 100000; n++) {
		uint64_t ts = m_rand(&seed), tsc = ts + (m_rand(&seed) >> (1 + n % 63)), sys = m_rand(&seed);
		uint32_t mul = (uint32_t)m_rand(&seed);
		int8_t sh = (int8_t)((int)(m_rand(&seed) % 9) - 4);
		uint64_t want = 0, got = 0;

		p = (struct fr_pvclock_vals){ .tsc_timestamp = ts, .system_time = sys, .mul = mul, .shift = sh };
		if (!m_pvclock(tsc, ts, sys, mul, sh, &want) || fr_pvclock_cycles(&p, tsc, &got) != FR_OK ||
		    got != want)
			ck_abort_msg("pvclock tsc=%#llx ts=%#llx mul=%#x shift=%d: %llu != %llu",
				     (unsigned long long)tsc, (unsigned long long)ts, mul, sh,
				     (unsigned long long)got, (unsigned long long)want);
	}
}
END_TEST

/* glibc's 32-bit-time conversion: every int32_t tv_sec passes, one second beyond either end is EOVERFLOW. */
START_TEST(ts_to32_overflow)
{
	static const struct {
		int64_t sec;
		int ok;
	} cases[] = { { 0, 1 },	       { INT32_MAX, 1 }, { (int64_t)INT32_MAX + 1, 0 }, { INT32_MIN, 1 },
		      { (int64_t)INT32_MIN - 1, 0 }, { 1LL << 32, 0 }, { INT64_MAX, 0 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct timespec ts = { .tv_sec = (time_t)cases[i].sec, .tv_nsec = 999999999 };
		int32_t sec = 7, nsec = 8;

		/* A 32-bit time_t cannot hold the cases beyond int32_t: only the ones it can are asked. */
		if ((int64_t)ts.tv_sec != cases[i].sec)
			continue;
		if (cases[i].ok) {
			ck_assert_int_eq(fr_ts_to32(&ts, &sec, &nsec), 0);
			ck_assert_int_eq(sec, (int32_t)cases[i].sec);
			ck_assert_int_eq(nsec, 999999999);
		} else {
			ck_assert_int_eq(fr_ts_to32(&ts, &sec, &nsec), -EOVERFLOW);
			ck_assert_int_eq(sec, 7);
			ck_assert_int_eq(nsec, 8);
		}
	}
}
END_TEST

START_TEST(mul_u64_u32_shr32)
{
	static const uint64_t d_edge[] = { 0, 1, 0xffffffffULL, 1ULL << 32, UINT64_MAX, 1ULL << 63 };
	static const uint32_t m_edge[] = { 0, 1, 0x80000000u, 0xffffffffu };
	uint64_t seed = 99;

	for (size_t i = 0; i < sizeof(d_edge) / sizeof(d_edge[0]); i++)
		for (size_t j = 0; j < sizeof(m_edge) / sizeof(m_edge[0]); j++)
			ck_assert_uint_eq(fr_mul_u64_u32_shr32(d_edge[i], m_edge[j]),
					  m_mul_shr(d_edge[i], m_edge[j], 32));
	/* By hand: 2^33 * 3 >> 32 = 6; (2^64 - 1) * 2^31 >> 32 = 2^63 - 1 (the low half is dropped). */
	ck_assert_uint_eq(fr_mul_u64_u32_shr32(UINT64_MAX, 1u << 31), M_S64_MAX);
	ck_assert_uint_eq(fr_mul_u64_u32_shr32(1ULL << 33, 3), 6);
	for (int n = 0; n < 1000000; n++) {
		uint64_t d = m_rand(&seed) >> (n % 64);
		uint32_t m = (uint32_t)m_rand(&seed);

		if (fr_mul_u64_u32_shr32(d, m) != m_mul_shr(d, m, 32))
			ck_abort_msg("fr_mul_u64_u32_shr32(%#llx, %#x)", (unsigned long long)d, m);
	}
}
END_TEST

START_TEST(cycles_ok_marker)
{
	ck_assert_int_eq(fr_cycles_ok(0), 1);
	ck_assert_int_eq(fr_cycles_ok(M_S64_MAX), 1);
	ck_assert_int_eq(fr_cycles_ok(1ULL << 63), 0);
	ck_assert_int_eq(fr_cycles_ok(UINT64_MAX), 0);
}
END_TEST

/* The high half of a * b from 32-bit limbs, schoolbook: no 128-bit type involved. */
static uint64_t mulhi_limbs(uint64_t a, uint64_t b)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);

	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* fr_hvclock_cycles is mul_u64_u64_shr(tsc, scale, 64) + offset, wrapping, over every bit. */
START_TEST(hvclock_cycles)
{
	static const struct {
		uint64_t tsc, scale, offset, want;
	} hand[] = {
		/* 2.5 GHz TSC, 10 MHz reference: scale = 2^64 / 250, truncated, so 1 s reads 1e7 - 1. */
		{ 2500000000ULL, 0x010624dd2f1a9fbeULL, 0, 9999999 },
		{ 0x123456789abcdef0ULL, 0x0fedcba987654321ULL, 0, 0x0121fa00ad77d742ULL },
		{ 1ULL << 63, 1ULL << 63, 5, (1ULL << 62) + 5 },
		{ ~0ULL, ~0ULL, 0, ~0ULL - 1 },
		{ ~0ULL, ~0ULL, 3, 1 },                        /* the offset's addition wraps */
		{ 1000, 1ULL << 32, (uint64_t)-100, 0 - 100ULL }, /* 1000 * 2^32 >> 64 = 0; a negative offset */
		{ 0, ~0ULL, 42, 42 },
	};
	uint64_t st = 0x4876c10cULL;

	for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
		struct fr_hvclock_vals h = { hand[i].scale, hand[i].offset };
		uint64_t m;

		ck_assert_uint_eq(fr_hvclock_cycles(&h, hand[i].tsc), hand[i].want);
		ck_assert(m_hvclock(hand[i].tsc, 1, hand[i].scale, hand[i].offset, &m));
		ck_assert_uint_eq(m, hand[i].want);
	}
	for (int i = 0; i < 200000; i++) {
		uint64_t tsc = m_rand(&st) >> (m_rand(&st) & 63), scale = m_rand(&st) >> (m_rand(&st) & 63);
		uint64_t offset = m_rand(&st), m;
		struct fr_hvclock_vals h = { scale, offset };

		/* Test, then assert: each Check assertion records a mark point, slow under emulation. */
		if (!m_hvclock(tsc, 7, scale, offset, &m) || fr_hvclock_cycles(&h, tsc) != m ||
		    fr_hvclock_cycles(&h, tsc) != mulhi_limbs(tsc, scale) + offset)
			ck_abort_msg("hvclock tsc=%#llx scale=%#llx offset=%#llx: %#llx, model %#llx, limbs %#llx",
				     (unsigned long long)tsc, (unsigned long long)scale, (unsigned long long)offset,
				     (unsigned long long)fr_hvclock_cycles(&h, tsc), (unsigned long long)m,
				     (unsigned long long)(mulhi_limbs(tsc, scale) + offset));
	}
}
END_TEST

static Suite *rawmath_suite(void)
{
	Suite *s = suite_create("rawmath");
	TCase *tc = tcase_create("raw_ns");

	tcase_add_loop_test(tc, ordinary_delta, 0, 3);
	tcase_add_loop_test(tc, counter_below_cycle_last, 0, 3);
	tcase_add_test(tc, beyond_max_cycles_128bit);
	tcase_add_test(tc, delta_bits_62_63);
	tcase_add_loop_test(tc, random_against_model, 0, 3);
	suite_add_tcase(s, tc);
	/* The generic masked delta is pure math: tested on every architecture. */
	tc = tcase_create("masked");
	tcase_add_test(tc, masked_by_hand);
	tcase_add_test(tc, masked_random_against_model);
	suite_add_tcase(s, tc);
	tc = tcase_create("helpers");
	tcase_add_test(tc, ts_set_normalises);
	tcase_add_test(tc, ts_to32_overflow);
	tcase_add_test(tc, pvclock_cycles);
	tcase_add_test(tc, hvclock_cycles);
	tcase_add_test(tc, mul_u64_u32_shr32);
	tcase_add_test(tc, cycles_ok_marker);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(rawmath_suite());
}
