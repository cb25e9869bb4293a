/* SPDX-License-Identifier: MIT */
/* Chooses the data-page layout: the release's era when its page agrees, else one the page checks and the self-test prove. */
#include "startup/locate.h"

#include <sys/auxv.h>

#include "startup/decide.h"
#include "report/log.h"
#include "proc/maps.h"
#include "proc/readable.h"
#include "elf/dynsym.h"
#include "elf/vdso_elf.h"
#include "kdata/eras.h"
#include "base/once.h"

/* "M.m" of the release; "?" when it has none. */
static void put_release(struct fr_line *t, const char *release)
{
	unsigned major, minor;

	if (fr_release_parse(release, &major, &minor) != 0) {
		fr_line_add(t, "?");
		return;
	}
	fr_line_add_uint(t, major);
	fr_line_add(t, ".");
	fr_line_add_uint(t, minor);
}

static int own_pages_readable(const struct fr_layout *own, uintptr_t vdso);

/*
 * Fills kd for layout lay at w and checks the page (strictly for a layout the release does not
 * name). *shape is 0 when the failure has nothing to do with the layout (no vDSO at all).
 */
static const char *try_layout(const struct fr_layout *lay, const struct fr_where *w, int strict,
			      struct fr_kdata *kd, int *shape)
{
	uintptr_t below = (uintptr_t)lay->pages_below * FR_PAGE_SIZE, vvar, vclock;

	*shape = 0;
	if (w->from_maps) {
		if (!w->vdso || !w->vvar)
			return "no [vdso] or [vvar] mapping";
		*shape = 1;
		if (w->vdso - w->vvar != below)
			return "[vvar] is not where this kernel era puts it";
		vvar = w->vvar;
		vclock = w->vvar_vclock ? w->vvar_vclock : vvar + (uintptr_t)lay->vclock_page * FR_PAGE_SIZE;
	} else {
		if (!w->vdso)
			return "no vDSO in this process";
		/* No maps to say where the pages are: ask the kernel before touching the guess. */
		*shape = 1;
		if (!own_pages_readable(lay, w->vdso))
			return "the pages this era puts below the vDSO are not readable";
		vvar = w->vdso - below;
		vclock = vvar + (uintptr_t)lay->vclock_page * FR_PAGE_SIZE;
	}
	/* Without paravirtual clocks (FR_HAS_VCLOCK 0) there is no such page to point at. */
	if (!FR_HAS_VCLOCK)
		vclock = 0;
	*shape = 1;
	fr_kdata_init(kd, lay, (const volatile uint8_t *)vvar, (const volatile uint8_t *)vclock);
	return strict ? fr_kdata_check_strict(kd) : fr_kdata_check(kd);
}

/* Whether two layouts read a page alike: the same places and offsets (their delta rules may differ). */
static int reads_alike(const struct fr_layout *a, const struct fr_layout *b)
{
	return a->pages_below == b->pages_below && a->data_off == b->data_off && a->clock_size == b->clock_size &&
	       a->field_shift == b->field_shift && a->hrtimer_off == b->hrtimer_off &&
	       a->timens_page == b->timens_page && a->timens_mode == b->timens_mode && a->vclock_page == b->vclock_page;
}

/* What the vDSO's code of an era's delta rules does with the counter (rawmath.h: 6.5 added the mask). */
static enum fr_code_mask rules_code(enum fr_rules rules)
{
	switch (rules) {
	case FR_RULES_5_3:
		return FR_CODE_NO_MASK;
	case FR_RULES_6_5:
	case FR_RULES_6_10:
		return FR_CODE_MASKS;
	default:
		return FR_CODE_UNKNOWN;
	}
}

/*
 * 1 when another layout reads the page as lay does: code then tells them apart (0 when unknown).
 * 2 when the code refutes lay: such a layout has the rules the code has, and lay has not.
 */
static int code_decides(const struct fr_layout *lay, enum fr_code_mask code)
{
	int twin = 0;

	for (unsigned i = 0; fr_layout_newest(i); i++) {
		const struct fr_layout *o = fr_layout_newest(i);

		if (o == lay || !reads_alike(o, lay) || rules_code(o->rules) == rules_code(lay->rules))
			continue;
		if (code == FR_CODE_UNKNOWN)
			return 0;
		twin = 1;
		if (rules_code(o->rules) == code && rules_code(lay->rules) != code)
			return 2;
	}
	return twin;
}

