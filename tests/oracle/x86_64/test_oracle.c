/* SPDX-License-Identifier: MIT */
/* Bit-exactness oracle: the kernel's own vDSO machine code and our math, fed identical TSC values, must agree. */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "math/rawmath.h"
#include "values.h"
#include "../vvar_entry.h"
#include "compare.h"
#include "../seq_writer.h"
#include "regimes.h"
#include "arch/arch.h"
#include "sites.h"

static const char *open_why;
static int open_fatal;

static void setup(void)
{
	open_why = orun_open(&open_fatal);
	if (!open_why)
		snprintf(orun_sum->counter, sizeof(orun_sum->counter), "%s", vsites_counter_name(&orun_vc.sites));
}

static void teardown(void)
{
	if (!open_why)
		orun_close();
}

int oracle_ready(const char *regime)
{
	if (open_why && open_fatal)
		ck_abort_msg("oracle: this process has a vDSO with RAW data, but it cannot be analysed: %s", open_why);
	if (open_why) {
		orun_skip(regime, open_why);
		return 0;
	}
	orun_sum->regimes++;
	return 1;
}

int oracle_has_reader(const char *regime, const char *what, uint64_t tsc)
{
	char why[160];

	if (orun_has_reader(tsc))
		return 1;
	/* Counted as run above; a regime whose code is absent is a skip instead. */
	orun_sum->regimes--;
	snprintf(why, sizeof(why), "this vDSO has no reader for %s: a valid synthetic page makes it call the kernel", what);
	orun_skip(regime, why);
	return 0;
}

