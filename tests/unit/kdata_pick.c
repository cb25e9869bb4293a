/* SPDX-License-Identifier: MIT */
/* Unit tests of the strict page checks and of the layout choice (fr_locate_in) on synthetic pages of every era. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "kdata/eras.h"
#include "startup/locate.h"
#include "synth.h"

/* A kernel's page as update_vsyscall leaves it: both entries from one clocksource, hrtimer_res 1. */
static const struct clockvals kernel_tsc = {
	.seq = 40, .mode = FR_MODE_COUNTER, .L = 0x11b864b56c5ULL, .max = 0x256bead120aULL, .mult = 6462419,
	.shift = 24, .sec = 5000, .B = 123ULL << 24,
};

static void kernel_pages(struct synth *s, int era, const struct clockvals *v)
{
	synth_init(s, era);
	synth_set_clock(s, 0, v);
	synth_share_clocksource(s, 0);
}

/* The judge of these tests: counts its calls, remembers the layout it saw, answers as told. */
struct judge_log {
	int calls;
	const char *era;
	const char *answer;
};

static const char *fake_judge(const struct fr_kdata *kd, void *ctx)
{
	struct judge_log *j = ctx;

	j->calls++;
	j->era = kd->lay->name;
	return j->answer;
}

/* Where the maps would put the synthetic pages if their kernel were of layout `as`. */
static struct fr_where where_for(const struct synth *s, const char *as)
{
	const struct fr_layout *lay = fr_layout_by_name(as);
	struct fr_where w = { 0, (uintptr_t)s->vvar, (uintptr_t)s->pv, 1, FR_CODE_UNKNOWN };

	/* The vDSO address is only ever compared, never read. */
	w.vdso = w.vvar + (uintptr_t)lay->pages_below * FR_PAGE_SIZE;
	return w;
}

/* The newest era whose [vvar] is not where the newest era's is (x86: 6.13-6.14; arm64: 5.10-6.14). */
static const struct era *other_place(void)
{
	for (int i = N_ERAS - 1; i >= 0; i--)
		if (eras[i].below != eras[N_ERAS - 1].below)
			return &eras[i];
	ck_abort_msg("every era puts [vvar] in one place");
	return NULL;
}

/* The release's "M.m", as the notes print it. */
static void said_of(const char *release, char *out, size_t n)
{
	unsigned major, minor;

	ck_assert_int_eq(fr_release_parse(release, &major, &minor), 0);
	snprintf(out, n, "%u.%u", major, minor);
}

/* On a kernel's page of every era, the strict checks of that era pass. */
START_TEST(strict_accepts_kernel_pages)
{
	struct synth s;
	struct clockvals v = kernel_tsc;

	kernel_pages(&s, _i, &v);
	ck_assert_msg(fr_kdata_check_strict(&s.kd) == NULL, "era %s: %s", s.era->name,
		      fr_kdata_check_strict(&s.kd));
	v.mode = SYNTH_OTHER_MODE;
	kernel_pages(&s, _i, &v);
	ck_assert_ptr_null(fr_kdata_check_strict(&s.kd));
#if FR_ARCH_DELTA_MASKED
	/* A 64-bit counter (mask ~0) is a clocksource the generic delta reads too. */
	synth_free(&s);
	v.mask = ~0ULL;
	kernel_pages(&s, _i, &v);
	ck_assert_ptr_null(fr_kdata_check_strict(&s.kd));
	/* The two entries come from one clocksource: their masks agree. */
	synth_put64(synth_field(&s, 0, 0, 16), SYNTH_MASK56);
	ck_assert_ptr_null(fr_kdata_check(&s.kd));
	ck_assert_str_eq(fr_kdata_check_strict(&s.kd), "the two clock entries disagree on their clocksource");
#endif
	synth_free(&s);
}
END_TEST

