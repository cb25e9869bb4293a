/* SPDX-License-Identifier: MIT */
/* End-to-end: a failed lookup of a clock name leaves dlerror() the text glibc alone gives, byte for byte, under LD_PRELOAD, the launcher and beside another interposer. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* "LD_PRELOAD=" and list, after the sanitizer runtime that must come first in those builds. */
static char *preload(const char *list)
{
	const char *first = getenv("FR_PRELOAD_FIRST");
	char *s;

	ck_assert_int_gt(asprintf(&s, "LD_PRELOAD=%s%s%s", first && *first ? first : "", first && *first ? " " : "",
				  list),
			 0);
	return s;
}

/*
 * The probe's transcript with LD_PRELOAD set to list (NULL: the library alone, as e2e_run sets
 * it), or with the launcher adding the library to an LD_PRELOAD of nothing else.
 */
static char *transcript(const char *list, int through_launcher)
{
	const char *probe = e2e_need_env("FR_PROBE_DLERROR"), *plugin = e2e_need_env("FR_PLUGIN");
	char *env = list || through_launcher ? preload(list ? list : "") : NULL;
	const struct e2e_opts opts = { .env = E2E_ENV(env), .no_preload = env != NULL };
	struct e2e_result r;
	char *out;

	if (through_launcher)
		e2e_run(&r, &opts,
			E2E_ARGV(e2e_need_env("FR_LAUNCHER"), "--lib", e2e_need_env("FASTRAW_LIB"), "--", probe, plugin));
	else
		e2e_run(&r, &opts, E2E_ARGV(probe, plugin));
	e2e_assert_ok(&r);
	e2e_assert_quiet(&r);
	out = r.out;
	r.out = NULL;
	e2e_result_free(&r);
	free(env);
	return out;
}

/* Fails the test at the first line where got differs from glibc's own transcript. */
static void assert_same(const char *glibc, const char *got, const char *how)
{
	const char *a = glibc, *b = got;

	while (*a && *a == *b)
		a++, b++;
	if (!*a && !*b)
		return;
	while (a > glibc && a[-1] != '\n')
		a--, b--;
	ck_abort_msg("%s: dlerror differs from glibc's alone\nglibc: %.*s\n  got: %.*s", how, (int)strcspn(a, "\n"), a,
		     (int)strcspn(b, "\n"), b);
}

/* glibc alone: the messages the comparisons rely on are there (the caller named, not a library). */
static char *glibc_alone(const char *list)
{
	char *out = transcript(list ? list : "", 0);

	ck_assert_msg(strstr(out, "dlvsym(RTLD_NEXT, clock_gettime, BOGUS_1.0): NULL: ") &&
			      strstr(out, "undefined symbol: clock_gettime, version BOGUS_1.0\n") &&
			      strstr(out, "plugin dlvsym(RTLD_NEXT, clock_gettime, BOGUS_1.0): NULL: ") &&
			      strstr(out, "dlsym(RTLD_DEFAULT, clock_gettime) after an unread error: found: no error\n"),
		      "unexpected transcript:\n%.*s", E2E_SHOWN, out);
	return out;
}

/* The program run by glibc alone (g) and under the library (r, which must stay quiet). */
static void run_alone_and_ours(struct e2e_result *g, struct e2e_result *r, const char *const argv[])
{
	const struct e2e_opts alone = { .no_preload = 1 };

	e2e_run(g, &alone, argv);
	e2e_assert_ok(g);
	e2e_run(r, NULL, argv);
	e2e_assert_ok(r);
	e2e_assert_quiet(r);
}

/*
 * dlvsym with the empty version never faults, and answers as glibc alone does, dlerror's text
 * included: NULL for every name libfastraw exports, by every handle (glibc's versions all have
 * names), where glibc's own lookup would fault on libfastraw's unversioned symbols.
 */
