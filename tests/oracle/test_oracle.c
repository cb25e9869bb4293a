/* SPDX-License-Identifier: MIT */
/* Bit-exactness oracle: the kernel's own vDSO machine code and our math, fed identical TSC values, must agree. */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "math/rawmath.h"
#include "ogen.h"
#include "orun.h"
#include "run_suite.h"
#include "sys/counter.h"

static const char *skip_why;

static void setup(void)
{
	skip_why = orun_open();
}

static void teardown(void)
{
	if (!skip_why)
		orun_close();
}

/* What a regime needs of the running vDSO. */
enum { NEED_COPY = 0, NEED_PVCLOCK = 1, NEED_CARRY = 2 };

/* Check has no skip: print the reason, clearly named, and pass. */
static int skipped(const char *regime, int needs)
{
	const char *why = skip_why;
	struct orun_pv p;

	if (!why && (needs & NEED_CARRY) && !orun_vc.n_carry)
		why = "no carry loop recognised in the vDSO text: huge results would take seconds each";
	if (!why && (needs & NEED_PVCLOCK)) {
		orun_get_pv(&p);
		if (orun_vc.live_mode != FR_MODE_PVCLOCK)
			why = "the live clock mode is not pvclock";
		else if (!(p.flags & FR_PV_STABLE_BIT))
			why = "the pvclock stable bit is clear (the vDSO always falls back)";
		else if (p.tsc_timestamp == 0)
			why = "pvclock tsc_timestamp is 0";
	}
	if (why) {
		printf("SKIP: oracle regime %s: %s\n", regime, why);
		fflush(stdout);
	}
	return why != NULL;
}

/* TSC values around cycle_last's: kvmclock from up to 2^40 cycles below it to 2^43 above (past max_cycles). */
struct around {
	uint64_t lo, span;
};

static struct around around_last(void)
{
	struct orun_clock c;
	struct orun_pv p;
	uint64_t at;
	struct around a;

	orun_get_clock(0, &c);
	orun_get_pv(&p);
	at = ogen_tsc_at_kvmclock(c.cycle_last);
	a.lo = at - p.tsc_timestamp > (1ULL << 40) ? at - (1ULL << 40) : p.tsc_timestamp;
	a.span = at - a.lo + (1ULL << 43);
	return a;
}

/* One pvclock-mode value, classified against the RAW entry of data page `page` first. */
static void one_pv(struct orun_tally *t, struct ogen_classes *cl, unsigned page, uint64_t tsc)
{
	ogen_classify(cl, page, tsc);
	orun_one(t, tsc);
}

