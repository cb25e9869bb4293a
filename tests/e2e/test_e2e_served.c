/* SPDX-License-Identifier: MIT */
/* End-to-end: FASTRAW_CLOCKS serves every named clock inside the kernel's bracket, by every path, and the default serves RAW alone. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define SAMPLES 100000
#define SAMPLES_ARG "100000"

/* The clocks FASTRAW_CLOCKS=all names besides RAW, as the probe and the stats line spell them. */
static const char *const others[] = {
	"MONOTONIC", "BOOTTIME", "REALTIME", "TAI", "MONOTONIC_COARSE", "REALTIME_COARSE",
};
#define N_OTHERS (sizeof(others) / sizeof(others[0]))

static void run(struct e2e_result *r, const struct e2e_opts *opts)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env("FR_PROBE_SERVED"), SAMPLES_ARG));
	e2e_assert_ok(r);
	e2e_assert_served(r, "served");
}

/* Every clock's answers lay inside the kernel's bracket, whoever served them. */
static void assert_brackets(const struct e2e_result *r)
{
	static const char *const all[] = {
		"MONOTONIC", "BOOTTIME", "REALTIME", "TAI", "MONOTONIC_COARSE", "REALTIME_COARSE", "MONOTONIC_RAW",
	};
	char key[64];

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		snprintf(key, sizeof(key), "%s_samples", all[i]);
		ck_assert_int_eq(e2e_int_value(r->out, key), SAMPLES);
		snprintf(key, sizeof(key), "%s_violations", all[i]);
		ck_assert_msg(e2e_int_value(r->out, key) == 0, "%s answered outside the kernel's bracket:\n%.*s", all[i],
			      E2E_SHOWN, r->out);
	}
}

/* Whether this machine serves RAW from the kernel's data: the debug line of the run says so. */
static int raw_active(const char *err)
{
	const char *line = e2e_lib_line(err, "kernel=");

	ck_assert_msg(line != NULL, "no debug line:\n%.*s", E2E_SHOWN, err);
	return strstr(line, " active") != NULL && strstr(line, " active") < strchr(line, '\n');
}

/* The set of other clocks a case expects served, a bit per index in others[]. */
#define ALL_OTHERS ((1u << N_OTHERS) - 1)

static unsigned clock_bit(const char *name)
{
	for (size_t i = 0; i < N_OTHERS; i++)
		if (strcmp(others[i], name) == 0)
			return 1u << i;
	ck_abort_msg("no clock %s", name);
	return 0;
}

/*
 * Each other clock's stats line: those in `served` answered most calls here (a pass is only a
 * seqcount that never settled), the rest none; and, where `counted`, every call counted. `how`
 * names the case in the messages.
 */
static void assert_others(const struct e2e_result *r, unsigned served, int counted, const char *how)
{
	for (size_t i = 0; i < N_OTHERS; i++) {
		long long fast, pass;

		e2e_stats_of(r->err, others[i], &fast, &pass);
		if (counted)
			ck_assert_msg(fast + pass == SAMPLES, "%s %s: fast=%lld passthrough=%lld, want %d calls", others[i],
				      how, fast, pass, SAMPLES);
		if (served >> i & 1)
			ck_assert_msg(fast > SAMPLES / 2, "%s %s: fast=%lld passthrough=%lld:\n%.*s", others[i], how, fast,
				      pass, E2E_SHOWN, r->err);
		else
			ck_assert_msg(fast == 0, "%s %s: fast=%lld although not served here", others[i], how, fast);
	}
}

/* FASTRAW_CLOCKS=all: every clock inside the bracket, and where RAW is exact, every one served here. */
START_TEST(all_served_in_bracket)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_CLOCKS=all", "FASTRAW_STATS=1", "FASTRAW_DEBUG=1") };
	struct e2e_result r;
	int active;

	run(&r, &opts);
	assert_brackets(&r);
	active = raw_active(r.err);
	/* Exact where RAW is. */
	assert_others(&r, active ? ALL_OTHERS : 0, 1, "with FASTRAW_CLOCKS=all");
	if (active)
		ck_assert_ptr_nonnull(e2e_lib_line(r.err, "clocks: served from the kernel's page: REALTIME MONOTONIC "
							 "REALTIME_COARSE MONOTONIC_COARSE BOOTTIME TAI"));
	else
		ck_assert_ptr_nonnull(e2e_lib_line(r.err, "clocks: only MONOTONIC_RAW is served: "));
	e2e_result_free(&r);
}
END_TEST