/* What fr_kdata_check lets through for the release's own era, the strict checks refuse. */
START_TEST(strict_rejects_what_check_allows)
{
	struct synth s;
	struct clockvals v = kernel_tsc;

	/* synth_set_clock gives clock_data[0] another cycle_last, as no kernel does. */
	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	ck_assert_ptr_null(fr_kdata_check(&s.kd));
	ck_assert_str_eq(fr_kdata_check_strict(&s.kd), "the two clock entries disagree on their clocksource");
	synth_free(&s);

	kernel_pages(&s, _i, &v);
	synth_put32(synth_field(&s, 0, 0, 28), v.shift + 1);
	ck_assert_ptr_nonnull(fr_kdata_check_strict(&s.kd));
	synth_free(&s);

	kernel_pages(&s, _i, &v);
	synth_put32(s.vvar + s.era->hrtimer, 4000000);
	ck_assert_ptr_null(fr_kdata_check(&s.kd));
	ck_assert_str_eq(fr_kdata_check_strict(&s.kd), "hrtimer_res is not 1");
	synth_free(&s);

	/* Modes the page may carry that the fast path does not compute: none, and hvclock (x86). */
#if FR_HAS_VCLOCK
	static const uint32_t modes[] = { FR_MODE_NONE, FR_MODE_HVCLOCK };
#else
	static const uint32_t modes[] = { FR_MODE_NONE };
#endif
	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		v = kernel_tsc;
		v.mode = modes[k];
		kernel_pages(&s, _i, &v);
		ck_assert_ptr_null(fr_kdata_check(&s.kd));
		ck_assert_str_eq(fr_kdata_check_strict(&s.kd), "clock mode not one the fast path computes");
		synth_free(&s);
	}
}
END_TEST

/* Whether two layouts read the same bytes of page 0: then only [vvar]'s place and the rules differ. */
static int same_offsets(const struct fr_layout *a, const struct fr_layout *b)
{
	return a->data_off == b->data_off && a->clock_size == b->clock_size && a->field_shift == b->field_shift &&
	       a->hrtimer_off == b->hrtimer_off;
}

/*
 * A wrong layout cannot pass: on a kernel's page of era i, the strict checks of every layout
 * that reads other offsets fail. Layouts reading the same offsets are only 5.3-5.5, 5.6, 5.7-6.4
 * and 6.5-6.9 among themselves (told apart by [vvar]'s place and the release, not the page).
 */
START_TEST(strict_rejects_every_wrong_layout)
{
	static const uint32_t modes[] = { FR_MODE_COUNTER, SYNTH_OTHER_MODE };
	struct synth s;
	struct clockvals v = kernel_tsc;

	for (size_t m = 0; m < 2; m++) {
		v.mode = modes[m];
		kernel_pages(&s, _i, &v);
		for (unsigned k = 0; fr_layout_newest(k); k++) {
			const struct fr_layout *lay = fr_layout_newest(k);
			struct fr_kdata kd;

			if (same_offsets(lay, s.kd.lay)) {
				/* x86's 5.3-6.9 layouts share their offsets; arm64's share none. */
				ck_assert_msg(lay == s.kd.lay || (FR_HAS_VCLOCK && lay->data_off == 0x80 &&
								  lay->clock_size == 0xF0),
					      "%s and %s read the same offsets", lay->name, s.kd.lay->name);
				continue;
			}
			fr_kdata_init(&kd, lay, s.vvar, s.pv);
			ck_assert_msg(fr_kdata_check_strict(&kd) != NULL, "a %s page passes as %s", s.era->name,
				      lay->name);
		}
		synth_free(&s);
	}
}
END_TEST

/* The release's own era passes: no judge, nothing assumed. */
START_TEST(own_era_is_taken)
{
	struct judge_log j = { 0, NULL, "must not be asked" };
	struct synth s;
	struct fr_kdata kd;
	struct fr_pick pick;
	struct fr_where w;

	kernel_pages(&s, _i, &kernel_tsc);
	w = where_for(&s, s.era->name);
	ck_assert_ptr_null(fr_locate_in(s.era->release, &w, fake_judge, &j, &kd, &pick));
	ck_assert_str_eq(pick.era, s.kd.lay->name);
	ck_assert_int_eq(pick.assumed, 0);
	ck_assert_str_eq(pick.note, "");
	ck_assert_int_eq(j.calls, 0);
	ck_assert(kd.raw0 == s.kd.raw0);
	synth_free(&s);
}
END_TEST