START_TEST(dlerror_empty_version)
{
	struct e2e_result g, r;

	run_alone_and_ours(&g, &r, E2E_ARGV(e2e_need_env("FR_PROBE_DLERROR"), "empty"));
	ck_assert_msg(strstr(r.out, "empty done\n"), "the probe stopped:\n%.*s", E2E_SHOWN, r.out);
	ck_assert_int_eq(e2e_count_lines_with(r.out, ": NULL: "), 36);
	ck_assert_int_eq(e2e_count_lines_with(r.out, ": found: "), 0);
	ck_assert_int_eq(e2e_count_lines_with(r.out, "undefined symbol: "), 36);
	assert_same(g.out, r.out, "dlvsym(..., \"\")");
	e2e_result_free(&g);
	e2e_result_free(&r);
}
END_TEST

/* The probe's transcript under the library (launched or preloaded) is glibc's alone. */
static void assert_as_glibc_alone(int through_launcher, const char *how)
{
	char *glibc = glibc_alone(NULL), *ours = transcript(NULL, through_launcher);

	assert_same(glibc, ours, how);
	free(glibc);
	free(ours);
}

START_TEST(dlerror_preloaded)
{
	assert_as_glibc_alone(0, "LD_PRELOAD=libfastraw.so");
}
END_TEST

START_TEST(dlerror_launcher)
{
	assert_as_glibc_alone(1, "fastraw --lib libfastraw.so --");
}
END_TEST

/*
 * The test interposer (chain_lib.c) has a dlsym of its own; in either order the texts are those
 * it gives alone. Not beside a sanitizer runtime, which that dlsym crashes with libfastraw or
 * without it.
 */
START_TEST(dlerror_beside_interposer)
{
	const char *lib = e2e_need_env("FASTRAW_LIB"), *chain = e2e_need_env("FR_CHAIN_LIB");
	const char *first = getenv("FR_PRELOAD_FIRST");
	char *glibc, *list, *ours;

	if (first && *first)
		return;
	glibc = glibc_alone(chain);

	for (int ours_first = 0; ours_first <= 1; ours_first++) {
		ck_assert_int_gt(asprintf(&list, "%s:%s", ours_first ? lib : chain, ours_first ? chain : lib), 0);
		ours = transcript(list, 0);
		assert_same(glibc, ours, list);
		free(ours);
		free(list);
	}
	free(glibc);
}
END_TEST

/*
 * dlsym and dlvsym by RTLD_NEXT from every place a caller can have in the loader's list answer
 * as glibc alone does: found or not, and dlerror's text byte for byte. The program and a library
 * before libc find the clock names (ours, where glibc gives libc's); a library linked after libc
 * finds nothing after itself, as without us; a dlopen'd one finds libc's through its own
 * dependencies.
 */
START_TEST(dlerror_next_every_place)
{
	struct e2e_result g, r;

	run_alone_and_ours(&g, &r, E2E_ARGV(e2e_need_env("FR_PROBE_NEXTPOS"), e2e_need_env("FR_NEXTPOS_OPEN")));
	/* What the comparison relies on: glibc alone fails the lookups after libc, with a text. */
	ck_assert_msg(strstr(g.out, "after_libc dlsym(clock_gettime) found=0 dlerror=") &&
			      strstr(g.out, "dlopened dlsym(clock_gettime) found=1 dlerror=(none)\n"),
		      "unexpected transcript:\n%.*s", E2E_SHOWN, g.out);
	ck_assert_int_eq(e2e_count_lines_with(r.out, " found="), 24);
	assert_same(g.out, r.out, "RTLD_NEXT from each place");
	e2e_result_free(&g);
	e2e_result_free(&r);
}
END_TEST

static Suite *dlerror_suite(void)
{
	Suite *s = suite_create("e2e_dlerror");
	TCase *tc = e2e_tcase(s, "dlerror");

	tcase_add_test(tc, dlerror_preloaded);
	tcase_add_test(tc, dlerror_launcher);
	tcase_add_test(tc, dlerror_beside_interposer);
	tcase_add_test(tc, dlerror_next_every_place);
	/*
	 * Not beside a sanitizer runtime: it exports unversioned functions of its own (clock_gettime
	 * among them) from an object with a version table, on which glibc alone faults the same way.
	 */
	if (!getenv("FR_PRELOAD_FIRST") || !*getenv("FR_PRELOAD_FIRST"))
		tcase_add_test(tc, dlerror_empty_version);
	return s;
}

int main(void)
{
	return fr_run_suite(dlerror_suite());
}
