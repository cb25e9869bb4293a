/* SPDX-License-Identifier: MIT */
/* End-to-end: every way a program can look clock_gettime up (dlsym, dlvsym, the vDSO's handle, parsing AT_SYSINFO_EHDR) reaches the library. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cpu_test.h"
#include "harness.h"

/* The lookups that give libc's calling convention, and those that give the vDSO's. */
static const char *const libc_ways[] = { "default", "default_private", "next", "next_private", "handle",
					 "handle_private", "handle_versioned", "next_versioned" };
/*
 * x86-64's vDSO has both hash tables and an alias without the __vdso_ prefix for each name;
 * arm64's has no alias, and DT_HASH, DT_GNU_HASH or both by kernel version (its vdso Makefile):
 * there a parsed way is asserted where the kernel's image has its table.
 */
#if FRT_HAS_VDSO_ALIASES
static const char *const vdso_ways[] = { "vdso_dlsym", "vdso_dlvsym", "vdso_alias" };
#define VDSO_ALIASES 1
#else
static const char *const vdso_ways[] = { "vdso_dlsym", "vdso_dlvsym" };
#define VDSO_ALIASES 0
#endif
static const char *const tables[] = { "gnu", "sysv" };
/*
 * A probe built with a 64-bit time_t on a 32-bit CPU (it says time64=1: the arm build, Debian
 * trixie's armhf userland in the kernel matrix, where FR_E2E_TIME64=1 says so too) asserts
 * glibc's __clock_gettime64's lookups too; where the vDSO has a
 * 32-bit-time function beside the 64-bit one (32-bit ARM: the probe says vdso32_ways=1), its
 * lookups through dlsym and dlvsym, and its answers through the parsed tables (parsed32_*).
 * The probe says whether the kernel's image exports the 64-bit one (vdso_main=1): 32-bit ARM's
 * before 5.5 does not, and there its lookups must fail as without the library (the probe counts
 * any other answer in other_failures); every vDSO without a 32-bit-time function exports it.
 */
static const char *const time64_ways[] = { "default64", "next64", "handle64", "handle_versioned64" };
static const char *const vdso32_ways[] = { "vdso_dlsym32", "vdso_dlvsym32" };
#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Whether this kernel's vDSO must carry both hash tables: on x86-64 from 3.16 on (4.19 and every
 * later kernel the suites run on). A 3.x kernel's may have DT_HASH alone: RHEL 7.9's vDSO is
 * linked with --hash-style=sysv.
 */
static int both_hashes_expected(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (!FRT_HAS_VDSO_BOTH_HASHES)
		return 0;
	ck_assert_int_eq(uname(&u), 0);
	sscanf(u.release, "%d.%d", &major, &minor);
	return major > 3 || (major == 3 && minor >= 16);
}

/* The image's "Linux" note: every vDSO's but 32-bit ARM's before 5.5, which gained it (note.c) with the generic vDSO. */
static int linux_note_expected(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	ck_assert_int_eq(uname(&u), 0);
	sscanf(u.release, "%d.%d", &major, &minor);
	return strncmp(u.machine, "armv", 4) != 0 || major > 5 || (major == 5 && minor >= 5);
}

static void run(struct e2e_result *r, const struct e2e_opts *opts)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env("FR_PROBE_LOOKUP")));
	e2e_assert_ok(r);
	e2e_assert_quiet(r);
	ck_assert_msg(e2e_int_value(r->out, "violations") == 0, "RAW outside the kernel's bracket:\n%.*s",
		      E2E_SHOWN, r->out);
	e2e_assert_values(r->out, E2E_ARGV("conv_failures=0", "other_failures=0", "auxv_failures=0",
					   "ehdr_kernel_matches_maps=1"));
	/* Unrelated names: libc's answers, and "not found" as libc says it. */
	e2e_assert_values(r->out, E2E_ARGV("getauxval_is_libcs=1", "getpid_handle_same=1", "missing_null=1",
					   "missing_dlerror=1", "missing_v_null=1", "missing_v_dlerror=1"));
	/* getpid: a name no sanitizer runtime intercepts, so libc's even in those builds. */
	ck_assert_msg(strstr(r->out, "getpid_from=") && strstr(strstr(r->out, "getpid_from="), "libc.so.6"),
		      "getpid is not libc's:\n%.*s", E2E_SHOWN, r->out);
	ck_assert_msg(strstr(r->out, "getpid_next_from=") && strstr(strstr(r->out, "getpid_next_from="), "libc.so.6"),
		      "RTLD_NEXT getpid is not libc's:\n%.*s", E2E_SHOWN, r->out);
}

/* The parsed image: valid, the kernel's hash tables (on x86-64 both), its notes intact. */
static void assert_image(const struct e2e_result *r)
{
	ck_assert_msg(strstr(r->out, "walk=ok\n"), "the image does not parse:\n%.*s", E2E_SHOWN, r->out);
	ck_assert_int_ge(e2e_int_value(r->out, "hash_tables"), 1);
	ck_assert_int_eq(e2e_int_value(r->out, "hash_tables"), e2e_int_value(r->out, "kernel_hash_tables"));
	if (both_hashes_expected())
		ck_assert_int_eq(e2e_int_value(r->out, "hash_tables"), 2);
	ck_assert_int_ge(e2e_int_value(r->out, "notes"), 1);
	ck_assert_int_eq(e2e_int_value(r->out, "linux_note"), linux_note_expected());
}

