/* SPDX-License-Identifier: MIT */
/* Unit tests of the start-up decisions: the counter choice for every CPU and setting, and the self-test against the vDSO. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "run_suite.h"
#include "startup/decide.h"
#include "startup/locate.h"
#include "synth.h"
#include "elf/vdso_elf.h"

/* The synthetic counter of these tests: the live counter, so synthetic pages meet a live clock. */
static uint64_t live_tsc(void)
{
	return fr_arch_counter_fenced();
}

static fr_real_fn live_vdso(void)
{
	return (fr_real_fn){ (int (*)(clockid_t, struct timespec *))fr_vdso_sym(fr_vdso_base(), FR_ARCH_VDSO_CLOCK_GETTIME,
									  FR_ARCH_VDSO_VERSION) };
}

/* Whether this process has a vDSO (qemu-user gives none: AT_SYSINFO_EHDR is 0); says why not. */
static int have_vdso(const char *test)
{
	if (fr_vdso_base() && live_vdso().call)
		return 1;
	printf("SKIP: %s: no vDSO clock_gettime in this process (AT_SYSINFO_EHDR %s)\n", test,
	       fr_vdso_base() ? "set, no symbol" : "0");
	return 0;
}

/* For each CPU (with, without RDTSCP) and FASTRAW_TSC setting: the counter and the warning flag. */
START_TEST(counter_choice)
{
	static const struct {
		int cpu_rdtscp, tsc_set;
		enum fr_counter_mode asked, want;
		int missing;
	} cases[] = {
		{ 1, 0, 0, FR_CTR_ORDERED, 0 },
		{ 0, 0, 0, FR_CTR_FENCED, 0 },
		{ 1, 1, FR_CTR_ORDERED, FR_CTR_ORDERED, 0 },
		{ 0, 1, FR_CTR_ORDERED, FR_CTR_FENCED, 1 },
		{ 1, 1, FR_CTR_FENCED, FR_CTR_FENCED, 0 },
		{ 0, 1, FR_CTR_FENCED, FR_CTR_FENCED, 0 },
		{ 1, 1, FR_CTR_UNORDERED, FR_CTR_UNORDERED, 0 },
		{ 0, 1, FR_CTR_UNORDERED, FR_CTR_UNORDERED, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fr_env env = { .tsc_set = cases[i].tsc_set, .tsc = cases[i].asked };
		struct fr_cpu_features cpu = { .ordered_read = cases[i].cpu_rdtscp, .invariant_counter = 1 };
		int missing = -1;

		ck_assert_int_eq(fr_choose_counter(&env, &cpu, &missing), cases[i].want);
		ck_assert_int_eq(missing, cases[i].missing);
	}
}
END_TEST

/* The live pages of this process, as start-up finds them, pass the self-test against the live vDSO. */
START_TEST(self_test_passes_on_live_pages)
{
	struct utsname u;
	struct fr_kdata kd;
	struct fr_pick pick;
	const char *why;
	int mode;

	ck_assert_int_eq(uname(&u), 0);
	if (!have_vdso("self_test_passes_on_live_pages"))
		return;
	why = fr_locate(u.release, fr_counter_for(FR_CTR_FENCED), live_vdso(), &kd, &pick);
	if (why) {
		/* No layout for this kernel (before 5.3, or a page no layout matches): nothing to test. */
		printf("self_test_passes_on_live_pages: no layout here: %s\n", why);
		ck_assert(why[0] != '\0');
		return;
	}
	/* Whatever this machine's clocksource: the modes the fast path reads must agree with the
	   vDSO, and mode none (hpet, acpi_pm) must say that no call could be served. */
	mode = fr_kdata_mode(&kd);
	why = fr_self_test(&kd, fr_counter_for(FR_CTR_FENCED), live_vdso());
	printf("self_test_passes_on_live_pages: era %s, clock mode %s: %s\n", pick.era, fr_mode_name(mode),
	       why ? why : "agrees");
	if (fr_mode_served(mode) || fr_mode_is_hvclock(mode))
		ck_assert_ptr_null(why);
	else
		ck_assert_ptr_nonnull(why);
}
END_TEST

/* Whether the counter can be read here (cpu_test.h); else says why the case is skipped. */
static int counter_readable(const char *name)
{
	if (frt_counter_readable())
		return 1;
	printf("SKIP: %s: the counter is not readable in this process (SIGILL)\n", name);
	return 0;
}

/* A page that computes a time far from the kernel's fails the self-test: the fast path stays off. */
START_TEST(self_test_fails_on_a_wrong_page)
{
	struct synth s;
	struct clockvals v = { .seq = 2, .mode = FR_MODE_COUNTER, .max = 1ull << 40,
			       .mult = 1u << 22, .shift = 24, .sec = 1, .B = 0 };

	if (!have_vdso("self_test_fails_on_a_wrong_page") || !counter_readable("self_test_fails_on_a_wrong_page"))
		return;
	v.L = live_tsc();
	synth_init(&s, N_ERAS - 1);
	synth_set_clock(&s, 0, &v);
	ck_assert_str_eq(fr_self_test(&s.kd, live_tsc, live_vdso()), "self-test against the vDSO failed");
	synth_free(&s);
}
END_TEST

/* A page in mode NONE serves no call: the self-test cannot pass, and says why. */
START_TEST(self_test_needs_a_served_call)
{
	struct synth s;
	struct clockvals v = { .seq = 2, .mode = FR_MODE_NONE, .L = 0, .max = 1, .mult = 1, .shift = 0 };
	const char *why;

	if (!have_vdso("self_test_needs_a_served_call"))
		return;
	synth_init(&s, N_ERAS - 1);
	synth_set_clock(&s, 0, &v);
	why = fr_self_test(&s.kd, live_tsc, live_vdso());
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "could not serve"));
	synth_free(&s);
}
END_TEST