/* pick->note for a layout taken against the release's word. */
static void note_assumed(struct fr_pick *pick, const char *release, enum fr_release_kind kind,
			 const struct fr_layout *own, const char *own_fail, enum fr_code_mask code)
{
	struct fr_line t;

	fr_line_init(&t);
	fr_line_add(&t, "assumed: ");
	switch (kind) {
	case FR_REL_NEWER:
		fr_line_add(&t, "kernel ");
		put_release(&t, release);
		fr_line_add(&t, " is newer than the newest known, " FR_NEWEST_KNOWN);
		break;
	case FR_REL_KNOWN:
		fr_line_add(&t, "release ");
		put_release(&t, release);
		fr_line_add(&t, " says ");
		fr_line_add(&t, own->name);
		fr_line_add(&t, ", whose page checks fail (");
		fr_line_add(&t, own_fail);
		fr_line_add(&t, ")");
		break;
	case FR_REL_OLD:
		fr_line_add(&t, "release ");
		put_release(&t, release);
		/* The first era's release: 5.3 on x86-64, 5.10 on arm64. */
		fr_line_add(&t, " says no RAW data (before ");
		fr_line_add_uint(&t, fr_eras[0].major);
		fr_line_add(&t, ".");
		fr_line_add_uint(&t, fr_eras[0].minor);
		fr_line_add(&t, ")");
		break;
	case FR_REL_UNPARSED:
		fr_line_add(&t, "kernel release not understood");
		break;
	}
	fr_line_add(&t, "; page and vDSO agree");
	if (code == FR_CODE_MASKS)
		fr_line_add(&t, "; its code masks the counter with S64_MAX");
	else if (code == FR_CODE_NO_MASK)
		fr_line_add(&t, "; its code does not mask the counter with S64_MAX");
	fr_line_copy(&t, pick->note, sizeof(pick->note));
}

/* Why no layout would do, in pick->why: the release's reason, then the best evidence found. */
static const char *refusal(struct fr_pick *pick, const char *release, enum fr_release_kind kind,
			   const char *base, const struct fr_layout *judged, const char *judge_why,
			   const struct fr_layout *newest, const char *newest_why, int tried)
{
	struct fr_line t;

	if (!tried && kind != FR_REL_NEWER)
		return base;
	fr_line_init(&t);
	if (kind == FR_REL_NEWER) {
		fr_line_add(&t, "kernel ");
		put_release(&t, release);
		fr_line_add(&t, " is newer than the newest known, " FR_NEWEST_KNOWN);
	} else {
		fr_line_add(&t, base);
	}
	if (judged) {
		fr_line_add(&t, "; its page matches ");
		fr_line_add(&t, judged->name);
		fr_line_add(&t, " but ");
		fr_line_add(&t, judge_why);
	} else if (kind == FR_REL_NEWER && !tried) {
		fr_line_add(&t, ", and without /proc/self/maps its layout cannot be confirmed");
	} else if (kind == FR_REL_NEWER) {
		fr_line_add(&t, ", and its page does not match ");
		fr_line_add(&t, newest->name);
		fr_line_add(&t, ": ");
		fr_line_add(&t, newest_why);
	} else if (kind == FR_REL_KNOWN) {
		fr_line_add(&t, "; no other layout matches the page");
	} else {
		return base;
	}
	fr_line_copy(&t, pick->why, sizeof(pick->why));
	return pick->why;
}

static const char *locate_in(const char *release, const struct fr_where *w, fr_judge_fn judge, void *ctx,
			     struct fr_kdata *kd, struct fr_pick *pick)
{
	enum fr_release_kind kind;
	const struct fr_layout *own, *lay, *judged = NULL;
	const char *base, *why, *judge_why = NULL, *newest_why = NULL;
	int shape, tried = 0, decides;

	pick->era = "none";
	pick->assumed = 0;
	pick->judged = 0;
	pick->note[0] = pick->why[0] = '\0';
	if (!release)
		return "uname failed";
	own = fr_layout_for_release_kind(release, &base, &kind);
	if (own) {
		why = try_layout(own, w, 0, kd, &shape);
		if (!why) {
			pick->era = own->name;
			return NULL;
		}
		if (!shape)
			return why;
		base = why;
	}
	/* Without /proc the distance of [vvar] from the vDSO is a guess: nothing else is tried. */
	for (unsigned i = 0; w->from_maps && (lay = fr_layout_newest(i)); i++) {
		if (kind == FR_REL_NEWER && i > 0)
			break;
		if (lay == own)
			continue;
		why = try_layout(lay, w, 1, kd, &shape);
		if (!shape)
			return kind == FR_REL_NEWER ? why : base;
		tried = 1;
		if (i == 0)
			newest_why = why;
		if (why)
			continue;
		/* A layout reading the page alike, with the delta rules of the vDSO's code, comes later. */
		decides = code_decides(lay, w->code);
		if (decides == 2)
			continue;
		why = judge(kd, ctx);
		if (!why) {
			pick->era = lay->name;
			pick->assumed = 1;
			pick->judged = 1;
			note_assumed(pick, release, kind, own, base, decides ? w->code : FR_CODE_UNKNOWN);
			return NULL;
		}
		if (!judged) {
			judged = lay;
			judge_why = why;
		}
	}
	return refusal(pick, release, kind, base, judged, judge_why, fr_layout_newest(0), newest_why, tried);
}

