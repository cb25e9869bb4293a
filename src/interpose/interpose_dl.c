/* SPDX-License-Identifier: MIT */
/* The exported dlsym, dlvsym, getauxval and __getauxval: every way to look clock_gettime up leads to us. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <sys/auxv.h>

#include "arch/arch.h"
#include "arch/stubs.h"
#include "arch/auxv.h"
#include "interpose/prime.h"
#include "interpose/shadow.h"
#include "interpose/time32.h"
#include "startup/runtime.h"
#include "elf/dynsym.h"
#include "elf/early.h"
#include "elf/elfsym.h"
#include "elf/nextsym.h"
#include "elf/vdso_elf.h"
#include "report/log.h"
#include "base/export.h"
#include "base/once.h"

/*
 * glibc's dlsym and dlvsym read their caller's return address to resolve RTLD_NEXT, to pick the
 * scope of RTLD_DEFAULT and to name the object in dlerror's text. So the exported entries are
 * assembly stubs (src/arch/<cpu>/, arch/stubs.h) that ask a router what to do, passing it that
 * return address, and then either return the value it found or jump on with the caller's frame
 * and arguments intact: to the next dlsym in the chain (a later interposer's, else libc's) for
 * every ordinary name, so that a later interposer sees each lookup as it would without us, and
 * for every lookup of a clock name that the router does not answer itself.
 */

static fr_dlsym_fn next_dlsym(void)
{
	return (fr_dlsym_fn)fr_next_cached(fr_slot(FR_W_NEXT_DLSYM), "dlsym");
}

static fr_dlvsym_fn next_dlvsym(void)
{
	return (fr_dlvsym_fn)fr_next_cached(fr_slot(FR_W_NEXT_DLVSYM), "dlvsym");
}

static int is_libc_name(const char *name)
{
	return fr_streq(name, "clock_gettime") || fr_streq(name, "__clock_gettime") ||
	       (FR_HAS_TIME64 && fr_streq(name, "__clock_gettime64"));
}

static int is_vdso_name(const char *name)
{
#if FR_HAS_TIME64
	if (fr_streq(name, FR_ARCH_VDSO_CLOCK_GETTIME32))
		return 1;
#endif
	return fr_streq(name, FR_ARCH_VDSO_CLOCK_GETTIME);
}

static int is_clock_name(const char *name)
{
	return name && (is_libc_name(name) || is_vdso_name(name));
}

/* Our libc-convention clock_gettime for a lookup of name: the 32-bit-time one for the 32-bit names. */
static void *ours(const char *name)
{
#if FR_HAS_TIME64
	if (fr_is_time32_name(name))
		return (void *)fr_clock_gettime32;
#endif
	(void)name;
	return (void *)fr_clock_gettime;
}

/* Whether p is libc's own clock_gettime under any of its names (the 64-bit-time one too). */
static int is_libc_clock(void *p)
{
#if FR_HAS_TIME64
	if (p && p == fr_libc_sym("__clock_gettime64", NULL))
		return 1;
#endif
	return fr_is_libc_clock_gettime(p);
}

/*
 * What a successful lookup of name, a clock name, gives instead of p: the vDSO's function and
 * libc's own become ours, in the same time_t width; another interposer's stays theirs (ours
 * chains to it anyway when it is later).
 */
static void *replace(void *p, const char *name)
{
	uintptr_t lo, hi;

	/*
	 * The image's own extent, measured once, not /proc: a sanitizer runtime gets here before it
	 * can run instrumented code, and the program may have unmapped the image since.
	 */
	if (fr_vdso_range(&lo, &hi) == 0 && (uintptr_t)p >= lo && (uintptr_t)p < hi)
		return fr_vdso_stand_in(name);
	if (is_libc_clock(p))
		return ours(name);
	return p;
}

static void *no_dlsym(void *handle, const char *name)
{
	return NULL;
}

static void *no_dlvsym(void *handle, const char *name, const char *version)
{
	return NULL;
}