/* A release newer than the newest known takes the newest layout when the page and the judge agree. */
START_TEST(newer_release_assumes_newest)
{
	static const char *const newer[] = { "7.4.0", "8.1.0-1-amd64", "99999.1" };
	static const char *const said[] = { "7.4", "8.1", "99999.1" };
	struct synth s;
	struct fr_kdata kd;
	struct fr_pick pick;
	struct fr_where w;
	char want[200];

	kernel_pages(&s, N_ERAS - 1, &kernel_tsc);
	w = where_for(&s, "6.17");
	for (size_t k = 0; k < 3; k++) {
		struct judge_log j = { 0, NULL, NULL };

		ck_assert_ptr_null(fr_locate_in(newer[k], &w, fake_judge, &j, &kd, &pick));
		ck_assert_str_eq(pick.era, "6.17+");
		ck_assert_int_eq(pick.assumed, 1);
		snprintf(want, sizeof(want),
			 "assumed: kernel %s is newer than the newest known, 7.3; page and vDSO agree", said[k]);
		ck_assert_str_eq(pick.note, want);
		ck_assert_int_eq(j.calls, 1);
		ck_assert_str_eq(j.era, "6.17+");
		ck_assert(kd.raw0 == s.kd.raw0);
	}
	synth_free(&s);
}
END_TEST

static void expect_refused(const char *release, const struct fr_where *w, struct judge_log *j,
			   const char *reason)
{
	struct fr_kdata kd;
	struct fr_pick pick;
	const char *why;

	/* Not zero to begin with: a refusal must zero kd itself (startup/locate.h). */
	memset(&kd, 0xa5, sizeof(kd));
	why = fr_locate_in(release, w, fake_judge, j, &kd, &pick);

	ck_assert_msg(why != NULL, "%s: a layout was taken (%s)", release, pick.era);
	ck_assert_str_eq(why, reason);
	ck_assert_str_eq(pick.era, "none");
	ck_assert_int_eq(pick.assumed, 0);
	ck_assert_msg(kd.lay == NULL, "%s: refused (%s) but kd.lay is %p, not zeroed", release, why, (const void *)kd.lay);
}

/* A newer release whose page is not the newest layout's, or whose vDSO disagrees, is refused. */
START_TEST(newer_release_refused_on_any_mismatch)
{
	struct judge_log j = { 0, NULL, "self-test against the vDSO failed" };
	struct clockvals v = kernel_tsc;
	struct synth s;
	struct fr_where w;

	/* Page and place fit, the vDSO disagrees. */
	kernel_pages(&s, N_ERAS - 1, &v);
	w = where_for(&s, "6.17");
	expect_refused("8.1.0", &w, &j,
		       "kernel 8.1 is newer than the newest known, 7.3; its page matches 6.17+ but "
		       "self-test against the vDSO failed");
	ck_assert_int_eq(j.calls, 1);
	/* Without /proc/self/maps the distance of [vvar] is unknown: nothing is assumed. */
	j.answer = NULL;
	w.from_maps = 0;
	expect_refused("8.1.0", &w, &j,
		       "kernel 8.1 is newer than the newest known, 7.3, and without /proc/self/maps its "
		       "layout cannot be confirmed");
	ck_assert_int_eq(j.calls, 1);
	synth_free(&s);
	/* A 6.15-6.16 page in the same place: no hrtimer_res at 0x918. Older layouts are not tried. */
	kernel_pages(&s, N_ERAS - 2, &v);
	w = where_for(&s, "6.17");
	expect_refused("8.1.0", &w, &j,
		       "kernel 8.1 is newer than the newest known, 7.3, and its page does not match 6.17+: "
		       "implausible hrtimer_res in the data page");
	synth_free(&s);
	/* A 6.17 page, but [vvar] where an older era puts it. */
	kernel_pages(&s, N_ERAS - 1, &v);
	w = where_for(&s, other_place()->name);
	expect_refused("8.1.0", &w, &j,
		       "kernel 8.1 is newer than the newest known, 7.3, and its page does not match 6.17+: "
		       "[vvar] is not where this kernel era puts it");
	synth_free(&s);
	/* Clock mode none (hpet; an arm64 timer the vDSO may not read): nothing the self-test could confirm. */
	v.mode = FR_MODE_NONE;
	kernel_pages(&s, N_ERAS - 1, &v);
	w = where_for(&s, "6.17");
	expect_refused("8.1.0", &w, &j,
		       "kernel 8.1 is newer than the newest known, 7.3, and its page does not match 6.17+: "
		       "clock mode not one the fast path computes");
	ck_assert_int_eq(j.calls, 1);
	/* No [vvar] at all. */
	w.vvar = 0;
	expect_refused("8.1.0", &w, &j, "no [vdso] or [vvar] mapping");
	synth_free(&s);
}
END_TEST

