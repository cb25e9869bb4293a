/* SPDX-License-Identifier: MIT */
/* Chooses the data-page layout: the release's era when its page agrees, else one the page checks and the self-test prove. */
#include "runtime/locate.h"

#include "runtime/decide.h"
#include "sys/maps.h"
#include "sys/vdso_elf.h"

/* A bounded string being built; always terminated, silently cut at its capacity. */
struct text {
	char *buf;
	size_t cap, len;
};

static void text_init(struct text *t, char *buf, size_t cap)
{
	t->buf = buf;
	t->cap = cap;
	t->len = 0;
	buf[0] = '\0';
}

static void put(struct text *t, const char *s)
{
	while (*s && t->len + 1 < t->cap)
		t->buf[t->len++] = *s++;
	t->buf[t->len] = '\0';
}

static void put_uint(struct text *t, unsigned v)
{
	char d[12];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n) {
		char c[2] = { d[--n], '\0' };

		put(t, c);
	}
}

/* "M.m" of the release; "?" when it has none. */
static void put_release(struct text *t, const char *release)
{
	unsigned major, minor;

	if (fr_release_parse(release, &major, &minor) != 0) {
		put(t, "?");
		return;
	}
	put_uint(t, major);
	put(t, ".");
	put_uint(t, minor);
}

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
		vvar = w->vdso - below;
		vclock = vvar + (uintptr_t)lay->vclock_page * FR_PAGE_SIZE;
	}
	*shape = 1;
	fr_kdata_init(kd, lay, (const volatile uint8_t *)vvar, (const volatile uint8_t *)vclock);
	return strict ? fr_kdata_check_strict(kd) : fr_kdata_check(kd);
}

/* pick->note for a layout taken against the release's word. */
static void note_assumed(struct fr_pick *pick, const char *release, enum fr_release_kind kind,
			 const struct fr_layout *own, const char *own_fail)
{
	struct text t;

	text_init(&t, pick->note, sizeof(pick->note));
	put(&t, "assumed: ");
	switch (kind) {
	case FR_REL_NEWER:
		put(&t, "kernel ");
		put_release(&t, release);
		put(&t, " is newer than the newest known, " FR_NEWEST_KNOWN);
		break;
	case FR_REL_KNOWN:
		put(&t, "release ");
		put_release(&t, release);
		put(&t, " says ");
		put(&t, own->name);
		put(&t, ", whose page checks fail (");
		put(&t, own_fail);
		put(&t, ")");
		break;
	case FR_REL_OLD:
		put(&t, "release ");
		put_release(&t, release);
		put(&t, " says no RAW data (before 5.3)");
		break;
	case FR_REL_UNPARSED:
		put(&t, "kernel release not understood");
		break;
	}
	put(&t, "; page and vDSO agree");
}

/* Why no layout would do, in pick->why: the release's reason, then the best evidence found. */
static const char *refusal(struct fr_pick *pick, const char *release, enum fr_release_kind kind,
			   const char *base, const struct fr_layout *judged, const char *judge_why,
			   const struct fr_layout *newest, const char *newest_why, int tried)
{
	struct text t;

	if (!tried && kind != FR_REL_NEWER)
		return base;
	text_init(&t, pick->why, sizeof(pick->why));
	if (kind == FR_REL_NEWER) {
		put(&t, "kernel ");
		put_release(&t, release);
		put(&t, " is newer than the newest known, " FR_NEWEST_KNOWN);
	} else {
		put(&t, base);
	}
	if (judged) {
		put(&t, "; its page matches ");
		put(&t, judged->name);
		put(&t, " but ");
		put(&t, judge_why);
	} else if (kind == FR_REL_NEWER && !tried) {
		put(&t, ", and without /proc/self/maps its layout cannot be confirmed");
	} else if (kind == FR_REL_NEWER) {
		put(&t, ", and its page does not match ");
		put(&t, newest->name);
		put(&t, ": ");
		put(&t, newest_why);
	} else if (kind == FR_REL_KNOWN) {
		put(&t, "; no other layout matches the page");
	} else {
		return base;
	}
	return pick->why;
}

const char *fr_locate_in(const char *release, const struct fr_where *w, fr_judge_fn judge, void *ctx,
			 struct fr_kdata *kd, struct fr_pick *pick)
{
	enum fr_release_kind kind;
	const struct fr_layout *own, *lay, *judged = NULL;
	const char *base, *why, *judge_why = NULL, *newest_why = NULL;
	int shape, tried = 0;

	pick->era = "none";
	pick->assumed = 0;
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
		why = judge(kd, ctx);
		if (!why) {
			pick->era = lay->name;
			pick->assumed = 1;
			note_assumed(pick, release, kind, own, base);
			return NULL;
		}
		if (!judged) {
			judged = lay;
			judge_why = why;
		}
	}
	__builtin_memset(kd, 0, sizeof(*kd));
	return refusal(pick, release, kind, base, judged, judge_why, fr_layout_newest(0), newest_why, tried);
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

const char *fr_locate(const char *release, fr_counter_fn counter, fr_real_fn real, struct fr_kdata *kd,
		      struct fr_pick *pick)
{
	struct self_test_ctx ctx = { counter, real };
	struct fr_where w;

	fr_where_read(&w);
	return fr_locate_in(release, &w, judge_self_test, &ctx, kd, pick);
}