/* How the router answers a lookup of a clock name. */
enum clock_way {
	CLOCK_BY_CALLER, /* the stub goes on with the caller's frame: the loader's answer is the chain's */
	CLOCK_REPLACED,  /* looked up from here, then replace() */
	CLOCK_OURS,      /* looked up from here: libc's names found at all give ours */
};

/*
 * A lookup from here has our scope, the same as the caller's for a handle and for RTLD_DEFAULT
 * (one global scope). RTLD_NEXT depends on where the caller is in the loader's list of objects
 * loaded at start (nextsym.h):
 * - after us, up to libc (a later interposer asking for the real clock_gettime, libc): the
 *   caller's frame, so it gets what follows it, never ours back, which would loop;
 * - before us (the program, an earlier preload): for dlsym the caller's frame too, as the first
 *   definition after it is ours or that of an interposer between us. The loader passes over our
 *   unversioned definition when dlvsym asks for a version, so dlvsym looks up from here instead:
 *   it lands on what follows us, libc's becoming ours;
 * - after libc, loaded at start (linked after it): the caller's frame. The loader searches
 *   what follows the caller in the list of objects loaded at start, where neither we nor libc are;
 * - neither (a dlopen'd object and its constructor, generated code): the
 *   loader searches the caller's own dependencies, libc in the end, which we cannot see. What
 *   we find after us is what our clock_gettime goes on to, so finding either name at all gives
 *   ours: everyone but a later interposer gets the fast path.
 * When libfastraw itself was dlopen'd, RTLD_NEXT from here finds libc's, which replace() turns
 * into ours.
 */
static enum clock_way clock_way(void *handle, const void *caller, int versioned)
{
	if (handle != RTLD_NEXT || !fr_self_loaded_at_start())
		return CLOCK_REPLACED;
	switch (fr_place_of(caller)) {
	case FR_PLACE_AFTER:
	case FR_PLACE_LATE:
		return CLOCK_BY_CALLER;
	case FR_PLACE_BEFORE:
		return versioned ? CLOCK_REPLACED : CLOCK_BY_CALLER;
	default:
		return CLOCK_OURS;
	}
}

static struct fr_route go_on(void *next)
{
	return (struct fr_route){ next, NULL };
}

/*
 * The stub returns what the lookup from here found. When it found nothing, the stub goes on to
 * the next dlsym with the caller's frame, which fails the same lookup as the caller's: dlerror
 * then names the object it names without us (the caller, for RTLD_DEFAULT and RTLD_NEXT), and a
 * definition only the caller's scope holds is found after all.
 */
static struct fr_route answer(void *p, const char *name, enum clock_way way, void *next)
{
	if (!p)
		return go_on(next);
	if (way == CLOCK_OURS && is_libc_name(name))
		return (struct fr_route){ NULL, ours(name) };
	return (struct fr_route){ NULL, replace(p, name) };
}

__attribute__((used)) struct fr_route fr_dlsym_route(void *handle, const char *name, const void *caller)
{
	fr_dlsym_fn next = next_dlsym();
	enum clock_way way;

	if (!next)
		return go_on((void *)no_dlsym);
	/* Before relocation: every lookup on to the next dlsym, with the caller's frame. */
	if (!fr_relocated() || !is_clock_name(name) || (way = clock_way(handle, caller, 0)) == CLOCK_BY_CALLER)
		return go_on((void *)next);
	return answer(next(handle, name), name, way, (void *)next);
}

/*
 * Whether glibc's lookup of name@version could fault in our object. Its loader matches a
 * version by hash, then by name: our exports are unversioned (so that they bind references to
 * any version of libc's), and an unversioned symbol's version slot has hash 0 and no name, so a
 * version whose hash is 0 ("" above all) makes it compare a NULL name wherever the scope holds
 * us: the global one, the program's handle, and the handle of any object that depends on us.
 * No object defines such a version, so libc's answer without us is NULL: ours too, by every
 * handle.
 */
static int faults_in_us(const char *name, const char *version)
{
	return name && version && fr_elf_hash(version) == 0 && fr_self_defines(name);
}

