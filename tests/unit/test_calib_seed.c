/* SPDX-License-Identifier: MIT */
/* Unit tests of calib_seed.c: eligibility, CPUID rates, mult conversions. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "run_suite.h"
#include "calib/calib_seed.h"
#include "math/wide.h"
#include "calib_seed_cases.h"

/* The eligibility rule in the CPU's words and x86's CPUID rates are the CPU's: tests/oracle/<cpu>/calib_seed_cpu.c. */

/* What a case's page says, as fr_cal_seed_eligible's kernel_counter. */
static const int kernel_counter_of[] = { [PAGE_NONE] = -1, [PAGE_COUNTER] = 1, [PAGE_OTHER] = 0 };

/*
 * Each case's verdict, and for a refusal that the reason names the failing half of the rule:
 * "not invariant" and not_invariant_word for the counter, untrusted_word for the kernel's trust.
 */
void check_cases(const struct elig_case *cases, size_t n, const char *not_invariant_word,
		 const char *untrusted_word)
{
	for (size_t i = 0; i < n; i++) {
		struct fr_cpu_features cpu = { .ordered_read = 1, .invariant_counter = cases[i].invariant };
		const char *why = fr_cal_seed_eligible(&cpu, kernel_counter_of[cases[i].page], cases[i].cs, cases[i].ci, NULL);

		if (cases[i].eligible) {
			ck_assert_msg(why == NULL, "case %zu: not eligible: %s", i, why);
			continue;
		}
		ck_assert_msg(why != NULL, "case %zu: eligible, should not be", i);
		if (!cases[i].invariant && cases[i].page != PAGE_COUNTER) {
			ck_assert_msg(strstr(why, "not invariant") && strstr(why, not_invariant_word), "case %zu: %s",
				      i, why);
			/* A page that names another clock is the kernel's refusal: the reason says so. */
			ck_assert_msg(!strstr(why, "data page") == (cases[i].page == PAGE_NONE), "case %zu: %s", i, why);
		} else
			ck_assert_msg(strstr(why, untrusted_word), "case %zu: %s", i, why);
	}
}

/* round(2^32 * 1e9 / hz), in long double: the reference for every CPUID-derived mult. */
uint64_t ref_mult_hz(long double hz)
{
	return (uint64_t)llroundl(TWO32 * 1e9L / hz);
}

/* The generic rule over any architecture's candidates: the first usable rate, in order. */
START_TEST(rates_in_order)
{
	struct fr_arch_rates rates = { 3, { { 1, 1ull << 40, "too slow" }, { 25000000, 0, "no denominator" },
					    { 24000000, 1, "counter frequency" } } };
	struct fr_cal_seed s = { .mult = 12345, .source = "junk", .kmult = 7, .kshift = 7 };

	fr_cal_seed_from_rates(&rates, &s);
	ck_assert_str_eq(s.source, "counter frequency");
	ck_assert_msg(s.mult == ref_mult_hz(24000000.0L), "mult %llu", (unsigned long long)s.mult);
	rates.n = 2;
	fr_cal_seed_from_rates(&rates, &s);
	ck_assert_str_eq(s.source, "none");
	ck_assert_uint_eq(s.mult, 0);
	rates.n = 0;
	fr_cal_seed_from_rates(&rates, &s);
	ck_assert_str_eq(s.source, "none");
}
END_TEST

START_TEST(mult_from_khz)
{
	static const uint64_t khz[] = { 1, 3, 999, 19200, 1000000, 2096006, 2112000, 3000000, 3579545,
					4294967295ULL, 1000000000000ULL };

	for (size_t i = 0; i < sizeof(khz) / sizeof(khz[0]); i++) {
		uint64_t m = fr_cal_seed_mult_from_khz(khz[i]);
		fr_s128 scaled = fr_s128_of_u(fr_u128_mul(m, khz[i])), target = fr_s128_of((int64_t)1000000 << 32);
		fr_s128 diff = fr_s128_sub(scaled, target);
		fr_s128 err = fr_s128_lt(diff, fr_s128_of(0)) ? fr_s128_neg(diff) : diff;

		ck_assert_msg(m == (uint64_t)llroundl(1e6L * TWO32 / khz[i]), "%llu kHz: %llu",
			      (unsigned long long)khz[i], (unsigned long long)m);
		/* Rounded to nearest: |m * khz - 1e6 * 2^32| <= khz / 2. */
		ck_assert_msg(!fr_u128_gt64(fr_s128_to_u(err), khz[i] / 2), "%llu kHz not rounded to nearest",
			      (unsigned long long)khz[i]);
	}
	ck_assert_uint_eq(fr_cal_seed_mult_from_khz(1000000), 1ULL << 32);
	ck_assert_uint_eq(fr_cal_seed_mult_from_khz(0), 0);
	/* So fast that a tick rounds to 0 ns in 32.32: unknown, not a wrong rate. */
	ck_assert_uint_eq(fr_cal_seed_mult_from_khz(UINT64_MAX), 0);
}
END_TEST

