/* SPDX-License-Identifier: MIT */
/* End-to-end: by default getauxval(AT_SYSINFO_EHDR) is the vDSO that dl_iterate_phdr, dladdr and /proc/self/maps name; the shadow only when asked for. */
#include <string.h>

#include "harness.h"

static void run(struct e2e_result *r, const struct e2e_opts *opts)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env("FR_PROBE_VDSO_ID")));
	e2e_assert_ok(r);
	e2e_assert_quiet(r);
	e2e_assert_values(r->out, E2E_ARGV("ehdr_nonzero=1", "ehdr_is_elf=1", "maps_vdso=1", "kernel_is_maps_start=1"));
	/* The loader lists the vDSO once, whatever getauxval says. */
	ck_assert_int_eq(e2e_int_value(r->out, "phdr_entries"), 1);
}

/* The address is the kernel's, so every way of naming the vDSO agrees with it. */
static void assert_identity(const struct e2e_result *r, const char *what)
{
	ck_assert_msg(e2e_int_value(r->out, "ehdr_is_kernel") == 1, "%s: not the kernel's AT_SYSINFO_EHDR:\n%.*s", what,
		      E2E_SHOWN, r->out);
	e2e_assert_values(r->out, E2E_ARGV("ehdr_is_maps_start=1", "phdr_addr_is_ehdr=1", "phdr_header_is_ehdr=1",
					   "phdr_by_addr=1"));
	ck_assert_msg(strstr(r->out, "dladdr_name=linux-vdso.so.1\n"), "%s: dladdr does not name the vDSO:\n%.*s", what,
		      E2E_SHOWN, r->out);
	ck_assert_int_eq(e2e_int_value(r->out, "dladdr_base_is_ehdr"), 1);
}

/* Preloaded with no setting, with FASTRAW_SHADOW_VDSO=0, and without the library as the baseline. */
START_TEST(kernel_vdso_by_default)
{
	static const char *const off[] = { "FASTRAW_SHADOW_VDSO=0", NULL };
	const struct e2e_opts opts[] = { { .env = NULL }, { .env = off }, { .no_preload = 1 } };
	static const char *const what[] = { "default", "FASTRAW_SHADOW_VDSO=0", "no preload" };
	struct e2e_result r;

	run(&r, &opts[_i]);
	assert_identity(&r, what[_i]);
	e2e_result_free(&r);
}
END_TEST

/* Asked for, the shadow is given: an ELF image outside [vdso] that the loader knows as ours. */
START_TEST(shadow_when_asked)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=1") };
	struct e2e_result r;

	run(&r, &opts);
	e2e_assert_values(r.out, E2E_ARGV("ehdr_is_kernel=0", "ehdr_in_maps_vdso=0", "phdr_by_addr=0"));
	ck_assert_msg(strstr(r.out, "dladdr_name=") && strstr(strstr(r.out, "dladdr_name="), "libfastraw"),
		      "dladdr of the shadow does not name the library:\n%.*s", E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

static Suite *vdso_id_suite(void)
{
	Suite *s = suite_create("e2e_vdso_id");
	TCase *tc = e2e_tcase(s, "vdso_id");

	tcase_add_loop_test(tc, kernel_vdso_by_default, 0, 3);
	tcase_add_test(tc, shadow_when_asked);
	return s;
}

int main(void)
{
	return fr_run_suite(vdso_id_suite());
}