/*
 * A release whose era's page checks fail takes the layout the page proves, newest first: the
 * page of era _i under every other era's release.
 */
START_TEST(release_and_page_disagree)
{
	struct synth s;
	struct fr_where w;
	char want[240];

	kernel_pages(&s, _i, &kernel_tsc);
	w = where_for(&s, s.era->name);
	for (int r = 0; r < N_ERAS; r++) {
		const struct fr_layout *own = fr_layout_by_name(eras[r].name);
		struct judge_log j = { 0, NULL, NULL };
		struct fr_kdata kd;
		struct fr_pick pick;
		const char *why, *own_why;
		char said[32];

		if (r == _i)
			continue;
		fr_kdata_init(&kd, own, s.vvar, s.pv);
		own_why = own->pages_below != s.kd.lay->pages_below ? "[vvar] is not where this kernel era puts it"
								      : fr_kdata_check(&kd);
		said_of(eras[r].release, said, sizeof(said));
		why = fr_locate_in(eras[r].release, &w, fake_judge, &j, &kd, &pick);
		if (!own_why) {
			/* A layout reading the same bytes (5.6 and 5.7-6.4, 5.7-6.4 and 6.5-6.9): the release's word stands. */
			ck_assert_ptr_null(why);
			ck_assert_msg(same_offsets(own, s.kd.lay), "%s accepted on a %s page", own->name, s.era->name);
			ck_assert_str_eq(pick.era, own->name);
			ck_assert_int_eq(pick.assumed, 0);
			continue;
		}
		ck_assert_msg(why == NULL, "release %s, %s page: %s", eras[r].release, s.era->name, why);
		ck_assert_int_eq(pick.assumed, 1);
		/* Newest first: the newest layout reading the same bytes as the page's own. */
		ck_assert_msg(same_offsets(kd.lay, s.kd.lay) && kd.lay->pages_below == s.kd.lay->pages_below,
			      "release %s, %s page: took %s", eras[r].release, s.era->name, pick.era);
		ck_assert(kd.raw0 == s.kd.raw0);
		ck_assert_str_eq(j.era, pick.era);
		snprintf(want, sizeof(want), "assumed: release %s says %s, whose page checks fail (%s); page and vDSO agree",
			 said, own->name, own_why);
		ck_assert_str_eq(pick.note, want);
	}
	synth_free(&s);
}
END_TEST