START_TEST(mult_from_shift)
{
	static const uint32_t mults[] = { 0, 1, 3, 8004479, 1u << 23, 0x80000000u, 0xffffffffu };
	static const uint32_t shifts[] = { 0, 1, 8, 22, 23, 24, 31, 32, 33, 40, 63, 64, 65, 200, 0xffffffffu };

	for (size_t i = 0; i < sizeof(mults) / sizeof(mults[0]); i++)
		for (size_t j = 0; j < sizeof(shifts) / sizeof(shifts[0]); j++) {
			long long e = 32 - (long long)shifts[j];
			long double want = floorl(ldexpl(mults[i], (int)(e < -100 ? -100 : e)));
			uint64_t got = fr_cal_seed_mult_from_shift(mults[i], shifts[j]);

			ck_assert_msg((long double)got == want, "mult %u shift %u: %llu, want %.0Lf", mults[i],
				      shifts[j], (unsigned long long)got, want);
		}
}
END_TEST

START_TEST(mult_from_pvclock)
{
	static const uint32_t muls[] = { 0, 1, 0x80000000u, 0xf446a645u, 0xf4462c11u, 0xffffffffu };

	for (size_t i = 0; i < sizeof(muls) / sizeof(muls[0]); i++)
		for (int sh = -128; sh <= 127; sh++) {
			/* Exact in long double (a 32-bit value times a power of two); beyond 64 bits: 0. */
			long double want = floorl(ldexpl(muls[i], sh));
			uint64_t got = fr_cal_seed_mult_from_pvclock(muls[i], (int8_t)sh);

			if (want >= TWO32 * TWO32)
				want = 0;
			ck_assert_msg((long double)got == want, "mul %#x shift %d: %llu, want %.0Lf", muls[i], sh,
				      (unsigned long long)got, want);
		}
}
END_TEST

static void expect_ppm(uint64_t got, uint64_t ref, const char *what)
{
	long double rel = fabsl(((long double)got - (long double)ref) / (long double)ref);

	ck_assert_msg(ref != 0 && rel <= 1e-6L, "%s: %llu vs %llu (%.3Lf ppm)", what, (unsigned long long)got,
		      (unsigned long long)ref, rel * 1e6L);
}

START_TEST(shift_and_pvclock_agree_with_khz)
{
	static const struct {
		uint64_t khz;
		uint32_t shift;
	} cs[] = { { 2096006, 24 }, { 2096006, 31 }, { 3000000, 22 }, { 3000000, 31 }, { 19200, 24 },
		   { 1000000, 23 }, { 4700000, 23 } };

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		/* A kernel-style mult: round((1e9 << shift) / hz), which must fit 32 bits. */
		uint64_t hz = cs[i].khz * 1000;
		uint64_t mult = fr_u128_lo(fr_u128_div64(fr_u128_add64(fr_u128_shl(fr_u128_of(1000000000), cs[i].shift), hz / 2), hz));

		ck_assert_uint_lt(mult, 1ULL << 32);
		expect_ppm(fr_cal_seed_mult_from_shift((uint32_t)mult, cs[i].shift), fr_cal_seed_mult_from_khz(cs[i].khz),
			   "clocksource mult/shift");
	}
	/* kvm-clock's 1 GHz (mult 2^23, shift 23) is exactly 1 ns per tick. */
	ck_assert_uint_eq(fr_cal_seed_mult_from_shift(1u << 23, 23), fr_cal_seed_mult_from_khz(1000000));
	/* The synthetic TSC mode of docs/kernel-data.md §1.3: 8004479/24 is 2095978.514 kHz. */
	expect_ppm(fr_cal_seed_mult_from_shift(8004479, 24), fr_cal_seed_mult_from_khz(2095979), "8004479/24");
	/* This project's VMs: pvclock mul 0xf4462c11, shift -1 is 2096.006 MHz (docs/tools.md). */
	expect_ppm(fr_cal_seed_mult_from_pvclock(0xf4462c11u, -1), fr_cal_seed_mult_from_khz(2096006), "pvclock");
	/* The pvclock page of docs/kernel-data.md §1.2: 0xf446a645, -1 is 2095.990 MHz. */
	expect_ppm(fr_cal_seed_mult_from_pvclock(0xf446a645u, -1), fr_cal_seed_mult_from_khz(2095990), "pvclock §1.2");
	/* A slow TSC: mul 0.5 scaled by 2^2 is 2 ns per tick, 500 MHz. */
	ck_assert_uint_eq(fr_cal_seed_mult_from_pvclock(0x80000000u, 2), fr_cal_seed_mult_from_khz(500000));
}
END_TEST

static Suite *calib_seed_suite(void)
{
	Suite *s = suite_create("calib_seed");
	TCase *tc;

	tc = tcase_create("eligible");
	calib_seed_cpu_eligibility(tc);
	suite_add_tcase(s, tc);

	tc = tcase_create("rates");
	tcase_add_test(tc, rates_in_order);
	suite_add_tcase(s, tc);

	calib_seed_cpu_tcases(s);

	tc = tcase_create("mult");
	tcase_add_test(tc, mult_from_khz);
	tcase_add_test(tc, mult_from_shift);
	tcase_add_test(tc, mult_from_pvclock);
	tcase_add_test(tc, shift_and_pvclock_agree_with_khz);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(calib_seed_suite());
}