/* Without a vDSO there is nothing to compare with. */
START_TEST(self_test_needs_a_vdso)
{
	struct synth s;

	synth_init(&s, N_ERAS - 1);
	ck_assert_str_eq(fr_self_test(&s.kd, live_tsc, fr_real_sys()), "no vDSO to check against");
	synth_free(&s);
}
END_TEST

/* The live pages pass the served clocks' self-test too: their bases are where the era keeps them. */
START_TEST(served_self_test_passes_on_live_pages)
{
	const unsigned all = 1u << CLOCK_REALTIME | 1u << CLOCK_MONOTONIC | 1u << CLOCK_BOOTTIME | 1u << CLOCK_TAI |
			     1u << CLOCK_REALTIME_COARSE | 1u << CLOCK_MONOTONIC_COARSE | 1u << CLOCK_MONOTONIC_RAW;
	struct utsname u;
	struct fr_kdata kd;
	struct fr_pick pick;
	const char *why;
	int mode;

	ck_assert_int_eq(uname(&u), 0);
	if (!have_vdso("served_self_test_passes_on_live_pages"))
		return;
	why = fr_locate(u.release, fr_counter_for(FR_CTR_FENCED), live_vdso(), &kd, &pick);
	if (why) {
		printf("served_self_test_passes_on_live_pages: no layout here: %s\n", why);
		return;
	}
	mode = fr_kdata_mode(&kd);
	why = fr_self_test_clocks(&kd, fr_counter_for(FR_CTR_FENCED), live_vdso(), all);
	printf("served_self_test_passes_on_live_pages: era %s, clock mode %s: %s\n", pick.era, fr_mode_name(mode),
	       why ? why : "agrees");
	if (fr_mode_served(mode) || fr_mode_is_hvclock(mode))
		ck_assert_ptr_null(why);
	else
		ck_assert_ptr_nonnull(why);
}
END_TEST

/*
 * A page whose CS_HRES_COARSE entry is not the kernel's (here: the clock mode of RAW's entry, every
 * field and base zero) fails the served clocks' self-test: each clock reads a time far from the
 * vDSO's. Only the served clocks' test looks at that entry.
 */
START_TEST(served_self_test_fails_on_a_wrong_page)
{
	struct synth s;
	struct clockvals v = { .seq = 2, .mode = FR_MODE_COUNTER, .max = 1ull << 40,
			       .mult = 1u << 22, .shift = 24, .sec = 1, .B = 0 };

	if (!have_vdso("served_self_test_fails_on_a_wrong_page") ||
	    !counter_readable("served_self_test_fails_on_a_wrong_page"))
		return;
	v.L = live_tsc();
	synth_init(&s, N_ERAS - 1);
	synth_set_clock(&s, 0, &v);
	ck_assert_str_eq(fr_self_test_clocks(&s.kd, live_tsc, live_vdso(), 1u << CLOCK_MONOTONIC_COARSE),
			 "a served clock's self-test against the vDSO failed");
	ck_assert_str_eq(fr_self_test_clocks(&s.kd, live_tsc, live_vdso(), 1u << CLOCK_MONOTONIC),
			 "a served clock's self-test against the vDSO failed");
	/* RAW alone asks nothing of it. */
	ck_assert_ptr_null(fr_self_test_clocks(&s.kd, live_tsc, live_vdso(), 1u << CLOCK_MONOTONIC_RAW));
	ck_assert_str_eq(fr_self_test_clocks(&s.kd, live_tsc, fr_real_sys(), 1u << CLOCK_MONOTONIC),
			 "no vDSO to check the served clocks against");
	synth_free(&s);
}
END_TEST