START_TEST(regime1_pvclock_snapshot)
{
	struct orun_tally t;
	struct ogen_classes cl = { { 0 } };
	struct around ar;
	struct orun_pv p;
	int ok = 1;

	if (skipped("1 (pvclock, real snapshot)", NEED_PVCLOCK))
		return;
	orun_seed(1);
	orun_get_pv(&p);
	ar = around_last();
	/* Here the kernel's carry loop runs natively: results stay within hours. */
	vcopy_set_carry_shortcut(&orun_vc, 0);
	orun_begin(&t, "1a pvclock tsc in [tsc_timestamp, +2^40)", ORUN_COMPUTE);
	one_pv(&t, &cl, 0, p.tsc_timestamp);
	for (int i = 0; i < ORUN_N; i++)
		one_pv(&t, &cl, 0, p.tsc_timestamp + orun_below(1ULL << 40));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	cl = (struct ogen_classes){ { 0 } };
	orun_begin(&t, "1b pvclock tsc = now + [0, 2^33)", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		uint64_t now = fr_rdtsc();

		one_pv(&t, &cl, 0, (now > p.tsc_timestamp ? now : p.tsc_timestamp) + orun_below(1ULL << 33));
	}
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	cl = (struct ogen_classes){ { 0 } };
	orun_begin(&t, "1c pvclock tsc around cycle_last's", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		one_pv(&t, &cl, 0, ar.lo + orun_below(ar.span));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	ok &= cl.n[OGEN_NORMAL] > 0 && cl.n[OGEN_OVER_MAX] > 0;
	ck_assert_msg(ok, "regime 1: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

START_TEST(regime2_pvclock_huge)
{
	struct orun_tally t;
	struct ogen_classes cl = { { 0 } };
	struct orun_pv p, q;
	struct orun_clock c, real;
	int ok = 1;

	if (skipped("2 (pvclock, huge deltas)", NEED_PVCLOCK | NEED_CARRY))
		return;
	orun_seed(2);
	orun_get_pv(&p);
	orun_get_clock(0, &real);
	vcopy_set_carry_shortcut(&orun_vc, 1);
	orun_begin(&t, "2a pvclock kvmclock - cycle_last > max_cycles", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		one_pv(&t, &cl, 0, ogen_tsc_at_kvmclock(real.cycle_last) + (1ULL << 43) + orun_mag(62));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	ok &= cl.n[OGEN_OVER_MAX] == t.n;
	cl = (struct ogen_classes){ { 0 } };
	orun_begin(&t, "2b pvclock tsc in [tsc_timestamp, 2^63)", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		one_pv(&t, &cl, 0, p.tsc_timestamp + orun_below((1ULL << 63) - p.tsc_timestamp));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	orun_begin(&t, "2c pvclock random mul/shift/base, any delta", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		q = p;
		q.mul = (uint32_t)orun_rand();
		q.shift = (int8_t)((int)orun_below(17) - 8);
		q.system_time = orun_mag(63);
		q.tsc_timestamp = orun_rand();
		orun_set_pv(&q);
		c = i % 2 ? real : ogen_random_clock();
		c.cycle_last = q.system_time + orun_mag(62) - orun_mag(62);
		orun_set_clock(0, FR_MODE_PVCLOCK, &c);
		orun_one(&t, q.tsc_timestamp + orun_mag(63));
	}
	ok &= orun_end(&t);
	orun_reset_pages();
	ck_assert_msg(ok, "regime 2: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

START_TEST(regime3_pvclock_below_timestamp)
{
	struct orun_tally t;
	struct orun_pv p;
	uint64_t near;
	int ok = 1;

	if (skipped("3 (pvclock, tsc below tsc_timestamp)", NEED_PVCLOCK | NEED_CARRY))
		return;
	orun_seed(3);
	orun_get_pv(&p);
	near = p.tsc_timestamp < (1ULL << 40) ? p.tsc_timestamp : 1ULL << 40;
	vcopy_set_carry_shortcut(&orun_vc, 1);
	/* Mainline wraps here, this vendor kernel clamps: ours must leave every one to the vDSO. */
	orun_begin(&t, "3a pvclock tsc in [ts - 2^40, ts)", ORUN_PASS);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, p.tsc_timestamp - 1 - orun_below(near));
	ok &= orun_end(&t);
	orun_begin(&t, "3b pvclock tsc in [0, ts)", ORUN_PASS);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, orun_below(p.tsc_timestamp));
	ok &= orun_end(&t);
	orun_begin(&t, "3c pvclock tsc - ts in [2^63, 2^64)", ORUN_PASS);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, p.tsc_timestamp + (1ULL << 63) + orun_below(1ULL << 63));
	ok &= orun_end(&t);
	ck_assert_msg(ok, "regime 3: ours did not pass every value below tsc_timestamp to the vDSO");
}
END_TEST

START_TEST(regime4_tsc_synthetic)
{
	static const char *const names[6] = {
		"4a tsc mode: above cycle_last", "4b tsc mode: below cycle_last", "4c tsc mode: beyond max_cycles",
		"4d tsc mode: bit 63 set", "4e tsc mode: tsc in [0, 2^44)", "4f tsc mode: random 64-bit tsc",
	};
	struct orun_tally t;
	struct orun_clock c;
	int ok = 1;

	if (skipped("4 (synthetic TSC mode)", NEED_CARRY))
		return;
	orun_seed(4);
	vcopy_set_carry_shortcut(&orun_vc, 1);
	for (unsigned kind = 0; kind < 6; kind++) {
		c = ogen_base_clock();
		if (kind == 4)
			c.cycle_last = orun_below(1ULL << 44);
		orun_set_clock(0, FR_MODE_TSC, &c);
		orun_begin(&t, names[kind], ORUN_COMPUTE);
		orun_one(&t, c.cycle_last);
		for (int i = 0; i < ORUN_N; i++)
			orun_one(&t, ogen_tsc_kind(&c, kind));
		ok &= orun_end(&t);
	}
	orun_begin(&t, "4g tsc mode: random mult/shift/base, all kinds", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		c = ogen_random_clock();
		orun_set_clock(0, FR_MODE_TSC, &c);
		orun_one(&t, ogen_tsc_kind(&c, (unsigned)i));
	}
	ok &= orun_end(&t);
	orun_reset_pages();
	ck_assert_msg(ok, "regime 4: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

START_TEST(regime5_time_namespace)
{
	struct orun_tally t;
	struct orun_clock c;
	struct orun_pv p;
	struct ogen_classes cl = { { 0 } };
	struct around ar;
	uint64_t sec, nsec;
	int ok = 1, pv;

	if (skipped("5 (synthetic time namespace)", NEED_CARRY))
		return;
	pv = !skipped("5a/5b (time namespace over pvclock)", NEED_PVCLOCK);
	orun_seed(5);
	orun_get_pv(&p);
	ar = around_last();
	vcopy_set_carry_shortcut(&orun_vc, 1);
	if (pv) {
		orun_set_timens(100000, 123456789);
		orun_begin(&t, "5a timens +100000.123456789 s, pvclock", ORUN_COMPUTE);
		for (int i = 0; i < ORUN_N; i++)
			one_pv(&t, &cl, 1, ar.lo + orun_below(ar.span));
		ok &= orun_end(&t);
		ogen_print_classes(t.name, &cl);
		orun_begin(&t, "5b timens random offsets, pvclock", ORUN_COMPUTE);
		for (int i = 0; i < ORUN_N; i++) {
			ogen_offset(&sec, &nsec);
			orun_set_timens(sec, nsec);
			orun_one(&t, i % 2 ? ar.lo + orun_below(ar.span) : p.tsc_timestamp + orun_mag(62));
		}
		ok &= orun_end(&t);
	}
	orun_reset_pages();
	orun_set_timens(100000, 123456789);
	c = ogen_base_clock();
	orun_set_clock(1, FR_MODE_TSC, &c);
	orun_begin(&t, "5c timens +100000.123456789 s, tsc mode", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, ogen_tsc_kind(&c, (unsigned)i));
	ok &= orun_end(&t);
	orun_begin(&t, "5d timens random offsets, random tsc clock", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		ogen_offset(&sec, &nsec);
		orun_set_timens(sec, nsec);
		c = ogen_random_clock();
		orun_set_clock(1, FR_MODE_TSC, &c);
		orun_one(&t, ogen_tsc_kind(&c, (unsigned)i));
	}
	ok &= orun_end(&t);
	orun_reset_pages();
	ck_assert_msg(ok, "regime 5: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

/*
 * The carry loops' closed form (vcopy.c) against the kernel's loops run natively. With mult 1,
 * shift 0 and a zero base, ns = tsc; 2^32 s + 5 ns takes the native loop about 2 s and shows
 * the kernel's 32-bit seconds carry.
 */
START_TEST(carry_closed_form)
{
	static const uint64_t ns[] = {
		0, 999999999, 1000000000, 3999999999, 123456789012345, 4294967296000000005ULL,
	};
	const struct orun_clock c = { .max_cycles = ~0ULL, .mult = 1, .shift = 0 };
	int ok = 1;

	if (skipped("carry (closed form of the carry loops)", NEED_CARRY))
		return;
	orun_set_clock(0, FR_MODE_TSC, &c);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct timespec closed, native;
		struct vc_call call;

		vcopy_set_carry_shortcut(&orun_vc, 1);
		vcopy_gettime(&orun_vc, CLOCK_MONOTONIC_RAW, ns[i], &closed, &call);
		vcopy_set_carry_shortcut(&orun_vc, 0);
		vcopy_gettime(&orun_vc, CLOCK_MONOTONIC_RAW, ns[i], &native, &call);
		printf("oracle: carry: ns=%llu native=%lld.%09ld closed-form=%lld.%09ld\n", (unsigned long long)ns[i],
		       (long long)native.tv_sec, native.tv_nsec, (long long)closed.tv_sec, closed.tv_nsec);
		ok &= native.tv_sec == closed.tv_sec && native.tv_nsec == closed.tv_nsec;
	}
	orun_reset_pages();
	ck_assert_msg(ok, "the carry loops' closed form differs from the kernel's native loops");
}
END_TEST

/* What the copy looks like: the sites that were patched. Informational. */
START_TEST(copy_sites)
{
	if (skipped("0 (vDSO copy)", NEED_COPY))
		return;
	printf("oracle: vDSO copy: live mode %s; %d lfence;rdtsc site(s):", fr_mode_name(orun_vc.live_mode),
	       orun_vc.n_rdtsc);
	for (int i = 0; i < orun_vc.n_rdtsc; i++)
		printf(" %#lx", (unsigned long)(orun_vc.rdtsc_at[i] - (uintptr_t)orun_vc.text));
	printf("; %d carry loop(s); %d fallback syscall(s)\n", orun_vc.n_carry, orun_vc.n_syscall);
	fflush(stdout);
	ck_assert_int_gt(orun_vc.n_rdtsc, 0);
}
END_TEST

static Suite *oracle_suite(void)
{
	Suite *s = suite_create("oracle");
	TCase *tc = tcase_create("oracle");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, copy_sites);
	tcase_add_test(tc, carry_closed_form);
	tcase_add_test(tc, regime1_pvclock_snapshot);
	tcase_add_test(tc, regime2_pvclock_huge);
	tcase_add_test(tc, regime3_pvclock_below_timestamp);
	tcase_add_test(tc, regime4_tsc_synthetic);
	tcase_add_test(tc, regime5_time_namespace);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(oracle_suite());
}