/* The default: only RAW is served; every other clock passes through, and the debug output is as it was. */
START_TEST(default_serves_raw_only)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_STATS=1", "FASTRAW_DEBUG=1") };
	struct e2e_result r;

	run(&r, &opts);
	assert_brackets(&r);
	assert_others(&r, 0, 1, "by default");
	ck_assert_ptr_null(e2e_lib_line(r.err, "clocks: "));
	e2e_result_free(&r);
}
END_TEST

/* A word not understood: one warning, and the default (RAW alone). */
START_TEST(unknown_word_is_default)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_CLOCKS=monotonic,bogus", "FASTRAW_STATS=1") };
	struct e2e_result r;

	run(&r, &opts);
	assert_brackets(&r);
	ck_assert_int_eq(e2e_count_lib_lines(r.err, "warning: FASTRAW_CLOCKS=monotonic,bogus is not one of "), 1);
	assert_others(&r, 0, 1, "after an unknown word");
	e2e_result_free(&r);
}
END_TEST

/* A list serves exactly its clocks. */
START_TEST(list_serves_its_clocks)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_CLOCKS=monotonic,realtime_coarse", "FASTRAW_STATS=1",
						      "FASTRAW_DEBUG=1") };
	struct e2e_result r;
	int active;

	run(&r, &opts);
	assert_brackets(&r);
	active = raw_active(r.err);
	assert_others(&r, active ? clock_bit("MONOTONIC") | clock_bit("REALTIME_COARSE") : 0, 1,
		      "with FASTRAW_CLOCKS=monotonic,realtime_coarse");
	e2e_result_free(&r);
}
END_TEST

/* In a time namespace MONOTONIC, BOOTTIME and MONOTONIC_COARSE carry its offsets, REALTIME and TAI not. */
START_TEST(all_served_in_time_namespace)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_CLOCKS=all", "FASTRAW_STATS=1", "FASTRAW_DEBUG=1"),
				       .timens_mono_sec = 5000 };
	struct e2e_result r;

	run(&r, &opts);
	assert_brackets(&r);
	if (raw_active(r.err))
		assert_others(&r, ALL_OTHERS, 0, "in a namespace");
	e2e_result_free(&r);
}
END_TEST

/*
 * The other ways to the served clocks: the vDSO's clock_gettime as a lookup on the vDSO's handle
 * gives it (the library's vDSO-convention entry), and fastraw_clock_gettime. With
 * FASTRAW_CLOCKS=all each serves every clock where RAW is exact, inside the bracket and with
 * errno untouched; by default none but RAW, and the answers are the vDSO's.
 */
static const char *const paths[] = { "vdso", "api" };

static void path_case(const char *path, int all)
{
	const struct e2e_opts opts = { .env = all ? E2E_ENV("FASTRAW_CLOCKS=all", "FASTRAW_STATS=1", "FASTRAW_DEBUG=1") :
						    E2E_ENV("FASTRAW_STATS=1", "FASTRAW_DEBUG=1") };
	struct e2e_result r;
	char how[32];
	int active;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_SERVED"), SAMPLES_ARG, path));
	e2e_assert_ok(&r);
	assert_brackets(&r);
	active = raw_active(r.err);
	snprintf(how, sizeof(how), "through %s", path);
	assert_others(&r, all && active ? ALL_OTHERS : 0, 0, how);
	e2e_result_free(&r);
}

START_TEST(all_served_by_every_path)
{
	path_case(paths[_i], 1);
}
END_TEST

START_TEST(default_other_paths_pass)
{
	path_case(paths[_i], 0);
}
END_TEST

static Suite *served_suite(void)
{
	Suite *s = suite_create("e2e_served");
	TCase *tc = e2e_tcase(s, "served");

	tcase_add_test(tc, all_served_in_bracket);
	tcase_add_test(tc, default_serves_raw_only);
	tcase_add_test(tc, unknown_word_is_default);
	tcase_add_test(tc, list_serves_its_clocks);
	tcase_add_loop_test(tc, all_served_by_every_path, 0, 2);
	tcase_add_loop_test(tc, default_other_paths_pass, 0, 2);
	/* Its own case, tagged: a kernel without time namespaces (before 5.6) leaves it out (CK_EXCLUDE_TAGS). */
	tc = e2e_tcase(s, "timens");
	tcase_set_tags(tc, "timens");
	tcase_add_test(tc, all_served_in_time_namespace);
	return s;
}

int main(void)
{
	return fr_run_suite(served_suite());
}
