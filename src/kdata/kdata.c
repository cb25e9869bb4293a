/* SPDX-License-Identifier: MIT */
/* Data-page layouts of each kernel era from 5.3 on, and the checks that a page matches its era. */
#include "kdata/kdata.h"

#include <string.h>

/*
 * Facts from include/vdso/datapage.h, arch/x86/entry/vdso/vdso-layout.lds.S and
 * lib/vdso/datastore.c of each era (docs/kernel-data.md §2 names the sources):
 * 5.3:  [vvar] = vdso - 3 pages (vvar, pvclock, hvclock); vdso_data[2] at +0x80, 240 bytes each.
 * 5.6:  a fourth page, timens, holds the real data inside a namespace; marker VCLOCK_TIMENS = UINT_MAX.
 * 5.7:  the marker becomes VDSO_CLOCKMODE_TIMENS = INT_MAX.
 * 6.5:  new delta rules (bit 62). 6.10: max_cycles (+8 bytes), 248-byte entries, 128-bit path.
 * 6.13: data at offset 0; timens is [vvar] page 1; pvclock moves to [vvar_vclock] = vdso - 2 pages.
 * 6.15: generic data store: [vvar] = vdso - 6 pages; struct vdso_clock of 232 bytes.
 * 6.17: aux_clock_data[8] after clock_data[2] moves hrtimer_res from 0x1d8 to 0x918.
 */
static const struct fr_layout layouts[] = {
	{ "5.3-5.5", FR_RULES_5_3, 3, 0x80, 0xF0, 0, 232, 0, 0, 1 },
	{ "5.6", FR_RULES_5_3, 4, 0x80, 0xF0, 0, 232, 3, 0xFFFFFFFFu, 1 },
	{ "5.7-6.4", FR_RULES_5_3, 4, 0x80, 0xF0, 0, 232, 3, 0x7FFFFFFFu, 1 },
	{ "6.5-6.9", FR_RULES_6_5, 4, 0x80, 0xF0, 0, 232, 3, 0x7FFFFFFFu, 1 },
	{ "6.10-6.12", FR_RULES_6_10, 4, 0x80, 0xF8, 8, 240, 3, 0x7FFFFFFFu, 1 },
	{ "6.13-6.14", FR_RULES_6_10, 4, 0, 0xF8, 8, 240, 1, 0x7FFFFFFFu, 2 },
	{ "6.15-6.16", FR_RULES_6_10, 6, 0, 0xE8, 8, 0x1D8, 1, 0x7FFFFFFFu, 4 },
	{ "6.17+", FR_RULES_6_10, 6, 0, 0xE8, 8, 0x918, 1, 0x7FFFFFFFu, 4 },
};

/*
 * The first release of each layout above, same order. 6.19-7.3 keep the 6.17 layout: 7.2's and
 * 7.3's include/vdso/datapage.h and arch/x86/include/asm/vdso/{vsyscall,gettimeofday}.h give
 * the same struct vdso_clock (0xE8), aux_clock_data[8], hrtimer_res at 0x918, [vvar] 6 pages
 * below the vDSO and the 6.10 delta rules, and their vDSO reads RAW at vdso - 0x6000 + 0xE8.
 * 6.18 was measured; 6.19-7.1 lie between and are taken to match (docs/kernel-data.md §11).
 */
static const struct {
	unsigned major, minor;
} first[] = { { 5, 3 }, { 5, 6 }, { 5, 7 }, { 6, 5 }, { 6, 10 }, { 6, 13 }, { 6, 15 }, { 6, 17 } };

#define N_LAYOUTS (sizeof(layouts) / sizeof(layouts[0]))
_Static_assert(sizeof(first) / sizeof(first[0]) == N_LAYOUTS, "one first release per layout");

static const char *parse_uint(const char *s, unsigned *out)
{
	unsigned v = 0;
	int digits = 0;

	while (*s >= '0' && *s <= '9' && digits < 6) {
		v = v * 10 + (unsigned)(*s - '0');
		s++;
		digits++;
	}
	if (!digits || (*s >= '0' && *s <= '9'))
		return NULL;
	*out = v;
	return s;
}

int fr_release_parse(const char *release, unsigned *major, unsigned *minor)
{
	const char *s = release ? parse_uint(release, major) : NULL;

	return s && *s == '.' && parse_uint(s + 1, minor) ? 0 : -1;
}

