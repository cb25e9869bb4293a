/* SPDX-License-Identifier: MIT */
/* End-to-end: RTLD_NEXT from a dlopen'd RTLD_LOCAL plugin, in its constructor and after, gives libfastraw's clock_gettime wherever glibc alone gives libc's; the program's own RTLD_NEXT keeps its meaning. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The plugin's lookups: from its constructor and from a call after dlopen, by each name and version. */
static const char *const keys[] = { "ctor_next", "ctor_next_private", "ctor_next_versioned",
				    "next",      "next_private",      "next_versioned" };
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))
#define SAMPLES 5000

/* The same probe as a position-independent program and as one linked without -pie (l_addr 0). */
static const char *const probes[] = { "FR_PROBE_PLUGIN", "FR_PROBE_PLUGIN_NOPIE" };

/* The sanitizer runtime that those builds preload first, or NULL. */
static const char *sanitizer_runtime(void)
{
	const char *first = getenv("FR_PRELOAD_FIRST");

	return first && *first ? first : NULL;
}

/* Whether a and b name the same file. */
static int same_file(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return b && realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* The value of the "key=" line, which must be there. */
static void value_of(const struct e2e_result *r, const char *key, char line[PATH_MAX])
{
	const char *v = strstr(r->out, key);
	size_t n;

	ck_assert_msg(v && (v == r->out || v[-1] == '\n') && v[strlen(key)] == '=', "no %s= line:\n%.*s", key,
		      E2E_SHOWN, r->out);
	v += strlen(key) + 1;
	n = strcspn(v, "\n");
	ck_assert_uint_lt(n, PATH_MAX);
	memcpy(line, v, n);
	line[n] = '\0';
}

/*
 * Asserts that the "key=" line names the file at path, or the sanitizer runtime: that one
 * intercepts clock_gettime itself, and a program or a plugin built with it depends on it first.
 */
static void assert_file(const struct e2e_result *r, const char *key, const char *path)
{
	char line[PATH_MAX];

	value_of(r, key, line);
	ck_assert_msg(same_file(line, path) || same_file(line, sanitizer_runtime()), "%s is \"%s\", not %s", key, line,
		      path);
}

static void run(struct e2e_result *r, int probe, const struct e2e_opts *opts)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env(probes[probe]), e2e_need_env("FR_PLUGIN")));
	e2e_assert_ok(r);
	e2e_assert_quiet(r);
	ck_assert_int_eq(e2e_int_value(r->out, "samples"), SAMPLES * (int)N_KEYS);
	ck_assert_msg(e2e_int_value(r->out, "violations") == 0, "RAW outside the kernel's bracket:\n%.*s", E2E_SHOWN,
		      r->out);
}

/* Runs with LD_PRELOAD=a:b, after the sanitizer runtime in those builds. */
static void run_with(struct e2e_result *r, int probe, const char *a, const char *b)
{
	const char *first = sanitizer_runtime();
	struct e2e_opts opts = { .no_preload = 1 };
	char *env;

	ck_assert_int_gt(asprintf(&env, "LD_PRELOAD=%s%s%s:%s", first ? first : "", first ? " " : "", a, b), 0);
	opts.env = E2E_ENV(env);
	run(r, probe, &opts);
	free(env);
}

/* Each of the plugin's lookups is libfastraw's clock_gettime itself. */
static void assert_plugin_ours(const struct e2e_result *r)
{
	char key[64];

	for (size_t i = 0; i < N_KEYS; i++) {
		snprintf(key, sizeof(key), "ours_%s", keys[i]);
		ck_assert_msg(e2e_int_value(r->out, key) == 1, "%s is not libfastraw's clock_gettime:\n%.*s", keys[i],
			      E2E_SHOWN, r->out);
	}
}

START_TEST(plugin_next_is_ours)
{
	struct e2e_result r;

	run(&r, _i, NULL);
	assert_plugin_ours(&r);
	e2e_assert_served(&r, "program_next");
	e2e_assert_served(&r, "program_next_versioned");
	e2e_result_free(&r);
}
END_TEST

/*
 * A later interposer (chain_lib.c, with a dlsym of its own) is not in the plugin's scope: ours
 * still. Not beside a sanitizer runtime, which that dlsym crashes with libfastraw or without it.
 */
START_TEST(plugin_next_before_interposer)
{
	struct e2e_result r;

	if (sanitizer_runtime())
		return;
	run_with(&r, _i, e2e_need_env("FASTRAW_LIB"), e2e_need_env("FR_CHAIN_LIB"));
	assert_plugin_ours(&r);
	e2e_assert_served(&r, "program_next");
	e2e_result_free(&r);
}
END_TEST

/*
 * An earlier interposer that leaves dlsym alone, as faketime does: the program's RTLD_NEXT gets
 * it, the first definition after the program; its dlvsym gets ours for libc's (the loader passes
 * over unversioned definitions then); the plugin's gets ours.
 */
START_TEST(program_next_after_interposer)
{
	const char *chain = e2e_need_env("FR_CHAIN_NODLSYM_LIB");
	struct e2e_result r;

	run_with(&r, _i, chain, e2e_need_env("FASTRAW_LIB"));
	assert_file(&r, "program_next", chain);
	e2e_assert_served(&r, "program_next_versioned");
	assert_plugin_ours(&r);
	e2e_result_free(&r);
}
END_TEST

/* glibc alone gives the plugin libc's own, the function libfastraw stands in for (or the sanitizer runtime's). */
START_TEST(plugin_libc_baseline)
{
	const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;
	char key[64], line[PATH_MAX];

	run(&r, _i, &opts);
	for (size_t i = 0; i < N_KEYS; i++) {
		size_t n;

		snprintf(key, sizeof(key), "served_%s", keys[i]);
		value_of(&r, key, line);
		n = strlen(line);
		ck_assert_msg((n >= 10 && strcmp(line + n - 10, "/libc.so.6") == 0) || same_file(line, sanitizer_runtime()),
			      "%s is \"%s\", not libc's", keys[i], line);
	}
	e2e_result_free(&r);
}
END_TEST

static Suite *plugin_suite(void)
{
	Suite *s = suite_create("e2e_plugin");
	TCase *tc = e2e_tcase(s, "plugin");

	tcase_add_loop_test(tc, plugin_next_is_ours, 0, 2);
	tcase_add_loop_test(tc, plugin_next_before_interposer, 0, 2);
	tcase_add_loop_test(tc, program_next_after_interposer, 0, 2);
	tcase_add_loop_test(tc, plugin_libc_baseline, 0, 2);
	return s;
}

int main(void)
{
	return fr_run_suite(plugin_suite());
}
