/* SPDX-License-Identifier: MIT */
/* End-to-end: a program that seccomp-filters nearly every system call in main still gets getauxval, dlsym and clock_gettime, with no system call made for them but the shadow's futex probes. */
#include <string.h>

#include "harness.h"

static void run_with(struct e2e_result *r, const struct e2e_opts *opts, const char *arg)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env("FR_PROBE_SANDBOX"), arg));
	e2e_assert_ok(r);
	e2e_assert_quiet(r);
	/* The filter trapped nothing: no open, read, mprotect or getpid behind any of the calls. */
	ck_assert_msg(e2e_int_value(r->out, "trapped") == 0, "system calls were made under the filter:\n%.*s",
		      E2E_SHOWN, r->out);
	e2e_assert_values(r->out, E2E_ARGV("raw_ok=1", "mono_ok=1", "dlsym_default_ok=1", "dlsym_next_ok=1",
					   "dlsym_vdso_ok=1", "ehdr_nonzero=1", "ehdr_same_header=1", "ehdr_clock_ok=1",
					   "second_ehdr_same=1", "errno_kept=1", "raw_after_ok=1"));
}

/* The probe passes under the filter (`filter`: its mode); getauxval gives the kernel's image exactly when `kernel`. */
static void assert_image(const struct e2e_opts *opts, const char *filter, int kernel)
{
	struct e2e_result r;

	run_with(&r, opts, filter);
	ck_assert_int_eq(e2e_int_value(r.out, "ehdr_is_kernel"), kernel);
	e2e_result_free(&r);
}

/* The shadow image, asked for, is built on the first getauxval, under the filter, and is what it answers. */
START_TEST(shadow_built_under_the_filter)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=1") };

	assert_image(&opts, "allow-futex", 0);
}
END_TEST

/* By default and with FASTRAW_SHADOW_VDSO=0: getauxval gives the kernel's image, still with no system call. */
START_TEST(no_shadow_under_the_filter)
{
	static const char *const off[] = { "FASTRAW_SHADOW_VDSO=0", NULL };
	const struct e2e_opts opts = { .env = _i ? off : NULL };

	assert_image(&opts, "allow-futex", 1);
}
END_TEST

/*
 * The shadow's build asks the kernel whether each page of the vDSO is still mapped, with futex
 * (the call a filter allowing libc's locks allows). Refused, the answer is "unknown": no shadow,
 * getauxval gives the kernel's image, every other answer is right and nothing traps.
 */
START_TEST(no_shadow_when_futex_is_refused)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=1") };

	assert_image(&opts, "deny-futex", 1);
}
END_TEST

/* Without the library the probe passes as well: the filter and the probe make no call of their own. */
START_TEST(baseline_without_the_library)
{
	static const struct e2e_opts opts = { .no_preload = 1 };

	assert_image(&opts, "allow-futex", 1);
}
END_TEST

static Suite *sandbox_suite(void)
{
	Suite *s = suite_create("e2e_sandbox");
	TCase *tc = e2e_tcase(s, "sandbox");

	tcase_add_test(tc, shadow_built_under_the_filter);
	tcase_add_test(tc, no_shadow_when_futex_is_refused);
	tcase_add_loop_test(tc, no_shadow_under_the_filter, 0, 2);
	tcase_add_test(tc, baseline_without_the_library);
	return s;
}

int main(void)
{
	return fr_run_suite(sandbox_suite());
}