/* Whether release major.minor comes before a.b. */
static int before(unsigned major, unsigned minor, unsigned a, unsigned b)
{
	return major < a || (major == a && minor < b);
}

const struct fr_layout *fr_layout_for_release_kind(const char *release, const char **why,
						   enum fr_release_kind *kind)
{
	enum fr_release_kind k = FR_REL_KNOWN;
	const struct fr_layout *lay = NULL;
	unsigned major, minor;

	*why = NULL;
	if (fr_release_parse(release, &major, &minor) != 0) {
		k = FR_REL_UNPARSED;
		*why = "kernel release not understood";
	} else if (!before(major, minor, FR_NEWEST_KNOWN_MAJOR, FR_NEWEST_KNOWN_MINOR + 1)) {
		k = FR_REL_NEWER;
		*why = "kernel newer than the newest this build knows (" FR_NEWEST_KNOWN ")";
	} else if (before(major, minor, first[0].major, first[0].minor)) {
		k = FR_REL_OLD;
		*why = "kernel before 5.3 exports no CLOCK_MONOTONIC_RAW data";
	}
	if (k == FR_REL_KNOWN) {
		for (size_t i = 0; i < N_LAYOUTS; i++) {
			if (!before(major, minor, first[i].major, first[i].minor))
				lay = &layouts[i];
		}
	}
	if (kind)
		*kind = k;
	return lay;
}

const struct fr_layout *fr_layout_for_release(const char *release, const char **why)
{
	return fr_layout_for_release_kind(release, why, NULL);
}

const struct fr_layout *fr_layout_newest(unsigned i)
{
	return i < N_LAYOUTS ? &layouts[N_LAYOUTS - 1 - i] : NULL;
}

const struct fr_layout *fr_layout_by_name(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < N_LAYOUTS; i++) {
		const char *l = layouts[i].name;

		if (strncmp(l, name, n) == 0 && (l[n] == '\0' || l[n] == '-' || l[n] == '+'))
			return &layouts[i];
	}
	return NULL;
}

/* Stands in for a missing pvclock page: its stable bit is clear, so readers pass through. */
static const uint8_t no_pvclock[32];

void fr_kdata_init(struct fr_kdata *kd, const struct fr_layout *lay, const volatile uint8_t *vvar,
		   const volatile uint8_t *vclock)
{
	kd->lay = lay;
	kd->vvar = vvar;
	kd->vclock = vclock;
	kd->hvclock = vclock ? vclock + FR_PAGE_SIZE : NULL;
	kd->raw0 = fr_raw_entry(kd, 0);
	kd->raw_ns = lay->timens_page ? fr_raw_entry(kd, lay->timens_page) : NULL;
	kd->pv_fast = vclock ? vclock : no_pvclock;
}

static uint32_t ld32(const volatile uint8_t *p)
{
	return *(const volatile uint32_t *)p;
}

static uint64_t ld64(const volatile uint8_t *p)
{
	return *(const volatile uint64_t *)p;
}

int fr_kdata_in_timens(const struct fr_kdata *kd)
{
	const volatile uint8_t *e = fr_raw_entry(kd, 0);

	return kd->lay->timens_page && (ld32(e + FR_OFF_SEQ) & 1) &&
	       ld32(e + FR_OFF_MODE) == kd->lay->timens_mode;
}

static uint32_t real_page(const struct fr_kdata *kd)
{
	return fr_kdata_in_timens(kd) ? kd->lay->timens_page : 0;
}

int fr_kdata_mode(const struct fr_kdata *kd)
{
	return (int)ld32(fr_raw_entry(kd, real_page(kd)) + FR_OFF_MODE);
}

const char *fr_mode_name(int mode)
{
	switch (mode) {
	case FR_MODE_NONE: return "none";
	case FR_MODE_TSC: return "tsc";
	case FR_MODE_PVCLOCK: return "pvclock";
	case FR_MODE_HVCLOCK: return "hvclock";
	}
	return "unknown";
}