/* The loader's list entry of the object that holds addr, in the default namespace; NULL if none. */
struct holder {
	const void *addr;
	uintptr_t bias;
	const char *name;
	int found;
};

static int holder_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct holder *h = arg;

	(void)size;
	if (!fr_phdr_contains(info, h->addr))
		return 0;
	h->bias = info->dlpi_addr;
	h->name = info->dlpi_name;
	return h->found = 1;
}

static void *map_holding(const void *addr)
{
	fr_iterate_fn iterate = fr_dl_iterate_phdr();
	const struct r_debug *r = fr_rdebug();
	struct holder h = { addr, 0, NULL, 0 };

	if (!iterate || !r)
		return NULL;
	iterate(holder_visit, &h);
	/* glibc's dl_iterate_phdr hands out each entry's own l_addr and l_name. */
	for (struct link_map *m = r->r_map; h.found && m; m = m->l_next)
		if (m->l_addr == h.bias && m->l_name == h.name)
			return m;
	return NULL;
}

/*
 * Leaves dlerror() the text glibc alone gives for the failed name@version lookup: "OBJECT:
 * undefined symbol: NAME, version VERSION", OBJECT the handle's (the caller's for RTLD_DEFAULT
 * and RTLD_NEXT). glibc words a failed unversioned lookup "OBJECT: undefined symbol: NAME", so
 * the same failure of the name "NAME, version VERSION", which no object defines, on the handle
 * (or the caller's own entry, whose name glibc puts first for those two) gives that text.
 */
static void empty_version_error(void *handle, const char *name, const char *version, const void *caller)
{
	fr_dlsym_fn next = next_dlsym();
	struct fr_line l;
	char text[sizeof(l.buf)];

	if (handle == RTLD_DEFAULT || handle == RTLD_NEXT)
		handle = map_holding(caller);
	if (!next || !handle)
		return;
	fr_line_init(&l);
	fr_line_add(&l, name);
	fr_line_add(&l, ", version ");
	fr_line_add(&l, version);
	/* A name too long to spell whole would give another text: none then. */
	if (l.cut)
		return;
	fr_line_copy(&l, text, sizeof(text));
	next(handle, text);
}

__attribute__((used)) struct fr_route fr_dlvsym_route(void *handle, const char *name, const char *version,
							const void *caller)
{
	fr_dlvsym_fn next = next_dlvsym();
	enum clock_way way;

	if (faults_in_us(name, version)) {
		if (fr_relocated())
			empty_version_error(handle, name, version, caller);
		return (struct fr_route){ NULL, NULL };
	}
	if (!next)
		return go_on((void *)no_dlvsym);
	if (!fr_relocated() || !is_clock_name(name) || (way = clock_way(handle, caller, 1)) == CLOCK_BY_CALLER)
		return go_on((void *)next);
	return answer(next(handle, name, version), name, way, (void *)next);
}

/* The next getauxval in the chain, then the shadow image in place of the vDSO's address. */
static unsigned long fr_getauxval(unsigned long type)
{
	fr_getauxval_fn next = (fr_getauxval_fn)fr_next_cached(fr_slot(FR_W_NEXT_GETAUXVAL), "getauxval");
	unsigned long v;
	int saved;

	/* Before relocation: the next one's answer as it is (errno is out of reach, no shadow). */
	if (!fr_relocated())
		return next ? next(type) : fr_auxval_raw(type);
	if (!next) {
		errno = ENOENT;
		return 0;
	}
	v = next(type);
	if (type == AT_SYSINFO_EHDR && v) {
		saved = errno;
		v = (unsigned long)fr_shadow_get((const void *)v);
		errno = saved;
	}
	return v;
}

FR_EXPORT unsigned long getauxval(unsigned long type) __attribute__((alias("fr_getauxval")));
FR_EXPORT unsigned long __getauxval(unsigned long type) __attribute__((alias("fr_getauxval")));

void fr_dl_prime(void)
{
	next_dlsym();
	next_dlvsym();
	fr_next_cached(fr_slot(FR_W_NEXT_GETAUXVAL), "getauxval");
}