/*
 * On this host, through the release seam of fr_locate: a release newer than the newest known
 * reaches the layout of the real release when that is the newest layout and its clock mode is one
 * the fast path computes (the real self-test judging), and is refused otherwise. A release of an
 * era whose [vvar] sits elsewhere (6.12 here, 6.18 on an older host) ends on the same bytes as the
 * real release, assumed, or is refused where the real page is not in a mode the fast path computes.
 */
START_TEST(fake_releases_on_the_live_host)
{
	fr_counter_fn ctr = fr_counter_for(FR_CTR_FENCED);
	struct fr_kdata real_kd, kd;
	struct fr_pick real_pick, pick;
	struct utsname u;
	const char *why, *other;
	int mode, newest;

	ck_assert_int_eq(uname(&u), 0);
	if (!have_vdso("fake_releases_on_the_live_host"))
		return;
	why = fr_locate(u.release, ctr, live_vdso(), &real_kd, &real_pick);
	if (why) {
		printf("SKIP: fake_releases_on_the_live_host: the real release %s is not served: %s\n", u.release, why);
		return;
	}
	ck_assert_int_eq(real_pick.assumed, 0);
	mode = fr_kdata_mode(&real_kd);
	newest = real_kd.lay == fr_layout_newest(0);
	why = fr_locate("99.1.0-fake", ctr, live_vdso(), &kd, &pick);
	if (newest && fr_mode_served(mode) && !fr_kdata_check_strict(&real_kd)) {
		ck_assert_msg(why == NULL, "kernel %s, mode %s: 99.1 refused: %s", u.release, fr_mode_name(mode), why);
		ck_assert_ptr_eq(kd.lay, real_kd.lay);
		ck_assert(kd.vvar == real_kd.vvar && kd.raw0 == real_kd.raw0 && kd.vclock == real_kd.vclock);
		ck_assert_int_eq(pick.assumed, 1);
		ck_assert_str_eq(pick.note, "assumed: kernel 99.1 is newer than the newest known, 7.3; page and vDSO agree");
	} else {
		printf("kernel %s (%s, mode %s): a newer release must be refused\n", u.release, real_kd.lay->name,
		       fr_mode_name(mode));
		ck_assert_ptr_nonnull(why);
		ck_assert_msg(strstr(why, "kernel 99.1 is newer than the newest known, 7.3"), "%s", why);
		ck_assert_str_eq(pick.era, "none");
	}
	/* The release of the newest era whose [vvar] is elsewhere. */
	other = NULL;
	for (int i = N_ERAS - 1; i >= 0 && !other; i--)
		if (eras[i].below != real_kd.lay->pages_below)
			other = eras[i].release;
	ck_assert_ptr_nonnull(other);
	why = fr_locate(other, ctr, live_vdso(), &kd, &pick);
	if (fr_mode_served(mode)) {
		ck_assert_msg(why == NULL, "kernel %s as %s: %s", u.release, other, why);
		ck_assert_int_eq(pick.assumed, 1);
		ck_assert(kd.raw0 == real_kd.raw0 && kd.lay->field_shift == real_kd.lay->field_shift);
		ck_assert_ptr_nonnull(strstr(pick.note, "whose page checks fail ([vvar] is not where this kernel era puts it)"));
	} else {
		ck_assert_ptr_nonnull(why);
	}
}
END_TEST

/* Every era's layout has a fast path for every counter read (the instances fit the layouts). */
START_TEST(every_layout_has_fast_paths)
{
	for (size_t i = 0; i < N_ERAS; i++) {
		const struct fr_layout *lay = fr_layout_by_name(eras[i].name);

		ck_assert_ptr_nonnull(lay);
		for (int m = FR_CTR_ORDERED; m <= FR_CTR_UNORDERED; m++)
			ck_assert_msg(fr_raw_for(lay, (enum fr_counter_mode)m) != NULL, "era %s mode %d", eras[i].name, m);
	}
}
END_TEST

static Suite *decide_suite(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("decide");

	tcase_add_test(tc, counter_choice);
	tcase_add_test(tc, every_layout_has_fast_paths);
	tcase_add_test(tc, self_test_passes_on_live_pages);
	tcase_add_test(tc, fake_releases_on_the_live_host);
	tcase_add_test(tc, self_test_fails_on_a_wrong_page);
	tcase_add_test(tc, self_test_needs_a_served_call);
	tcase_add_test(tc, self_test_needs_a_vdso);
	tcase_add_test(tc, served_self_test_passes_on_live_pages);
	tcase_add_test(tc, served_self_test_fails_on_a_wrong_page);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(decide_suite());
}