const char *fr_locate_in(const char *release, const struct fr_where *w, fr_judge_fn judge, void *ctx,
			 struct fr_kdata *kd, struct fr_pick *pick)
{
	const char *why = locate_in(release, w, judge, ctx, kd, pick);

	/* Every refusal, the early ones too, leaves kd zeroed (startup/locate.h). */
	if (why)
		__builtin_memset(kd, 0, sizeof(*kd));
	return why;
}

/* What the vDSO's clock_gettime at vdso does with the counter: its code scanned (fr_arch_code_masks_counter). */
static enum fr_code_mask code_read(uintptr_t vdso)
{
	size_t n = 0;
	const uint8_t *p = vdso ? fr_vdso_code((const void *)vdso, FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION, &n)
				: NULL;

	if (!p)
		return FR_CODE_UNKNOWN;
	return fr_arch_code_masks_counter(p, n) ? FR_CODE_MASKS : FR_CODE_NO_MASK;
}

void fr_where_read(struct fr_where *w)
{
	struct fr_maps maps;

	__builtin_memset(w, 0, sizeof(*w));
	if (fr_maps_read(&maps) == 0) {
		w->from_maps = 1;
		w->vdso = maps.vdso;
		w->vvar = maps.vvar;
		w->vvar_vclock = maps.vvar_vclock;
	} else {
		w->vdso = (uintptr_t)fr_vdso_base();
	}
	/* The image libc was given: the maps' [vdso] is the same one unless the program moved it. */
	if (w->vdso && w->vdso == (uintptr_t)fr_vdso_base())
		w->code = code_read(w->vdso);
}

/* What fr_self_test needs besides the pages. */
struct self_test_ctx {
	fr_counter_fn counter;
	fr_real_fn real;
};

static const char *judge_self_test(const struct fr_kdata *kd, void *ctx)
{
	const struct self_test_ctx *c = ctx;

	return fr_self_test(kd, c->counter, c->real);
}

/*
 * The kernel's answers about the release's own pages, asked once and kept (the vDSO's address and
 * the layout they are for, then whether its pages and its pvclock page can be read): start-up asks
 * in the constructor when initialisation waits for the first RAW read (fr_locate_probe), since a
 * seccomp filter installed meanwhile may refuse the probe's futex call. 0 unknown, 1 yes, 2 no.
 * A kept record of four words in base/once.h's table (FR_W_PROBED_*), behind FR_W_PROBED_STATE.
 */
#define PROBED_VDSO (fr_word(FR_W_PROBED_VDSO)->w)
#define PROBED_LAY (fr_word(FR_W_PROBED_LAY)->cp)
#define PROBED_PAGES (fr_word(FR_W_PROBED_PAGES)->i)
#define PROBED_VCLOCK (fr_word(FR_W_PROBED_VCLOCK)->i)

static int verdict(int yes)
{
	return yes ? 1 : 2;
}

/*
 * Whether the pages the release's own layout names can be read where it puts them, asked of the
 * kernel before the first touch: a guess that lands on an unmapped or a SIGBUS page (a kernel
 * whose layout is not its release's) must cost an error code, not the host process. The
 * namespace page is a SIGBUS page outside a time namespace, so it is asked about only inside one.
 */
/* 1 readable, 0 not, -1 when the kernel would not say (fr_word_readable's answers). */
static int own_pages_ask(const struct fr_layout *own, uintptr_t vdso)
{
	uintptr_t vvar = vdso - (uintptr_t)own->pages_below * FR_PAGE_SIZE;
	struct fr_kdata kd;
	int r;

	if (vdso <= vvar)
		return 0;
	if ((r = fr_word_readable((const volatile void *)vvar)) != 1)
		return r;
	fr_kdata_init(&kd, own, (const volatile uint8_t *)vvar, NULL);
	return fr_kdata_in_timens(&kd) ? fr_word_readable(kd.raw_ns) : 1;
}

/*
 * The kernel's answer now, which sees a vDSO the program unmapped since; the kept answer only when
 * the kernel would not say (a seccomp filter that refuses futex), and no when none was kept.
 */
static int own_pages_readable(const struct fr_layout *own, uintptr_t vdso)
{
	int r = own_pages_ask(own, vdso);

	if (r >= 0)
		return r;
	return fr_keep_ready(&fr_word(FR_W_PROBED_STATE)->i) && PROBED_VDSO == vdso && PROBED_LAY == own &&
	       PROBED_PAGES == 1;
}