/* Releases with no era of their own (before 5.3, not understood) take what the page proves. */
START_TEST(odd_releases)
{
	static const struct {
		const char *release, *note;
	} cases[] = {
		/* A release before the first era (5.3 on x86, 5.10 on arm64). */
		{ FRT_RELEASE_BEFORE_FIRST, FRT_RELEASE_BEFORE_FIRST_NOTE },
		{ "7", "assumed: kernel release not understood; page and vDSO agree" },
		{ "", "assumed: kernel release not understood; page and vDSO agree" },
	};
	struct synth s;
	struct fr_where w;

	kernel_pages(&s, N_ERAS - 1, &kernel_tsc);
	w = where_for(&s, "6.17");
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct judge_log j = { 0, NULL, NULL };
		struct fr_kdata kd;
		struct fr_pick pick;
		const char *why;

		ck_assert_ptr_null(fr_locate_in(cases[k].release, &w, fake_judge, &j, &kd, &pick));
		ck_assert_str_eq(pick.era, "6.17+");
		if (cases[k].note) {
			ck_assert_str_eq(pick.note, cases[k].note);
		} else {
			/* startup/locate.c words this note for x86 ("before 5.3"): only its frame is checked. */
			ck_assert_msg(strncmp(pick.note, "assumed: release 5.4 says ", 26) == 0 &&
					      strstr(pick.note, "; page and vDSO agree"),
				      "%s", pick.note);
		}
		/* When the vDSO disagrees, the release's own reason stands. */
		j.answer = "self-test against the vDSO failed";
		why = fr_locate_in(cases[k].release, &w, fake_judge, &j, &kd, &pick);
		ck_assert_ptr_nonnull(why);
		ck_assert_msg(strstr(why, "; its page matches 6.17+ but self-test against the vDSO failed"), "%s", why);
		ck_assert_str_eq(pick.era, "none");
	}
	/* Without the maps a pre-5.3 release keeps its reason. */
	w.from_maps = 0;
	{
		struct judge_log j = { 0, NULL, NULL };
		struct fr_kdata kd;
		struct fr_pick pick;

		ck_assert_str_eq(fr_locate_in("4.19.0", &w, fake_judge, &j, &kd, &pick), fr_eras_old_why);
#ifdef FRT_ERAS_OLD_WHY
		ck_assert_str_eq(fr_eras_old_why, FRT_ERAS_OLD_WHY);
#endif
		ck_assert_int_eq(j.calls, 0);
		ck_assert_str_eq(fr_locate_in(NULL, &w, fake_judge, &j, &kd, &pick), "uname failed");
	}
	synth_free(&s);
}
END_TEST

/* A known release whose page matches nothing keeps its own reason and says so. */
START_TEST(known_release_page_matches_nothing)
{
	struct judge_log j = { 0, NULL, NULL };
	struct clockvals v = kernel_tsc;
	struct synth s;
	struct fr_where w;

	v.shift = 64;
	kernel_pages(&s, N_ERAS - 1, &v);
	w = where_for(&s, "6.17");
	expect_refused("6.18.2", &w, &j, "implausible mult/shift in the data page; no other layout matches the page");
	ck_assert_int_eq(j.calls, 0);
	synth_free(&s);
}
END_TEST

/* The S64_MAX mask in vDSO code, and no false one (FRT_CODE_MASK_CASES: the architecture's encodings). */
START_TEST(code_mask_found)
{
	static const struct {
		uint8_t code[16];
		size_t n;
		int masks;
	} cases[] = { FRT_CODE_MASK_CASES };

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ck_assert_msg(fr_arch_code_masks_counter(cases[k].code, cases[k].n) == cases[k].masks, "case %zu", k);
		/* One byte short of the end never reads past it, nor finds what was cut off. */
		if (cases[k].masks && cases[k].n == 5)
			ck_assert_int_eq(fr_arch_code_masks_counter(cases[k].code, cases[k].n - 1), 0);
	}
	ck_assert_int_eq(fr_arch_code_masks_counter(NULL, 0), 0);
}
END_TEST

/* Two eras that read one page alike and differ in their delta rules (x86: 5.7-6.4, 6.5-6.9), or -1. */
static int twin_eras(int *newer)
{
	for (int i = 0; i < N_ERAS; i++)
		for (int k = i + 1; k < N_ERAS; k++)
			if (eras[i].raw == eras[k].raw && eras[i].size == eras[k].size && eras[i].has_max == eras[k].has_max &&
			    eras[i].hrtimer == eras[k].hrtimer && eras[i].timens_page == eras[k].timens_page &&
			    eras[i].timens_mode == eras[k].timens_mode && eras[i].below == eras[k].below &&
			    eras[i].vclock == eras[k].vclock && eras[i].lib_rules != eras[k].lib_rules) {
				*newer = k;
				return i;
			}
	return -1;
}

/*
 * Of two eras that read the page alike, a release naming neither takes the one whose rules the
 * vDSO's code has (the masking one is the newer), newest first when the code was not read; the
 * note says what the code showed. The arithmetic is the taken era's.
 */
