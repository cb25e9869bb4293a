/* SPDX-License-Identifier: MIT */
/* End-to-end under musl (scripts/musl.sh runs it): the lookups a musl program has reach the musl-built library; dlvsym stays absent. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* The lookups that give libc's calling convention, and the parsed image's (the vDSO's). */
static const char *const libc_ways[] = { "default", "next", "handle", "direct" };
static const char *const parsed_ways[] = { "parsed_gnu", "parsed_sysv" };
#define N(a) (sizeof(a) / sizeof((a)[0]))

static void run(struct e2e_result *r, const struct e2e_opts *opts, const char *arg)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env("FR_PROBE_MUSL_LOOKUP"), arg));
	e2e_assert_ok(r);
	e2e_assert_quiet(r);
	ck_assert_msg(e2e_int_value(r->out, "violations") == 0, "RAW outside the kernel's bracket:\n%.*s",
		      E2E_SHOWN, r->out);
	ck_assert_msg(e2e_int_value(r->out, "conv_failures") == 0, "%.*s", E2E_SHOWN, r->out);
	ck_assert_msg(e2e_int_value(r->out, "auxv_failures") == 0, "%.*s", E2E_SHOWN, r->out);
	ck_assert_msg(strstr(r->out, "walk=ok\n"), "the image does not parse:\n%.*s", E2E_SHOWN, r->out);
	/* Unrelated names: musl's answers; no dlvsym with the library or without. */
	e2e_assert_values(r->out, E2E_ARGV("getpid_same=1", "missing_null=1", "missing_dlerror=1"));
	ck_assert_msg(e2e_int_value(r->out, "dlvsym_default_null") == 1 && e2e_int_value(r->out, "dlvsym_next_null") == 1,
		      "dlsym found a dlvsym:\n%.*s", E2E_SHOWN, r->out);
}

/* With the shadow asked for: every way, the parsed image's too, leads into the library. */
START_TEST(lookup_every_way)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=1") };
	struct e2e_result r;
	char key[64];

	run(&r, &opts, NULL);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_real"), 0);
	for (size_t i = 0; i < N(libc_ways); i++) {
		snprintf(key, sizeof(key), "served_%s", libc_ways[i]);
		e2e_assert_served(&r, key);
	}
	for (size_t i = 0; i < N(parsed_ways); i++) {
		snprintf(key, sizeof(key), "served_%s", parsed_ways[i]);
		e2e_assert_served(&r, key);
	}
	ck_assert_int_eq(e2e_int_value(r.out, "samples"), 20000 * (int)(N(libc_ways) + N(parsed_ways)));
	e2e_result_free(&r);
}
END_TEST

/* By default getauxval gives the kernel's own image; dlsym still leads to the library. */
START_TEST(lookup_no_shadow)
{
	struct e2e_result r;

	run(&r, NULL, NULL);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_real"), 1);
	for (size_t i = 0; i < N(libc_ways); i++) {
		char key[64];

		snprintf(key, sizeof(key), "served_%s", libc_ways[i]);
		e2e_assert_served(&r, key);
	}
	e2e_result_free(&r);
}
END_TEST

/* Without the library the probe's expectations about unrelated lookups hold for musl itself. */
START_TEST(lookup_libc_baseline)
{
	const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;

	run(&r, &opts, "--no-null");
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_real"), 1);
	e2e_result_free(&r);
}
END_TEST

/*
 * A program that unmaps its [vdso], or makes it PROT_NONE, then dlopens the library: the
 * constructor reads no image, the library's clock_gettime reads RAW within the kernel's bracket
 * (within calibrated mode's 2 us of it when fastraw_info says calibrated mode serves: with no vDSO
 * to check the data pages against, that is where the library starts), and its getauxval, with
 * the shadow asked for, gives the kernel's address (there is no image to copy), as musl's own
 * would.
 */
START_TEST(dlopen_after_the_vdso_is_gone)
{
	static const char *const modes[] = { "unmap", "none" };
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=1"), .no_preload = 1 };
	struct e2e_result r;

	e2e_run(&r, &opts,
		E2E_ARGV(e2e_need_env("FR_PROBE_MUSL_LOOKUP"), "--vdso-gone", modes[_i], e2e_need_env("FASTRAW_LIB")));
	e2e_assert_ok(&r);
	e2e_assert_quiet(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "dlopen_ok"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "dlopened_found"), 1);
	ck_assert_msg(strstr(r.out, "source=kernel\n") || strstr(r.out, "source=calibrated\n") ||
			      strstr(r.out, "source=none\n"),
		      "fastraw_info names no source:\n%.*s", E2E_SHOWN, r.out);
	ck_assert_int_eq(e2e_int_value(r.out, "samples"), 20000);
	ck_assert_msg(e2e_int_value(r.out, "violations") == 0, "RAW outside the kernel's bracket (or bound):\n%.*s",
		      E2E_SHOWN, r.out);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_kernel"), 1);
	e2e_result_free(&r);
}
END_TEST

static Suite *lookup_suite(void)
{
	Suite *s = suite_create("musl_lookup");
	TCase *tc = e2e_tcase(s, "lookup");

	tcase_add_test(tc, lookup_every_way);
	tcase_add_test(tc, lookup_no_shadow);
	tcase_add_test(tc, lookup_libc_baseline);
	tcase_add_loop_test(tc, dlopen_after_the_vdso_is_gone, 0, 2);
	return s;
}

int main(void)
{
	return fr_run_suite(lookup_suite());
}