/* Regime 4: synthetic TSC-mode clocks; 4h runs seq_writer.h's writer (seq + 2 at the counter read). */
START_TEST(regime4_tsc_synthetic)
{
	static const char *const names[6] = {
		"4a tsc mode: above cycle_last", "4b tsc mode: below cycle_last", "4c tsc mode: beyond max_cycles",
		"4d tsc mode: bit 63 set", "4e tsc mode: tsc in [0, 2^44)", "4f tsc mode: random 64-bit tsc",
	};
	struct orun_tally t;
	struct orun_clock c;
	int ok = 1;

	if (!oracle_ready("4 (synthetic TSC mode)"))
		return;
	orun_reset_pages();
	orng_seed(4);
	vcopy_set_carry_shortcut(&orun_vc, 1);
	for (unsigned kind = 0; kind < 6; kind++) {
		c = ogen_base_clock();
		if (kind == 4)
			c.cycle_last = orng_below(1ULL << 44);
		orun_set_clock(0, FR_MODE_COUNTER, &c);
		orun_begin(&t, names[kind], ORUN_COMPUTE);
		orun_one(&t, c.cycle_last);
		for (int i = 0; i < ORUN_N; i++)
			orun_one(&t, ogen_tsc_kind(&c, kind));
		ok &= orun_end(&t);
	}
	orun_begin(&t, "4g tsc mode: random mult/shift/base, all kinds", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		c = ogen_random_clock();
		orun_set_clock(0, FR_MODE_COUNTER, &c);
		orun_one(&t, ogen_tsc_kind(&c, (unsigned)i));
	}
	ok &= orun_end(&t);
	/* A writer finishes an update at the counter read (seq + 2, new cycle_last): both read again. */
	c = ogen_base_clock();
	orun_set_clock(0, FR_MODE_COUNTER, &c);
	orun_begin(&t, "4h tsc mode: seq bumped at the counter read", ORUN_COMPUTE);
	t.reads = 2;
	oseq_arm(orun_vc.vvar + orun_kd.lay->data_off + orun_kd.lay->clock_size, oe_get32(orun_vc.vvar + orun_kd.lay->data_off + orun_kd.lay->clock_size + FR_OFF_SEQ));
	oseq_arm_also(orun_vc.vvar + orun_kd.lay->data_off);
	orun_set_hooks(oseq_before, oseq_on_read);
	for (int i = 0; i < ORUN_N; i++) {
		uint64_t after = oseq_next(c.cycle_last);

		orun_one2(&t, c.cycle_last + orng_below(1ULL << 32), after + orng_below(1ULL << 32));
	}
	orun_set_hooks(NULL, NULL);
	ok &= orun_end(&t);
	/* The live TSC-mode snapshot, as copied, at counter values from now on. */
	if (orun_vc.live_mode == FR_MODE_COUNTER) {
		orun_use_live_page();
		orun_get_clock(0, &c);
		orun_begin(&t, "4i tsc mode: live snapshot, tsc = now + [0, 2^33)", ORUN_COMPUTE);
		for (int i = 0; i < ORUN_N; i++)
			orun_one(&t, fr_arch_counter_unordered() + orng_below(1ULL << 33));
		ok &= orun_end(&t);
	}
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
	struct ogen_around ar;
	uint64_t sec, nsec;
	int ok = 1, pv;

	if (!oracle_ready("5 (synthetic time namespace)"))
		return;
	if (!orun_timens_page()) {
		/* Counted as run by oracle_ready: a regime the kernel provably has no code for is a skip. */
		orun_sum->regimes--;
		orun_skip("5 (synthetic time namespace)", "this kernel era (before 5.6) has no time namespaces");
		return;
	}
	orun_reset_pages();
	orun_get_pv(&p);
	pv = orun_has_reader(p.tsc_timestamp + 1000);
	if (!pv)
		orun_skip("5a/5b (time namespace over pvclock)", "this vDSO has no pvclock reader");
	orng_seed(5);
	orun_get_pv(&p);
	ar = ogen_around_last();
	vcopy_set_carry_shortcut(&orun_vc, 1);
	if (pv) {
		orun_set_timens(100000, 123456789);
		orun_begin(&t, "5a timens +100000.123456789 s, pvclock", ORUN_COMPUTE);
		for (int i = 0; i < ORUN_N; i++)
			ogen_one_pv(&t, &cl, orun_timens_page(), ar.lo + orng_below(ar.span));
		ok &= orun_end(&t);
		ogen_print_classes(t.name, &cl);
		orun_begin(&t, "5b timens random offsets, pvclock", ORUN_COMPUTE);
		for (int i = 0; i < ORUN_N; i++) {
			ogen_offset(&sec, &nsec);
			orun_set_timens(sec, nsec);
			orun_one(&t, i % 2 ? ar.lo + orng_below(ar.span) : p.tsc_timestamp + orng_mag(62));
		}
		ok &= orun_end(&t);
	}
	orun_reset_pages();
	orun_set_timens(100000, 123456789);
	c = ogen_base_clock();
	orun_set_clock(orun_timens_page(), FR_MODE_COUNTER, &c);
	orun_begin(&t, "5c timens +100000.123456789 s, tsc mode", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, ogen_tsc_kind(&c, (unsigned)i));
	ok &= orun_end(&t);
	orun_begin(&t, "5d timens random offsets, random tsc clock", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		ogen_offset(&sec, &nsec);
		orun_set_timens(sec, nsec);
		c = ogen_random_clock();
		orun_set_clock(orun_timens_page(), FR_MODE_COUNTER, &c);
		orun_one(&t, ogen_tsc_kind(&c, (unsigned)i));
	}
	ok &= orun_end(&t);
	orun_reset_pages();
	ck_assert_msg(ok, "regime 5: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

/*
 * The carry loops' closed form (vdso_copy.c) against the kernel's loops run natively. With mult 1,
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

	if (!oracle_ready("carry (closed form of the carry loops)"))
		return;
	orun_reset_pages();
	orun_set_clock(0, FR_MODE_COUNTER, &c);
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

/* What the copy looks like: the counter reads and other sites that were patched. */
START_TEST(copy_sites)
{
	const struct vsites *vs = &orun_vc.sites;

	if (!oracle_ready("0 (vDSO copy)"))
		return;
	orun_sum->regimes--; /* a description, not a comparison */
	printf("oracle: vDSO copy: era %s, live mode %s%s, counter %s at", orun_kd.lay->name,
	       fr_mode_name(orun_vc.live_mode), orun_vc.live_in_timens ? " (in a time namespace)" : "",
	       vsites_counter_name(vs));
	for (int i = 0; i < vs->n_read; i++)
		printf(" %#lx", (unsigned long)vs->read[i].at);
	printf("; %d carry loop(s); %d fallback syscall(s); %u unmatched counter-like byte pair(s); TSC_AUX %#x\n",
	       vs->n_carry, vs->n_syscall, vs->unmatched, orun_vc.tsc_aux);
	fflush(stdout);
	ck_assert_int_gt(vs->n_read, 0);
	ck_assert_str_ne(vsites_counter_name(vs), "mixed");
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
	oracle_add_pvclock(tc);
	tcase_add_test(tc, regime4_tsc_synthetic);
	tcase_add_test(tc, regime5_time_namespace);
	oracle_add_hvclock(tc);
	suite_add_tcase(s, tc);
	return s;
}

/* One line for the whole run, which the kernel matrix greps in every guest. */
static void print_summary(void)
{
	printf("oracle: counter=%s regimes=%u compared=%u differences=%u failed=%u skipped=%u (%s)\n",
	       orun_sum->counter[0] ? orun_sum->counter : "none", orun_sum->regimes, orun_sum->compared,
	       orun_sum->differences, orun_sum->failed, orun_sum->skipped,
	       orun_sum->reasons[0] ? orun_sum->reasons : "none");
	fflush(stdout);
}

int main(void)
{
	SRunner *sr;

	/* Check forks a process per test: the totals live in memory they all share. */
	orun_sum = mmap(NULL, sizeof(*orun_sum), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (orun_sum == MAP_FAILED)
		return EXIT_FAILURE;
	memset(orun_sum, 0, sizeof(*orun_sum));
	sr = srunner_create(oracle_suite());
	srunner_run_all(sr, CK_NORMAL);
	orun_sum->failed = (unsigned)srunner_ntests_failed(sr);
	srunner_free(sr);
	print_summary();
	return orun_sum->failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