START_TEST(code_tells_twins_apart)
{
	static const char masks[] = "; its code masks the counter with S64_MAX";
	static const char keeps[] = "; its code does not mask the counter with S64_MAX";
	const struct {
		enum fr_code_mask code;
		int newer; /* 1: the newer twin is taken */
		const char *said;
	} cases[] = { { FR_CODE_UNKNOWN, 1, "" }, { FR_CODE_MASKS, 1, masks }, { FR_CODE_NO_MASK, 0, keeps } };
	int newer, older = twin_eras(&newer);
	struct synth s;
	struct fr_where w;
	char want[240];

	if (older < 0) {
		printf("SKIP: code_tells_twins_apart: no two eras of this architecture read one page alike\n");
		return;
	}
	kernel_pages(&s, older, &kernel_tsc);
	w = where_for(&s, eras[older].name);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct era *e = &eras[cases[k].newer ? newer : older];
		struct judge_log j = { 0, NULL, NULL };
		struct fr_kdata kd;
		struct fr_pick pick;

		w.code = cases[k].code;
		ck_assert_ptr_null(fr_locate_in(FRT_RELEASE_BEFORE_FIRST, &w, fake_judge, &j, &kd, &pick));
		ck_assert_str_eq(pick.era, e->full);
		ck_assert_int_eq(kd.lay->rules, e->lib_rules);
		ck_assert_int_eq(pick.assumed, 1);
		/* The refuted twin is never judged. */
		ck_assert_int_eq(j.calls, 1);
		ck_assert_str_eq(j.era, e->full);
		if (FRT_RELEASE_BEFORE_FIRST_NOTE) {
			snprintf(want, sizeof(want), "%s%s", FRT_RELEASE_BEFORE_FIRST_NOTE, cases[k].said);
			ck_assert_str_eq(pick.note, want);
		}
		/* Where the vDSO disagrees with every era, nothing is taken. */
		j.answer = "self-test against the vDSO failed";
		ck_assert_ptr_nonnull(fr_locate_in(FRT_RELEASE_BEFORE_FIRST, &w, fake_judge, &j, &kd, &pick));
		/* A release naming one of the twins keeps it, whatever the code: the release's word stands. */
		j.answer = NULL;
		ck_assert_ptr_null(fr_locate_in(eras[older].release, &w, fake_judge, &j, &kd, &pick));
		ck_assert_str_eq(pick.era, eras[older].full);
		ck_assert_int_eq(pick.assumed, 0);
	}
	synth_free(&s);
	/* A page no other era reads alike: the code is not asked, the note does not mention it. */
	kernel_pages(&s, N_ERAS - 1, &kernel_tsc);
	w = where_for(&s, eras[N_ERAS - 1].name);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct judge_log j = { 0, NULL, NULL };
		struct fr_kdata kd;
		struct fr_pick pick;

		w.code = cases[k].code;
		ck_assert_ptr_null(fr_locate_in(FRT_RELEASE_BEFORE_FIRST, &w, fake_judge, &j, &kd, &pick));
		ck_assert_str_eq(pick.era, eras[N_ERAS - 1].full);
		ck_assert_ptr_null(strstr(pick.note, "its code"));
	}
	synth_free(&s);
}
END_TEST

TCase *kdata_pick_tcase(void)
{
	TCase *tc = tcase_create("pick");

	tcase_add_loop_test(tc, strict_accepts_kernel_pages, 0, N_ERAS);
	tcase_add_loop_test(tc, strict_rejects_what_check_allows, 0, N_ERAS);
	tcase_add_loop_test(tc, strict_rejects_every_wrong_layout, 0, N_ERAS);
	tcase_add_loop_test(tc, own_era_is_taken, 0, N_ERAS);
	tcase_add_test(tc, newer_release_assumes_newest);
	tcase_add_test(tc, newer_release_refused_on_any_mismatch);
	tcase_add_loop_test(tc, release_and_page_disagree, 0, N_ERAS);
	tcase_add_test(tc, odd_releases);
	tcase_add_test(tc, known_release_page_matches_nothing);
	tcase_add_test(tc, code_mask_found);
	tcase_add_test(tc, code_tells_twins_apart);
	return tc;
}
