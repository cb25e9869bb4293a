/* SPDX-License-Identifier: MIT */
/* Unit tests of fr_kdata_check, the namespace and mode queries, and the era tables of kdata.c. */
#include <check.h>
#include <string.h>

#include "kdata/eras.h"
#include "synth.h"

static const struct clockvals good = {
	.seq = 6, .mode = FR_MODE_COUNTER, .L = 123456789, .max = 1ULL << 40, .mult = 8004479, .shift = 24,
	.sec = 100, .B = 0,
};

/* Pages of era i whose data page 0 holds `good`. */
static void good_pages(struct synth *s, int i)
{
	synth_init(s, i);
	synth_set_clock(s, 0, &good);
}

static void expect_reject(struct synth *s, const char *what)
{
	const char *why = fr_kdata_check(&s->kd);

	ck_assert_msg(why != NULL, "era %s: fr_kdata_check accepted %s", s->era->name, what);
	synth_free(s);
}

START_TEST(accepts_good_pages)
{
	/* Every mode the architecture's kernel writes: none, the counter, and pvclock, hvclock (x86) or archtimer_nocompat (arm64). */
#if FR_ARCH_HAS_VCLOCK
	static const uint32_t modes[] = { FR_MODE_NONE, FR_MODE_COUNTER, FR_MODE_PVCLOCK, FR_MODE_HVCLOCK };
#else
	static const uint32_t modes[] = { FR_MODE_NONE, FR_MODE_COUNTER, FR_MODE_COUNTER_ALT, FR_MODE_COUNTER };
#endif
	/* hrtimer_res: 1 with high-resolution timers, else TICK_NSEC (HZ 1000, 250, 100). */
	static const uint32_t res[] = { 1, 1000000, 4000000, 10000000 };
	struct synth s;
	struct clockvals v = good;

	synth_init(&s, _i);
	for (size_t k = 0; k < 4; k++) {
		v.mode = modes[k];
		synth_set_clock(&s, 0, &v);
		synth_put32(s.vvar + s.era->hrtimer, res[k]);
		ck_assert_msg(fr_kdata_check(&s.kd) == NULL, "era %s, mode %u, hrtimer_res %u: %s", s.era->name,
			      v.mode, res[k], fr_kdata_check(&s.kd));
		ck_assert_int_eq(fr_kdata_in_timens(&s.kd), 0);
		ck_assert_int_eq(fr_kdata_mode(&s.kd), (int)v.mode);
	}
	/* Mode none keeps the last clocksource's mask (hpet, acpi_pm: 32 or 24 bits): no reason to
	   reject the page, whose mode then sends every call to the kernel. */
	v.mode = FR_MODE_NONE;
	synth_set_clock(&s, 0, &v);
	synth_put64(synth_field(&s, 0, 1, 16), 0xffffffffULL);
	synth_put64(synth_field(&s, 0, 0, 16), 0xffffffffULL);
	ck_assert_msg(fr_kdata_check(&s.kd) == NULL, "era %s, mode none, 32-bit mask: %s", s.era->name,
		      fr_kdata_check(&s.kd));
	ck_assert_int_eq(fr_kdata_mode(&s.kd), FR_MODE_NONE);
	/* Mode none carries no clocksource: mult 0 is fine there. */
	v.mult = 0;
	synth_set_clock(&s, 0, &v);
	ck_assert_ptr_null(fr_kdata_check(&s.kd));
#if FR_ARCH_DELTA_MASKED
	/* The generic delta takes any contiguous low mask of 32 bits or more: 56 (the generic timer), 64, 32. */
	static const uint64_t masks[] = { SYNTH_MASK56, ~0ULL, 0xffffffffULL, (1ULL << 63) - 1 };
	for (size_t k = 0; k < sizeof(masks) / sizeof(masks[0]); k++) {
		v = good;
		v.mask = masks[k];
		synth_set_clock(&s, 0, &v);
		ck_assert_msg(fr_kdata_check(&s.kd) == NULL, "era %s, mask %#llx: %s", s.era->name,
			      (unsigned long long)masks[k], fr_kdata_check(&s.kd));
	}
#endif
	synth_free(&s);
}
END_TEST

