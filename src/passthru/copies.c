/* SPDX-License-Identifier: MIT */
/* Finds the first copy of libfastraw in the loader's list of objects and sends a later copy's calls to it. */
#define _GNU_SOURCE
#include "base/clockfn.h"
#include "passthru/copies.h"

#include <link.h>

#include "base/libc.h"
#include "base/once.h"
#include "elf/dynsym.h"
#include "elf/nextsym.h"

/* The dynamic tables of a dl_iterate_phdr entry; -1 for the vDSO, which is neither a copy nor anything to bind to. */
static int tables(const struct dl_phdr_info *info, struct fr_elfsyms *s)
{
	if (fr_phdr_is_vdso(info))
		return -1;
	return fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, s);
}

/*
 * One walk of the objects ahead of this one, up to libc, in the loader's order (libc's own
 * dl_iterate_phdr, under the loader's lock). A dlopen'd copy comes after libc: its walk ends
 * there, having seen every object loaded at start.
 */
struct walk {
	const char *name;             /* defined_between: the name looked for */
	const struct fr_elfsyms *from; /* defined_between: the first copy's tables */
	int past_from;
	int found;
	struct fr_elfsyms first; /* find_first: the first copy's tables */
};

static int visit_first(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;
	struct fr_elfsyms s;

	(void)size;
	if (fr_phdr_is_self(info) || fr_phdr_is_libc(info))
		return 1;
	if (tables(info, &s) == 0 && fr_copy_is(&s)) {
		w->first = s;
		w->found = 1;
		return 1;
	}
	return 0;
}

static int visit_between(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;
	struct fr_elfsyms s;

	(void)size;
	if (fr_phdr_is_self(info) || fr_phdr_is_libc(info))
		return 1;
	if (tables(info, &s) != 0)
		return 0;
	if (!w->past_from) {
		w->past_from = s.symtab == w->from->symtab;
		return 0;
	}
	if (!fr_copy_is(&s) && fr_elfsyms_find(&s, w->name, fr_elfsym_default) >= 0)
		return w->found = 1;
	return 0;
}

/* The first copy's tables, kept once found; the slot holds FR_ONCE_NONE when this is the first copy. */
static struct fr_elfsyms first_tables;
static void *first_slot;

/* The first copy's tables when this object is a later copy, else NULL; found once (racers find the same). */
static const struct fr_elfsyms *first(void)
{
	void *st = fr_once_get(&first_slot);
	fr_iterate_fn iterate;
	struct walk w = { 0 };

	if (st)
		return st == FR_ONCE_NONE ? NULL : st;
	/* The chain's record (elf/nextsym.h) noted it in start-up's one walk; else a walk of our own. */
	w.found = fr_chain_first_copy(&w.first);
	if (w.found < 0) {
		w.found = 0;
		if (!(iterate = fr_dl_iterate_phdr()))
			return NULL;
		iterate(visit_first, &w);
	}
	/* Racers write the same tables before the publication. */
	if (w.found)
		first_tables = w.first;
	st = fr_once_put(&first_slot, w.found ? (void *)&first_tables : FR_ONCE_NONE);
	return st == FR_ONCE_NONE ? NULL : st;
}

int fr_copy_later(void)
{
	return first() != NULL;
}

void *fr_copy_first_sym(const char *name)
{
	const struct fr_elfsyms *s = first();

	return s ? fr_elfsyms_lookup_default(s, name) : NULL;
}

void *fr_copy_first_cached(void **cache, const char *name)
{
	void *p = fr_once_get(cache);

	return p ? p : fr_once_put(cache, fr_copy_first_sym(name));
}

/*
 * Whether an object between the first copy and this one, other copies aside, defines name: an
 * interposer there is where the first copy's chain goes next, and its own next definition is
 * this copy.
 */
static int defined_between(const struct fr_elfsyms *from, const char *name)
{
	fr_iterate_fn iterate = fr_dl_iterate_phdr();
	struct walk w = { 0 };

	w.name = name;
	w.from = from;
	if (iterate)
		iterate(visit_between, &w);
	return w.found;
}

static void *first_clock_cache;

/* Set while this thread is inside the first copy's clock_gettime on this copy's behalf. */
static __thread int forwarding __attribute__((tls_model(FR_TLS_MODEL)));

int fr_copy_clock_gettime(clockid_t clk, struct timespec *ts)
{
	fr_clock_fn f = (fr_clock_fn)fr_copy_first_cached(&first_clock_cache, FR_CLOCK_GETTIME_NAME);
	int ret;

	if (f && !__atomic_load_n(&forwarding, __ATOMIC_RELAXED)) {
		__atomic_store_n(&forwarding, 1, __ATOMIC_RELAXED);
		ret = f(clk, ts);
		__atomic_store_n(&forwarding, 0, __ATOMIC_RELAXED);
		return ret;
	}
	/* What the first copy would have reached had it passed over this one. */
	f = fr_pass_next();
	return f ? fr_pass_call(f, clk, ts) : fr_finish(fr_kcall(fr_real_sys(), clk, ts));
}

int fr_copy_raw(struct timespec *ts)
{
	return fr_copy_clock_gettime(CLOCK_MONOTONIC_RAW, ts);
}

static void *pass_slot;

fr_clock_fn fr_copy_pass(void)
{
	void *st = fr_once_get(&pass_slot);
	const struct fr_elfsyms *m;

	if (!st) {
		m = first();
		st = FR_ONCE_NONE;
		if (m && !defined_between(m, FR_CLOCK_GETTIME_NAME) && fr_copy_first_cached(&first_clock_cache, FR_CLOCK_GETTIME_NAME))
			st = (void *)fr_copy_clock_gettime;
		/* Racers compute the same answer. */
		st = fr_once_put(&pass_slot, st);
	}
	return st == FR_ONCE_NONE ? NULL : fr_copy_clock_gettime;
}
