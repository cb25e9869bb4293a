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
	const char *first = getenv("FR_PRELOAD_FIRST");
	struct e2e_opts opts = { .no_preload = 1 };
	char *env;

	ck_assert_int_gt(asprintf(&env, "LD_PRELOAD=%s%s%s:%s", first && *first ? first : "", first && *first ? " " : "",
				  a, b),
			 0);
	opts.env = E2E_ENV(env);
	run(r, probe, &opts);
	free(env);
}

/* Asserts that the "key=" line names the file at path. */
static void assert_file(const struct e2e_result *r, const char *key, const char *path)
{
	char want[PATH_MAX], got[PATH_MAX], line[PATH_MAX];
	const char *v = strstr(r->out, key);
	size_t n;

	ck_assert_msg(v && (v == r->out || v[-1] == '\n') && v[strlen(key)] == '=', "no %s= line:\n%.*s", key,
		      E2E_SHOWN, r->out);
	v += strlen(key) + 1;
	n = strcspn(v, "\n");
	ck_assert_uint_lt(n, sizeof(line));
	memcpy(line, v, n);
	line[n] = '\0';
	ck_assert_ptr_nonnull(realpath(path, want));
	ck_assert_msg(realpath(line, got) && strcmp(got, want) == 0, "%s is \"%s\", not %s", key, line, want);
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

/* A later interposer (chain_lib.c, with a dlsym of its own) is not in the plugin's scope: ours still. */
START_TEST(plugin_next_before_interposer)
{
	struct e2e_result r;

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

/* glibc alone gives the plugin libc's own, the function libfastraw stands in for. */
START_TEST(plugin_libc_baseline)
{
	const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;
	char key[64];

	run(&r, _i, &opts);
	for (size_t i = 0; i < N_KEYS; i++) {
		const char *v;

		snprintf(key, sizeof(key), "served_%s=", keys[i]);
		v = strstr(r.out, key);
		ck_assert_msg(v && strstr(v, "libc.so.6") && strstr(v, "libc.so.6") < strchr(v, '\n'),
			      "%s is not libc's:\n%.*s", keys[i], E2E_SHOWN, r.out);
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