/* The same for kd's pvclock page. */
static int vclock_readable(const struct fr_kdata *kd)
{
	int r = kd->vclock ? fr_word_readable(kd->vclock) : 0;

	if (r >= 0)
		return r;
	return fr_keep_ready(&fr_word(FR_W_PROBED_STATE)->i) && PROBED_LAY == kd->lay && PROBED_VCLOCK == 1 &&
	       (uintptr_t)kd->vvar == PROBED_VDSO - (uintptr_t)kd->lay->pages_below * FR_PAGE_SIZE;
}

void fr_locate_probe(const char *release)
{
	const char *why;
	const struct fr_layout *own = release ? fr_layout_for_release(release, &why) : NULL;
	uintptr_t vdso = (uintptr_t)fr_vdso_base(), vvar;
	struct fr_kdata kd;

	/* A kept record (base/once.h): asked once, by whichever caller claims it. */
	if (!own || !vdso || !fr_keep_claim(&fr_word(FR_W_PROBED_STATE)->i))
		return;
	PROBED_VDSO = vdso;
	PROBED_LAY = own;
	PROBED_PAGES = verdict(own_pages_ask(own, vdso) == 1);
	/* The pvclock page only where the page says pvclock mode, as confirmed() reads it. */
	if (FR_HAS_VCLOCK && PROBED_PAGES == 1) {
		vvar = vdso - (uintptr_t)own->pages_below * FR_PAGE_SIZE;
		fr_kdata_init(&kd, own, (const volatile uint8_t *)vvar,
			      (const volatile uint8_t *)(vvar + (uintptr_t)own->vclock_page * FR_PAGE_SIZE));
		if (fr_mode_is_pvclock(fr_kdata_mode(&kd)))
			PROBED_VCLOCK = verdict(fr_word_readable(kd.vclock) == 1);
	}
	fr_keep_done(&fr_word(FR_W_PROBED_STATE)->i, 1);
}

/*
 * 2 when the fast path on kd agrees with the vDSO, 1 when it has nothing to prove (in a mode it
 * does not compute every call goes to the kernel, and the maps could not change that: the
 * caller's checks say so), 0 when it disagrees. The pvclock page is read only in pvclock mode,
 * where the kernel maps it; it is asked about first all the same.
 */
static int confirmed(const struct fr_kdata *kd, const struct self_test_ctx *c)
{
	int mode = fr_kdata_mode(kd);

	if (!fr_mode_served(mode))
		return 1;
	if (fr_mode_is_pvclock(mode) && !vclock_readable(kd))
		return 0;
	return fr_self_test(kd, c->counter, c->real) == NULL ? 2 : 0;
}

/*
 * First the release's own layout where it says, from AT_SYSINFO_EHDR alone, checked and judged:
 * the common case, with no /proc read. Anything else (a release without its own layout,
 * unreadable pages, a failed check or self-test) is decided from /proc/self/maps; no vDSO at
 * all, as maps without one would decide it.
 */
const char *fr_locate(const char *release, fr_counter_fn counter, fr_real_fn real, struct fr_kdata *kd,
		      struct fr_pick *pick)
{
	struct self_test_ctx ctx = { counter, real };
	const struct fr_layout *own = NULL;
	struct fr_where w;
	const char *base;
	enum fr_release_kind kind;
	int ok;
	/*
	 * Every layout is one of 4 KiB pages. arm64 kernels also run with 16 or 64 KiB pages
	 * (RHEL's, for one), where the data sits elsewhere: nothing is touched there.
	 */
	unsigned long page = fr_auxval(AT_PAGESZ);

	if (page && page != FR_PAGE_SIZE) {
		__builtin_memset(kd, 0, sizeof(*kd));
		return "the kernel's page size is not 4 KiB, the only one the data-page layouts know";
	}
	__builtin_memset(&w, 0, sizeof(w));
	w.vdso = (uintptr_t)fr_vdso_base();
	if (release)
		own = fr_layout_for_release_kind(release, &base, &kind);
	if (own && w.vdso && own_pages_readable(own, w.vdso) &&
	    !fr_locate_in(release, &w, judge_self_test, &ctx, kd, pick) && (ok = confirmed(kd, &ctx)) != 0) {
		pick->judged = ok == 2;
		return NULL;
	}
	/*
	 * No AT_SYSINFO_EHDR: the kernel mapped no vDSO, and with it no [vvar] (valgrind's clients,
	 * vdso=0): decided as the maps would have it, without reading them (issue 30: no /proc
	 * read at start-up; 21 k instructions of /bin/true's start-up under callgrind).
	 */
	if (w.vdso) {
		fr_where_read(&w);
	} else {
		w.from_maps = 1;
	}
	return fr_locate_in(release, &w, judge_self_test, &ctx, kd, pick);
}