/* Whether the kernel's image has table ("gnu", "sysv"): where both_hashes_expected, it must. */
static int kernel_has(const struct e2e_result *r, const char *table)
{
	char key[32];

	snprintf(key, sizeof(key), "kernel_%s", table);
	if (both_hashes_expected())
		ck_assert_int_eq(e2e_int_value(r->out, key), 1);
	return e2e_int_value(r->out, key) == 1;
}

/* With the shadow asked for, the parsed image leads into the library as well. */
START_TEST(lookup_every_way)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=1") };
	struct e2e_result r;
	char key[64];
	int ways = (int)N(libc_ways), time64, vdso32, vdso_main;

	run(&r, &opts);
	/* The probe says whether it was built with a 64-bit time_t; where the run says which, it must agree. */
	time64 = strstr(r.out, "time64=1\n") != NULL;
	if (getenv("FR_E2E_TIME64") && *getenv("FR_E2E_TIME64"))
		ck_assert_int_eq(time64, atoi(getenv("FR_E2E_TIME64")) != 0);
	vdso32 = strstr(r.out, "vdso32_ways=1\n") != NULL;
	vdso_main = e2e_int_value(r.out, "vdso_main") == 1;
	ck_assert_msg(vdso_main || vdso32, "the vDSO has no clock_gettime:\n%.*s", E2E_SHOWN, r.out);
	assert_image(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_real"), 0);
	for (size_t i = 0; i < N(libc_ways); i++) {
		snprintf(key, sizeof(key), "served_%s", libc_ways[i]);
		e2e_assert_served(&r, key);
	}
	for (size_t i = 0; vdso_main && i < N(vdso_ways); i++) {
		snprintf(key, sizeof(key), "served_%s", vdso_ways[i]);
		e2e_assert_served(&r, key);
		ways++;
	}
	for (size_t i = 0; time64 && i < N(time64_ways); i++) {
		snprintf(key, sizeof(key), "served_%s", time64_ways[i]);
		e2e_assert_served(&r, key);
		ways++;
	}
	for (size_t i = 0; vdso32 && i < N(vdso32_ways); i++) {
		snprintf(key, sizeof(key), "served_%s", vdso32_ways[i]);
		e2e_assert_served(&r, key);
		ways++;
	}
	for (size_t t = 0; t < N(tables); t++) {
		if (!kernel_has(&r, tables[t]))
			continue;
		if (vdso_main) {
			snprintf(key, sizeof(key), "served_parsed_%s", tables[t]);
			e2e_assert_served(&r, key);
			ways++;
		}
		/* Where the vDSO has a 32-bit-time function beside it, the shadow redirects that too. */
		if (vdso32) {
			snprintf(key, sizeof(key), "served_parsed32_%s", tables[t]);
			e2e_assert_served(&r, key);
			ways++;
		}
		if (VDSO_ALIASES) {
			snprintf(key, sizeof(key), "served_parsed_alias_%s", tables[t]);
			e2e_assert_served(&r, key);
			ways++;
		}
	}
	ck_assert_int_ge(e2e_int_value(r.out, "samples"), 20000 * ways);
	e2e_result_free(&r);
}
END_TEST

/* By default, with FASTRAW_SHADOW_VDSO=0 and with the shadow asked for under FASTRAW_DISABLE=1: getauxval gives the kernel's own image. */
START_TEST(lookup_no_shadow)
{
	static const char *const settings[][3] = { { NULL }, { "FASTRAW_SHADOW_VDSO=0", NULL },
						   { "FASTRAW_SHADOW_VDSO=1", "FASTRAW_DISABLE=1", NULL } };
	const struct e2e_opts opts = { .env = settings[_i][0] ? settings[_i] : NULL };
	struct e2e_result r;
	char want[64];
	int vdso_main;

	run(&r, &opts);
	assert_image(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_real"), 1);
	/* Where the image lacks the 64-bit-time name, its 32-bit-time one is the one looked up. */
	vdso_main = e2e_int_value(r.out, "vdso_main") == 1;
	snprintf(want, sizeof(want), "served_parsed%s_%s=linux-vdso.so.1\n", vdso_main ? "" : "32",
		 kernel_has(&r, "gnu") ? "gnu" : "sysv");
	ck_assert_msg(strstr(r.out, want), "%s: parsed symbol not the vDSO's:\n%.*s",
		      settings[_i][0] ? settings[_i][0] : "default", E2E_SHOWN, r.out);
	e2e_assert_served(&r, "served_handle");
	e2e_assert_served(&r, vdso_main ? "served_vdso_dlvsym" : "served_vdso_dlvsym32");
	e2e_result_free(&r);
}
END_TEST

/* A value the parser does not know: one warning, and the default (the kernel's image) is used. */
START_TEST(lookup_bad_setting)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=yes") };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_LOOKUP")));
	e2e_assert_ok(&r);
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "FASTRAW_SHADOW_VDSO=yes"));
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_real"), 1);
	e2e_result_free(&r);
}
END_TEST

/* Without the library the probe's expectations about unrelated lookups hold for libc itself. */
START_TEST(lookup_libc_baseline)
{
	const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;

	run(&r, &opts);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_real"), 1);
	e2e_result_free(&r);
}
END_TEST

static Suite *lookup_suite(void)
{
	Suite *s = suite_create("e2e_lookup");
	TCase *tc = e2e_tcase(s, "lookup");

	tcase_add_test(tc, lookup_every_way);
	tcase_add_loop_test(tc, lookup_no_shadow, 0, 3);
	tcase_add_test(tc, lookup_bad_setting);
	tcase_add_test(tc, lookup_libc_baseline);
	return s;
}

int main(void)
{
	return fr_run_suite(lookup_suite());
}