START_TEST(rejects_bad_pages)
{
	struct synth s;
	struct clockvals v = good;

	good_pages(&s, _i);
	synth_put32(synth_field(&s, 0, 0, 0), good.seq + 2);
	expect_reject(&s, "entries with different seq");

	v.mode = 5;
	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	expect_reject(&s, "an unknown clock mode");

	/* One past the highest mode this architecture knows (x86: hvclock 3; arm64: archtimer_nocompat 2). */
	v.mode = FR_MODE_LAST + 1;
	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	expect_reject(&s, "the mode after the last known one");

	good_pages(&s, _i);
	/* Where the counter has one mode number (32-bit ARM), none stands for the other mode. */
	synth_put32(synth_field(&s, 0, 0, 4), SYNTH_OTHER_MODE != FR_MODE_COUNTER ? SYNTH_OTHER_MODE : FR_MODE_NONE);
	expect_reject(&s, "entries with different modes");

#if FR_ARCH_DELTA_MASKED
	/* The generic delta: a mask must be contiguous from bit 0 and at least 32 bits wide. */
	static const uint64_t bad_mask[] = { 0xffffULL, 0x7fffffffULL, SYNTH_MASK56 - 1, SYNTH_MASK56 << 4 };
	for (size_t k = 0; k < sizeof(bad_mask) / sizeof(bad_mask[0]); k++) {
		v = good;
		v.mask = bad_mask[k];
		synth_init(&s, _i);
		synth_set_clock(&s, 0, &v);
		expect_reject(&s, "a mask that is not a low mask of 32 bits or more");
	}
	good_pages(&s, _i);
	synth_put64(synth_field(&s, 0, 1, 16), 0);
	synth_put64(synth_field(&s, 0, 0, 16), 0);
	expect_reject(&s, "mask 0");
#else
	good_pages(&s, _i);
	synth_put64(synth_field(&s, 0, 1, 16), 0xffffffffULL);
	expect_reject(&s, "mask != ~0");
#endif

	v = good;
	v.shift = 64;
	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	expect_reject(&s, "shift 64");

	v = good;
	v.mult = 0;
	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	expect_reject(&s, "mult 0 in TSC mode");

	static const uint32_t bad_res[] = { 0, 2, 999999, 100000001, 0xffffffffu };
	for (size_t k = 0; k < sizeof(bad_res) / sizeof(bad_res[0]); k++) {
		good_pages(&s, _i);
		synth_put32(s.vvar + s.era->hrtimer, bad_res[k]);
		expect_reject(&s, "a bad hrtimer_res");
	}

	v = good;
	v.seq = 7;
	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	expect_reject(&s, "a seq stuck odd");
}
END_TEST

START_TEST(time_namespace_pages)
{
	static const struct nsoff off = { 1000, 250000000 };
	const struct era *e = &eras[_i];
	struct synth s;
	struct clockvals v = good;

	synth_init(&s, _i);
	v.mode = SYNTH_OTHER_MODE;
	synth_set_clock(&s, e->timens_page ? e->timens_page : 1, &v);
	synth_set_timens(&s, &off, e->timens_page ? e->timens_mode : 0x7FFFFFFFu);
	if (!e->timens_page) {
		/* 5.3-5.5 have no namespaces: that page is one that never settles. */
		ck_assert_int_eq(fr_kdata_in_timens(&s.kd), 0);
		expect_reject(&s, "a namespace page in an era without namespaces");
		return;
	}
	ck_assert_int_eq(fr_kdata_in_timens(&s.kd), 1);
	ck_assert_msg(fr_kdata_check(&s.kd) == NULL, "era %s: %s", e->name, fr_kdata_check(&s.kd));
	ck_assert_int_eq(fr_kdata_mode(&s.kd), SYNTH_OTHER_MODE);
	/* The real page must pass the same checks. */
	synth_put64(synth_field(&s, e->timens_page, 1, 16), 0);
	expect_reject(&s, "a namespace whose real page has mask 0");
	/* A namespace page always has seq 1 (kernel/time/namespace.c); 3 is something else. */
	synth_init(&s, _i);
	synth_set_clock(&s, e->timens_page, &v);
	synth_set_timens(&s, &off, e->timens_mode);
	synth_put32(synth_field(&s, 0, 1, 0), 3);
	expect_reject(&s, "a namespace page with seq 3");
	/* The other era's marker is no namespace. */
	synth_init(&s, _i);
	synth_set_clock(&s, e->timens_page, &v);
	synth_set_timens(&s, &off, e->timens_mode ^ 0x80000000u);
	ck_assert_int_eq(fr_kdata_in_timens(&s.kd), 0);
	expect_reject(&s, "a namespace page with the other era's marker");
}
END_TEST

TCase *kdata_check_tcase(void)
{
	TCase *tc = tcase_create("check");

	tcase_add_loop_test(tc, accepts_good_pages, 0, N_ERAS);
	tcase_add_loop_test(tc, rejects_bad_pages, 0, N_ERAS);
	tcase_add_loop_test(tc, time_namespace_pages, 0, N_ERAS);
	return tc;
}

static void expect_era(const char *release, const char *name)
{
	const char *why = "unset";
	enum fr_release_kind kind = FR_REL_UNPARSED;
	const struct fr_layout *lay = fr_layout_for_release_kind(release, &why, &kind);

	ck_assert_msg(lay != NULL, "%s: no layout (%s)", release, why);
	ck_assert_str_eq(lay->name, name);
	ck_assert_ptr_null(why);
	ck_assert_int_eq(kind, FR_REL_KNOWN);
}

static void expect_kind(const char *release, enum fr_release_kind want)
{
	const char *why = NULL;
	enum fr_release_kind kind = FR_REL_KNOWN;

	ck_assert_ptr_null(fr_layout_for_release_kind(release, &why, &kind));
	ck_assert_msg(kind == want, "\"%s\": kind %d, want %d", release, kind, want);
}

