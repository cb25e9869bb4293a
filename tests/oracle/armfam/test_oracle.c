/* SPDX-License-Identifier: MIT */
/* Bit-exactness oracle on the ARM family (arm64, 32-bit ARM): the kernel's own vDSO machine code and our math, fed identical counter values, must agree. */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "compare.h"
#include "regimes.h"

static const char *open_why;
static int open_fatal;

static void setup(void)
{
	open_why = aorun_open(&open_fatal);
	if (!open_why)
		snprintf(aorun_sum->counter, sizeof(aorun_sum->counter), "%s", asites_counter_name(&aorun_ac.sites));
}

static void teardown(void)
{
	if (!open_why)
		aorun_close();
}

int oracle_ready(const char *regime)
{
	if (open_why && open_fatal)
		ck_abort_msg("oracle: this process has a vDSO with RAW data, but it cannot be analysed: %s", open_why);
	if (open_why) {
		aorun_skip(regime, open_why);
		return 0;
	}
	aorun_sum->regimes++;
	return 1;
}

/*
 * The carry loops' closed form (vdso_copy.c) against the kernel's loops run natively. With mult 1,
 * shift 0 and a zero base, ns = counter. Native loops run one pass per second carried, so the
 * values stay below 2^20 s (the 32-bit wrap of the carried seconds is in regime 3a's values).
 */
START_TEST(carry_closed_form)
{
	static const uint64_t ns[] = {
		0, 999999999, 1000000000, 3999999999, 123456789012345, 1048575999999999,
	};
	const struct aorun_clock c = { .mask = ~0ULL, .mult = 1, .shift = 0 };
	int ok = 1;

	if (!oracle_ready("carry (closed form of the carry loops)"))
		return;
	aorun_reset_pages();
	aorun_set_clock(0, FR_MODE_COUNTER, &c);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct timespec closed, native;
		struct ac_call call;

		acopy_set_carry_shortcut(&aorun_ac, 1);
		acopy_gettime(&aorun_ac, CLOCK_MONOTONIC_RAW, ns[i], &closed, &call);
		acopy_set_carry_shortcut(&aorun_ac, 0);
		acopy_gettime(&aorun_ac, CLOCK_MONOTONIC_RAW, ns[i], &native, &call);
		printf("oracle: carry: ns=%llu native=%lld.%09ld closed-form=%lld.%09ld\n", (unsigned long long)ns[i],
		       (long long)native.tv_sec, native.tv_nsec, (long long)closed.tv_sec, closed.tv_nsec);
		ok &= native.tv_sec == closed.tv_sec && native.tv_nsec == closed.tv_nsec;
	}
	acopy_set_carry_shortcut(&aorun_ac, 1);
	aorun_reset_pages();
	ck_assert_msg(ok, "the carry loops' closed form differs from the kernel's native loops");
}
END_TEST

/* What the copy looks like: the counter reads and other sites that were rerouted. */
START_TEST(copy_sites)
{
	const struct asites *s = &aorun_ac.sites;

	if (!oracle_ready("0 (vDSO copy)"))
		return;
	aorun_sum->regimes--; /* a description, not a comparison */
	printf("oracle: vDSO copy: era %s, live mode %d%s, counter frequency %llu Hz, counter %s at", aorun_kd.lay->name,
	       aorun_ac.live_mode, aorun_ac.live_in_timens ? " (in a time namespace)" : "",
	       (unsigned long long)aorun_ac.cntfrq, asites_counter_name(s));
	for (int i = 0; i < s->n_read; i++)
		if (s->read[i].live)
			printf(" %#lx", (unsigned long)s->read[i].at);
	printf(" (+%d in alternative replacements); %d carry loop(s); %d fallback svc(s)\n", s->n_read - s->n_live,
	       s->n_carry, s->n_syscall);
	fflush(stdout);
	ck_assert_int_gt(s->n_live, 0);
	ck_assert_str_ne(asites_counter_name(s), "mixed");
}
END_TEST

static Suite *oracle_suite(void)
{
	Suite *s = suite_create("oracle");
	TCase *tc = tcase_create("oracle");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, copy_sites);
	tcase_add_test(tc, carry_closed_form);
	oracle_add_regimes(tc);
	suite_add_tcase(s, tc);
	return s;
}

/* One line for the whole run, which the kernel matrix greps in every guest. */
static void print_summary(void)
{
	printf("oracle: counter=%s regimes=%u compared=%u differences=%u failed=%u skipped=%u (%s)\n",
	       aorun_sum->counter[0] ? aorun_sum->counter : "none", aorun_sum->regimes, aorun_sum->compared,
	       aorun_sum->differences, aorun_sum->failed, aorun_sum->skipped,
	       aorun_sum->reasons[0] ? aorun_sum->reasons : "none");
	fflush(stdout);
}

int main(void)
{
	SRunner *sr;
	int fatal, skip;
	const char *why;

	/* Check forks a process per test: the totals live in memory they all share. */
	aorun_sum = mmap(NULL, sizeof(*aorun_sum), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (aorun_sum == MAP_FAILED)
		return EXIT_FAILURE;
	memset(aorun_sum, 0, sizeof(*aorun_sum));
	/* Nothing to copy at all (qemu-user, a kernel without RAW data): the whole suite skips. */
	why = aorun_open(&fatal);
	skip = why && !fatal;
	if (!why)
		aorun_close();
	sr = srunner_create(oracle_suite());
	srunner_run_all(sr, CK_NORMAL);
	aorun_sum->failed = (unsigned)srunner_ntests_failed(sr);
	srunner_free(sr);
	print_summary();
	if (skip && !aorun_sum->failed) {
		printf("SKIP: oracle: %s\n", why);
		return 77;
	}
	return aorun_sum->failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
