/* SPDX-License-Identifier: MIT */
/* End-to-end: a program that unmaps its [vdso], or makes it PROT_NONE, still gets every lookup of clock_gettime and getauxval answered as libc would, never a signal. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* What the probe does to the vDSO, and the names the failures give. */
static const char *const modes[] = { "unmap", "none" };

/* The lookups the probe makes after that, in its KEY_served lines. */
static const char *const lookups[] = { "default", "default_under", "next", "vdefault", "vnext", "call" };

static void run(struct e2e_result *r, const struct e2e_opts *opts, const char *mode)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env("FR_PROBE_VDSO_GONE"), mode));
	/* A signal on any lookup shows here, as a status other than exit 0, with what was printed. */
	e2e_assert_ok(r);
	e2e_assert_quiet(r);
	e2e_assert_values(r->out, E2E_ARGV("done=1", "second_ehdr_same=1", "errno_kept=1"));
}

/*
 * Preloaded, by default and with FASTRAW_SHADOW_VDSO=1: every lookup is libfastraw's and reads RAW
 * within the kernel's bracket, and getauxval gives the kernel's address, as libc's would: with the
 * image gone there is no shadow to build.
 */
START_TEST(lookups_after_the_vdso_is_gone)
{
	static const char *const shadow[] = { "FASTRAW_SHADOW_VDSO=1", NULL };
	const char *mode = modes[_i % 2];
	const struct e2e_opts opts = { .env = _i >= 2 ? shadow : NULL };
	struct e2e_result r;
	char key[64];

	run(&r, &opts, mode);
	for (size_t i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++) {
		snprintf(key, sizeof(key), "%s_served", lookups[i]);
		e2e_assert_served(&r, key);
		snprintf(key, sizeof(key), "%s_raw_ok", lookups[i]);
		/* Behind a sanitizer runtime the lookup is its interceptor's, which the probe does not call. */
		if (strstr(r.out, key))
			ck_assert_msg(e2e_int_value(r.out, key) == 1, "%s (%s): RAW outside the kernel's bracket:\n%.*s",
				      lookups[i], mode, E2E_SHOWN, r.out);
	}
	ck_assert_msg(e2e_int_value(r.out, "ehdr_is_kernel") == 1, "%s%s: getauxval is not the kernel's address:\n%.*s",
		      mode, _i >= 2 ? " with the shadow asked for" : "", E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

/* Without the library the probe passes as well: libc's lookups and getauxval read no image. */
START_TEST(baseline_without_the_library)
{
	static const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;

	run(&r, &opts, modes[_i]);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_kernel"), 1);
	ck_assert_msg(strstr(r.out, "default_served=") && !strstr(r.out, "libfastraw"), "the library is in:\n%.*s",
		      E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

static Suite *vdso_gone_suite(void)
{
	Suite *s = suite_create("e2e_vdso_gone");
	TCase *tc = e2e_tcase(s, "vdso_gone");

	tcase_add_loop_test(tc, lookups_after_the_vdso_is_gone, 0, 4);
	tcase_add_loop_test(tc, baseline_without_the_library, 0, 2);
	return s;
}

int main(void)
{
	return fr_run_suite(vdso_gone_suite());
}
