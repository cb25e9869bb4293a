/* SPDX-License-Identifier: MIT */
/* Data-page layouts of each kernel era from 5.3 on, and the checks that a page matches its era. */
#include "kdata/kdata.h"

#include <string.h>

#include "base/access.h"
#include "kdata/eras.h"


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
	} else if (before(major, minor, fr_eras[0].major, fr_eras[0].minor)) {
		k = FR_REL_OLD;
		*why = fr_eras_old_why;
	}
	if (k == FR_REL_KNOWN) {
		for (size_t i = 0; i < fr_n_eras; i++) {
			if (!before(major, minor, fr_eras[i].major, fr_eras[i].minor))
				lay = &fr_eras[i].lay;
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
	return i < fr_n_eras ? &fr_eras[fr_n_eras - 1 - i].lay : NULL;
}

const struct fr_layout *fr_layout_by_name(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < fr_n_eras; i++) {
		const char *l = fr_eras[i].lay.name;

		if (strncmp(l, name, n) == 0 && (l[n] == '\0' || l[n] == '-' || l[n] == '+'))
			return &fr_eras[i].lay;
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
	kd->hres0 = fr_hres_entry(kd, 0);
	kd->hres_ns = lay->timens_page ? fr_hres_entry(kd, lay->timens_page) : NULL;
	kd->pv_fast = vclock ? vclock : no_pvclock;
}

int fr_kdata_in_timens(const struct fr_kdata *kd)
{
	const volatile uint8_t *e = fr_raw_entry(kd, 0);

	return kd->lay->timens_page && (FR_LD32(e + FR_OFF_SEQ) & 1) &&
	       FR_LD32(e + FR_OFF_MODE) == kd->lay->timens_mode;
}

static uint32_t real_page(const struct fr_kdata *kd)
{
	return fr_kdata_in_timens(kd) ? kd->lay->timens_page : 0;
}

int fr_kdata_mode(const struct fr_kdata *kd)
{
	return (int)FR_LD32(fr_raw_entry(kd, real_page(kd)) + FR_OFF_MODE);
}

#define FR_MODE_NAME_(unused, role, value, name) [value] = name,
static const char *const mode_names[FR_MODE_LAST + 1] = { [FR_MODE_NONE] = "none", FR_ARCH_CLOCK_MODES(FR_MODE_NAME_, 0) };
/* Each value is at most the count; -Wextra's -Woverride-init flags one listed twice: so they are 1, 2, ... */
#define FR_MODE_IN_RANGE_(unused, role, value, name) _Static_assert((value) >= 1 && (value) <= FR_MODE_LAST, #role);
FR_ARCH_CLOCK_MODES(FR_MODE_IN_RANGE_, 0)

const char *fr_mode_name(int mode)
{
	return mode >= 0 && mode <= FR_MODE_LAST && mode_names[mode] ? mode_names[mode] : "unknown";
}

/*
 * Whether a clocksource mask is one the vDSO can read: ~0 where the architecture's vDSO drops
 * the mask (x86), else a contiguous low mask of at least 32 bits (the arm64 generic timer's is
 * 56 bits wide, 64 on newer CPUs), which the generic delta applies.
 */
static int mask_ok(uint64_t mask)
{
	if (!FR_ARCH_DELTA_MASKED)
		return mask == ~0ULL;
	return (mask & (mask + 1)) == 0 && mask >= 0xffffffffULL;
}

/*
 * One look at both entries of a page inside a seqcount window: 1 if the window held, 0 if the
 * seq changed, -1 if a writer never let go of it.
 */
static int check_once(const struct fr_kdata *kd, uint32_t page, const char **why)
{
	const struct fr_layout *lay = kd->lay;
	const volatile uint8_t *raw = fr_raw_entry(kd, page);
	const volatile uint8_t *hres = raw - lay->clock_size;
	uint32_t seq = fr_seq_begin(raw + FR_OFF_SEQ), mode, shift, hrtimer_res;
	uint64_t mask;

	if (seq & 1)
		return -1;
	mode = FR_LD32(raw + FR_OFF_MODE);
	mask = FR_LD64(raw + FR_OFF_MASK + lay->field_shift);
	shift = FR_LD32(raw + FR_OFF_SHIFT + lay->field_shift);
	hrtimer_res = FR_LD32(hres + lay->hrtimer_off);
	if (FR_LD32(hres + FR_OFF_SEQ) != seq) {
		*why = "the two clock entries disagree on seq";
	} else if (mode > FR_MODE_LAST) {
		*why = "unknown clock mode in the data page";
	} else if (FR_LD32(hres + FR_OFF_MODE) != mode) {
		*why = "the two clock entries disagree on the clock mode";
	} else if (mode != FR_MODE_NONE && !mask_ok(mask)) {
		/* Mode none keeps the mask of a clocksource the vDSO cannot read (hpet: 32 bits). */
		*why = FR_ARCH_DELTA_MASKED ? "clocksource mask is not a low mask of 32 bits or more"
					    : "clocksource mask is not ~0";
	} else if (shift >= 64 || (mode != FR_MODE_NONE && FR_LD32(raw + FR_OFF_MULT + lay->field_shift) == 0)) {
		*why = "implausible mult/shift in the data page";
	} else if (hrtimer_res != 1 && (hrtimer_res < 1000000 || hrtimer_res > 100000000)) {
		*why = "implausible hrtimer_res in the data page";
	}
	return !fr_seq_retry(raw + FR_OFF_SEQ, seq);
}

const char *fr_kdata_check(const struct fr_kdata *kd)
{
	const struct fr_layout *lay = kd->lay;
	uint32_t page = 0;

	if (fr_kdata_in_timens(kd)) {
		const volatile uint8_t *ns = fr_raw_entry(kd, 0);

		if (FR_LD32(ns + FR_OFF_SEQ) != 1 || FR_LD32(ns - lay->clock_size + FR_OFF_MODE) != lay->timens_mode)
			return "time-namespace page not as expected";
		page = lay->timens_page;
	}
	for (int i = 0; i < FR_SEQ_TRIES * 16; i++) {
		const char *why = NULL;
		int held = check_once(kd, page, &why);

		if (held > 0)
			return why;
		if (held < 0)
			break;
	}
	return "data page never settled (seq odd or changing)";
}

/* The extra evidence of fr_kdata_check_strict, inside one seqcount window; as check_once. */
static int strict_once(const struct fr_kdata *kd, uint32_t page, const char **why)
{
	const struct fr_layout *lay = kd->lay;
	const volatile uint8_t *raw = fr_raw_entry(kd, page);
	const volatile uint8_t *hres = raw - lay->clock_size;
	uint32_t seq = fr_seq_begin(raw + FR_OFF_SEQ), fs = lay->field_shift, mode;

	if (seq & 1)
		return -1;
	mode = FR_LD32(raw + FR_OFF_MODE);
	if (!fr_mode_served((int32_t)mode))
		*why = "clock mode not one the fast path computes";
	else if (FR_LD32(hres + lay->hrtimer_off) != 1)
		*why = "hrtimer_res is not 1";
	else if (FR_LD64(raw + FR_OFF_CYCLE_LAST) != FR_LD64(hres + FR_OFF_CYCLE_LAST) ||
		 FR_LD64(raw + FR_OFF_MASK + fs) != FR_LD64(hres + FR_OFF_MASK + fs) ||
		 FR_LD32(raw + FR_OFF_SHIFT + fs) != FR_LD32(hres + FR_OFF_SHIFT + fs) ||
		 (fs && FR_LD64(raw + FR_OFF_MAX_CYCLES) != FR_LD64(hres + FR_OFF_MAX_CYCLES)))
		*why = "the two clock entries disagree on their clocksource";
	return !fr_seq_retry(raw + FR_OFF_SEQ, seq);
}

const char *fr_kdata_check_strict(const struct fr_kdata *kd)
{
	const char *why = fr_kdata_check(kd);
	uint32_t page = 0;

	if (why)
		return why;
	if (fr_kdata_in_timens(kd)) {
		/* The namespace page gives every entry seq 1 and the marker (kernel/time/namespace.c). */
		if (FR_LD32(fr_raw_entry(kd, 0) - kd->lay->clock_size + FR_OFF_SEQ) != 1)
			return "time-namespace page not as expected";
		page = kd->lay->timens_page;
	}
	for (int i = 0; i < FR_SEQ_TRIES * 16; i++) {
		int held;

		why = NULL;
		held = strict_once(kd, page, &why);
		if (held > 0)
			return why;
		if (held < 0)
			break;
	}
	return "data page never settled (seq odd or changing)";
}