/* One look at both entries of a page inside a seqcount window; 1 if the window held. */
static int check_once(const struct fr_kdata *kd, uint32_t page, const char **why)
{
	const struct fr_layout *lay = kd->lay;
	const volatile uint8_t *raw = fr_raw_entry(kd, page);
	const volatile uint8_t *hres = raw - lay->clock_size;
	uint32_t seq = ld32(raw + FR_OFF_SEQ), mode, shift, hrtimer_res;
	uint64_t mask;

	if (seq & 1)
		return 0;
	__asm__ volatile("" ::: "memory");
	mode = ld32(raw + FR_OFF_MODE);
	mask = ld64(raw + FR_OFF_MASK + lay->field_shift);
	shift = ld32(raw + FR_OFF_SHIFT + lay->field_shift);
	hrtimer_res = ld32(hres + lay->hrtimer_off);
	if (ld32(hres + FR_OFF_SEQ) != seq) {
		*why = "the two clock entries disagree on seq";
	} else if (mode > FR_MODE_HVCLOCK) {
		*why = "unknown clock mode in the data page";
	} else if (ld32(hres + FR_OFF_MODE) != mode) {
		*why = "the two clock entries disagree on the clock mode";
	} else if (mode != FR_MODE_NONE && mask != ~0ULL) {
		/* Mode none keeps the mask of a clocksource the vDSO cannot read (hpet: 32 bits). */
		*why = "clocksource mask is not ~0";
	} else if (shift >= 64 || (mode != FR_MODE_NONE && ld32(raw + FR_OFF_MULT + lay->field_shift) == 0)) {
		*why = "implausible mult/shift in the data page";
	} else if (hrtimer_res != 1 && (hrtimer_res < 1000000 || hrtimer_res > 100000000)) {
		*why = "implausible hrtimer_res in the data page";
	}
	__asm__ volatile("" ::: "memory");
	return ld32(raw + FR_OFF_SEQ) == seq;
}

const char *fr_kdata_check(const struct fr_kdata *kd)
{
	const struct fr_layout *lay = kd->lay;
	uint32_t page = 0;

	if (fr_kdata_in_timens(kd)) {
		const volatile uint8_t *ns = fr_raw_entry(kd, 0);

		if (ld32(ns + FR_OFF_SEQ) != 1 || ld32(ns - lay->clock_size + FR_OFF_MODE) != lay->timens_mode)
			return "time-namespace page not as expected";
		page = lay->timens_page;
	}
	for (int i = 0; i < FR_SEQ_TRIES * 16; i++) {
		const char *why = NULL;

		if (check_once(kd, page, &why))
			return why;
	}
	return "data page never settled (seq odd or changing)";
}

/* The extra evidence of fr_kdata_check_strict, inside one seqcount window; 1 if the window held. */
static int strict_once(const struct fr_kdata *kd, uint32_t page, const char **why)
{
	const struct fr_layout *lay = kd->lay;
	const volatile uint8_t *raw = fr_raw_entry(kd, page);
	const volatile uint8_t *hres = raw - lay->clock_size;
	uint32_t seq = ld32(raw + FR_OFF_SEQ), fs = lay->field_shift, mode;

	if (seq & 1)
		return 0;
	__asm__ volatile("" ::: "memory");
	mode = ld32(raw + FR_OFF_MODE);
	if (mode != FR_MODE_TSC && mode != FR_MODE_PVCLOCK)
		*why = "clock mode not one the fast path computes";
	else if (ld32(hres + lay->hrtimer_off) != 1)
		*why = "hrtimer_res is not 1";
	else if (ld64(raw + FR_OFF_CYCLE_LAST) != ld64(hres + FR_OFF_CYCLE_LAST) ||
		 ld64(raw + FR_OFF_MASK + fs) != ld64(hres + FR_OFF_MASK + fs) ||
		 ld32(raw + FR_OFF_SHIFT + fs) != ld32(hres + FR_OFF_SHIFT + fs) ||
		 (fs && ld64(raw + FR_OFF_MAX_CYCLES) != ld64(hres + FR_OFF_MAX_CYCLES)))
		*why = "the two clock entries disagree on their clocksource";
	__asm__ volatile("" ::: "memory");
	return ld32(raw + FR_OFF_SEQ) == seq;
}

const char *fr_kdata_check_strict(const struct fr_kdata *kd)
{
	const char *why = fr_kdata_check(kd);
	uint32_t page = 0;

	if (why)
		return why;
	if (fr_kdata_in_timens(kd)) {
		/* The namespace page gives every entry seq 1 and the marker (kernel/time/namespace.c). */
		if (ld32(fr_raw_entry(kd, 0) - kd->lay->clock_size + FR_OFF_SEQ) != 1)
			return "time-namespace page not as expected";
		page = kd->lay->timens_page;
	}
	for (int i = 0; i < FR_SEQ_TRIES * 16; i++) {
		why = NULL;
		if (strict_once(kd, page, &why))
			return why;
	}
	return "data page never settled (seq odd or changing)";
}
