/* SPDX-License-Identifier: MIT */
/* Finds the first copy of libfastraw in the loader's list of objects and sends a later copy's calls to it. */
#define _GNU_SOURCE
#include "sys/copies.h"

#include <link.h>

#include "sys/dynsym.h"
#include "sys/nextsym.h"

/* The linker's name for this object's own dynamic section; the loader keeps the same address in l_ld. */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((weak, visibility("hidden")));

/* Defined by every version of the library and by nothing else: what the launcher checks for too. */
static const char marker[] = "fastraw_info";

int fr_copy_is(const struct fr_elfsyms *s)
{
	return fr_elfsyms_find(s, marker, fr_elfsym_default) >= 0;
}

static int is_self(const struct link_map *m)
{
	return _DYNAMIC && m->l_ld == _DYNAMIC;
}

static int is_libc(const struct link_map *m)
{
	return m->l_name && fr_path_is(m->l_name, "libc.so.6");
}

/* The dynamic tables of m; -1 for the vDSO, which is neither a copy nor anything to bind to. */
static int tables(const struct link_map *m, struct fr_elfsyms *s)
{
	if (m->l_name && fr_path_is(m->l_name, "linux-vdso.so.1"))
		return -1;
	return fr_elfsyms_from_dynamic(m->l_ld, m->l_addr, s);
}

/*
 * The objects ahead of this one, up to libc: loaded at start and never unloaded, so no node read
 * here is one that a concurrent dlopen or dlclose may change (sys/nextsym.c). A dlopen'd copy
 * comes after libc: its walk ends there, having seen every object loaded at start.
 */
static const struct link_map *find_first(void)
{
	struct fr_elfsyms s;

	for (const struct link_map *m = _r_debug.r_map; m && !is_self(m) && !is_libc(m); m = m->l_next)
		if (tables(m, &s) == 0 && fr_copy_is(&s))
			return m;
	return NULL;
}

enum { UNKNOWN, NONE, FOUND };

static int first_state = UNKNOWN;
static const struct link_map *first_map;

/* The first copy's entry when this object is a later copy, else NULL; found once (racers find the same). */
static const struct link_map *first(void)
{
	int st = __atomic_load_n(&first_state, __ATOMIC_ACQUIRE);
	const struct link_map *m;

	if (st != UNKNOWN)
		return st == FOUND ? __atomic_load_n(&first_map, __ATOMIC_RELAXED) : NULL;
	m = find_first();
	__atomic_store_n(&first_map, m, __ATOMIC_RELAXED);
	__atomic_store_n(&first_state, m ? FOUND : NONE, __ATOMIC_RELEASE);
	return m;
}

int fr_copy_later(void)
{
	return first() != NULL;
}

void *fr_copy_first_sym(const char *name)
{
	const struct link_map *m = first();
	struct fr_elfsyms s;

	if (!m || tables(m, &s) != 0)
		return NULL;
	return fr_elfsyms_lookup_default(&s, name);
}

void *fr_copy_first_cached(void **cache, const char *name)
{
	void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);

	if (p)
		return p;
	p = fr_copy_first_sym(name);
	if (p)
		__atomic_store_n(cache, p, __ATOMIC_RELEASE);
	return p;
}

/*
 * Whether an object between the first copy and this one, other copies aside, defines name: an
 * interposer there is where the first copy's chain goes next, and its own next definition is
 * this copy.
 */
static int defined_between(const struct link_map *from, const char *name)
{
	struct fr_elfsyms s;

	for (const struct link_map *m = from->l_next; m && !is_self(m) && !is_libc(m); m = m->l_next)
		if (tables(m, &s) == 0 && !fr_copy_is(&s) && fr_elfsyms_find(&s, name, fr_elfsym_default) >= 0)
			return 1;
	return 0;
}

static void *first_clock_cache, *after_clock_cache;

/* Set while this thread is inside the first copy's clock_gettime on this copy's behalf. */
static __thread int forwarding __attribute__((tls_model("initial-exec")));

int fr_copy_clock_gettime(clockid_t clk, struct timespec *ts)
{
	fr_clock_fn f = (fr_clock_fn)fr_copy_first_cached(&first_clock_cache, "clock_gettime");
	int ret;

	if (f && !__atomic_load_n(&forwarding, __ATOMIC_RELAXED)) {
		__atomic_store_n(&forwarding, 1, __ATOMIC_RELAXED);
		ret = f(clk, ts);
		__atomic_store_n(&forwarding, 0, __ATOMIC_RELAXED);
		return ret;
	}
	/* What the first copy would have reached had it passed over this one. */
	f = (fr_clock_fn)fr_next_cached(&after_clock_cache, "clock_gettime");
	return f ? f(clk, ts) : fr_finish(fr_sys_clock_gettime(clk, ts));
}

int fr_copy_raw(struct timespec *ts)
{
	return fr_copy_clock_gettime(CLOCK_MONOTONIC_RAW, ts);
}

static int pass_state = UNKNOWN;

fr_clock_fn fr_copy_pass(void)
{
	int st = __atomic_load_n(&pass_state, __ATOMIC_ACQUIRE);
	const struct link_map *m;

	if (st == UNKNOWN) {
		m = first();
		st = NONE;
		if (m && !defined_between(m, "clock_gettime") && fr_copy_first_cached(&first_clock_cache, "clock_gettime"))
			st = FOUND;
		/* Racers compute the same answer. */
		__atomic_store_n(&pass_state, st, __ATOMIC_RELEASE);
	}
	return st == FOUND ? fr_copy_clock_gettime : NULL;
}