static void expect_none(const char *release, const char *mention)
{
	const char *why = NULL;

	ck_assert_msg(fr_layout_for_release(release, &why) == NULL, "\"%s\" got a layout", release);
	ck_assert_msg(why != NULL, "\"%s\": no reason", release);
	if (mention)
		ck_assert_msg(strstr(why, mention) != NULL, "\"%s\": reason \"%s\" does not mention %s", release,
			      why, mention);
}

START_TEST(layout_for_release)
{
	/* The architecture's releases and eras: tests/oracle/<cpu>/cpu_test.h. */
	static const struct {
		const char *release, *era;
	} rel_eras[] = { FRT_RELEASE_ERAS }, before[] = { FRT_RELEASES_BEFORE };
	const char *old_kind = FRT_RELEASE_OLD_KIND;

	for (size_t i = 0; i < sizeof(rel_eras) / sizeof(rel_eras[0]); i++)
		expect_era(rel_eras[i].release, rel_eras[i].era);
	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++)
		expect_none(before[i].release, before[i].era);
	if (old_kind)
		expect_kind(old_kind, FR_REL_OLD);
	/* Past the newest known release: no layout by number (startup/locate.c may still assume one). */
	expect_none("7.4.0", "newer");
	expect_none("7.10.1", "newer");
	expect_none("8.1.0-generic", "newer");
	expect_none("99999.1", "newer");
	expect_kind("7.4", FR_REL_NEWER);
	expect_kind("4.18.0-553.el8_10.x86_64", FR_REL_OLD);
	expect_none("4.18.0", fr_eras_old_why);
	expect_none("garbage", "not understood");
	expect_none("", "not understood");
	expect_none("6", "not understood");
	expect_none("7", "not understood");
	expect_none("6.", "not understood");
	expect_none(".18", "not understood");
	expect_none(NULL, "not understood");
	/* Seven digits are no kernel's: not read as a smaller number. */
	expect_none("1234567.1", "not understood");
	expect_none("6.1234567", "not understood");
	expect_kind("7", FR_REL_UNPARSED);
	/* The newest-first order covers every layout once, 6.17+ first. */
	ck_assert_str_eq(fr_layout_newest(0)->name, "6.17+");
	ck_assert_str_eq(fr_layout_newest(N_ERAS - 1)->name, eras[0].full);
	ck_assert_ptr_null(fr_layout_newest(N_ERAS));
	for (unsigned i = 0; i < N_ERAS; i++)
		ck_assert_ptr_eq(fr_layout_newest(i), fr_layout_by_name(eras[N_ERAS - 1 - i].name));
}
END_TEST

START_TEST(layout_by_name)
{
	/* Each era key names one layout, the same one its release maps to; the geometry of synth.c's table. */
	const struct era *e = &eras[_i];
	const struct fr_layout *lay = fr_layout_by_name(e->name);
	const char *why;

	ck_assert_ptr_nonnull(lay);
	ck_assert_str_eq(lay->name, e->full);
	ck_assert_ptr_eq(fr_layout_for_release(e->release, &why), lay);
	ck_assert_uint_eq(lay->pages_below, e->below);
	ck_assert_uint_eq(lay->vclock_page, e->vclock);
	ck_assert_int_eq(lay->rules, e->lib_rules);
	ck_assert_uint_eq(lay->timens_page, e->timens_page);
	ck_assert_uint_eq(lay->data_off + lay->clock_size, e->raw);
	ck_assert_uint_eq(lay->clock_size, e->size);
	ck_assert_uint_eq(lay->data_off + lay->hrtimer_off, e->hrtimer);
	ck_assert_uint_eq(lay->field_shift, e->has_max ? 8 : 0);
	if (e->timens_page)
		ck_assert_uint_eq(lay->timens_mode, e->timens_mode);
}
END_TEST

START_TEST(names)
{
	ck_assert_ptr_null(fr_layout_by_name("6.1"));
	ck_assert_ptr_null(fr_layout_by_name("4.19"));
	ck_assert_ptr_null(fr_layout_by_name("7"));
	ck_assert_ptr_null(fr_layout_by_name("7.3"));
	ck_assert_str_eq(fr_mode_name(FR_MODE_NONE), "none");
	{
		static const struct {
			int mode;
			const char *name;
		} modes[] = { FRT_MODE_NAMES };

		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			ck_assert_str_eq(fr_mode_name(modes[i].mode), modes[i].name);
	}
	ck_assert_str_eq(fr_mode_name(0x7FFFFFFF), "unknown");
}
END_TEST

TCase *kdata_release_tcase(void)
{
	TCase *tc = tcase_create("layouts");

	tcase_add_test(tc, layout_for_release);
	tcase_add_loop_test(tc, layout_by_name, 0, N_ERAS);
	tcase_add_test(tc, names);
	return tc;
}
