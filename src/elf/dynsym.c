/* SPDX-License-Identifier: MIT */
/* Resolves libc's own symbols by parsing libc's dynamic section, without calling dlsym. */
#define _GNU_SOURCE
#include "elf/dynsym.h"

#include <errno.h>
#include <elf.h>
#include <link.h>
#include <sys/auxv.h>

#include "base/once.h"
#include "elf/early.h"
#include "elf/nextsym.h"

/*
 * libc itself, from the loader's list read without a call: a sanitizer runtime intercepts
 * dl_iterate_phdr and calls dlsym before its interceptors can forward, and before this object
 * is relocated there is no call to make. Objects loaded at start (libc among them) come first
 * and are never unloaded, so the walk stops before any node that a concurrent dlopen or dlclose
 * may change. A link_map entry has no program headers: libc's PT_DYNAMIC is taken as writable,
 * which is how glibc's build links it (its own start-up writes to it), so the loader's rule for
 * a writable one applies.
 */
static int find_libc(struct fr_elfsyms *out)
{
	const struct r_debug *r = fr_rdebug();

	uintptr_t self = fr_self_bias();

	/* Our own entry is known by its bias, without reading its (long) name. */
	for (const struct link_map *m = r ? r->r_map : NULL; m; m = m->l_next)
		if (m->l_addr != self && fr_is_libc(m->l_name, m->l_addr))
			return fr_elfsyms_from_dynamic(m->l_ld, m->l_addr, fr_loader_relocated_dynamic(m->l_addr, PF_W),
						       out);
	return -1;
}

/*
 * What the first walk found, kept: libc is never unloaded, and the walk reads the name of every
 * entry ahead of libc's, the vDSO's among them, which glibc points into the vDSO's own string
 * table, so a walk after the program unmapped the vDSO would fault. Only the thread that claims
 * the record writes it; a racer, or a handler interrupting the claimer, walks on its own. A record
 * of its own: a symbol table is more than a word of base/once.h's table.
 */
static struct {
	int state; /* FR_KEEP_* (base/once.h) */
	struct fr_elfsyms syms;
} libc_kept;

int fr_libc_tables(struct fr_elfsyms *out)
{
	if (fr_keep_ready(&libc_kept.state)) {
		*out = libc_kept.syms;
		return 0;
	}
	if (find_libc(out) != 0)
		return -1;
	if (fr_keep_claim(&libc_kept.state)) {
		libc_kept.syms = *out;
		fr_keep_done(&libc_kept.state, 1);
	}
	return 0;
}

int fr_libc_kept_at(uintptr_t bias, struct fr_elfsyms *out)
{
	if (!fr_keep_ready(&libc_kept.state) || libc_kept.syms.bias != bias)
		return 0;
	*out = libc_kept.syms;
	return 1;
}

/* A walk with the vDSO's entry left out: the callback and its argument, and where the vDSO is. */
struct but_vdso {
	int (*cb)(struct dl_phdr_info *, size_t, void *);
	void *arg;
	uintptr_t vdso;
};

/*
 * The vDSO's entry is known by where its program headers lie, in the first page of its image,
 * without reading them or its name (both lie in the image, which the program may have unmapped).
 * No walk wants it: it is outside the global scope, never a copy of the library, never a caller.
 */
static int visit_but_vdso(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct but_vdso *b = arg;

	if (b->vdso && (uintptr_t)info->dlpi_phdr - b->vdso < 4096)
		return 0;
	return b->cb(info, size, b->arg);
}

static int iterate_but_vdso(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg)
{
	/* Before relocation getauxval is out of reach, and nothing can have unmapped the vDSO yet. */
	struct but_vdso b = { cb, arg, fr_relocated() ? fr_auxval(AT_SYSINFO_EHDR) : 0 };

	return ((fr_iterate_fn)fr_once_get(fr_slot(FR_W_ITERATE)))(visit_but_vdso, &b);
}

fr_iterate_fn fr_dl_iterate_phdr(void)
{
	struct fr_elfsyms libc;

	if (fr_once_get(fr_slot(FR_W_ITERATE)))
		return iterate_but_vdso;
	if (fr_libc_tables(&libc) != 0 ||
	    !fr_once_put(fr_slot(FR_W_ITERATE), fr_elfsyms_lookup_default(&libc, "dl_iterate_phdr")))
		return NULL;
	return iterate_but_vdso;
}

void *fr_libc_sym(const char *name, const char *version)
{
	struct fr_elfsyms s;

	if (fr_libc_tables(&s) != 0)
		return NULL;
	return fr_elfsyms_lookup(&s, name, version);
}

#if FR_LIBC_GLIBC
/* glibc's __register_atfork(prepare, parent, child, dso_handle). */
typedef int (*register_atfork_fn)(void (*)(void), void (*)(void), void (*)(void), void *);
#else
/* musl's pthread_atfork(prepare, parent, child). */
typedef int (*register_atfork_fn)(void (*)(void), void (*)(void), void (*)(void));
#endif

int fr_libc_atfork_child(void (*child)(void))
{
	struct fr_elfsyms s;
	register_atfork_fn reg;
	int saved = errno, ret = -1;

	if (fr_libc_tables(&s) != 0)
		return -1;
	reg = (register_atfork_fn)fr_elfsyms_lookup_default(&s, FR_LIBC_GLIBC ? "__register_atfork" : "pthread_atfork");
#if FR_LIBC_GLIBC
	ret = reg && reg(NULL, NULL, child, NULL) == 0 ? 0 : -1;
#else
	ret = reg && reg(NULL, NULL, child) == 0 ? 0 : -1;
#endif
	errno = saved;
	return ret;
}

static char *const *invocation_name(void)
{
	const struct r_debug *r = fr_rdebug();
	const struct link_map *prog = r ? r->r_map : NULL;
	struct fr_elfsyms s;
	void *p = fr_once_get(fr_slot(FR_W_INVOCATION_NAME));

	if (p)
		return p;
	/* The program heads the loader's list and its global scope: its copy, if any, wins. */
	if (prog && fr_elfsyms_from_dynamic(prog->l_ld, prog->l_addr,
					    fr_loader_relocated_dynamic(prog->l_addr, PF_W), &s) == 0)
		p = fr_elfsyms_lookup(&s, "program_invocation_name", fr_elfsym_data);
	if (!p && fr_libc_tables(&s) == 0)
		p = fr_elfsyms_lookup(&s, "program_invocation_name", fr_elfsym_data);
	return fr_once_put(fr_slot(FR_W_INVOCATION_NAME), p);
}

const char *fr_program_name(void)
{
	char *const *inv = invocation_name();
	const char *p = inv ? *inv : NULL;
	void *end;

	if ((!p || !*p) && (end = fr_stack_end()) && *(long *)end > 0)
		p = ((char **)end)[1];
	return p;
}

/* The newest default version first, then any: glibc 2.34 moved dlsym and dlvsym into libc. */
static void *resolve(void **cache, const char *name, const char *version)
{
	void *p = fr_once_get(cache);
	int saved;

	if (p)
		return p;
	saved = errno;
	p = fr_libc_sym(name, version);
	if (!p)
		p = fr_libc_sym(name, NULL);
	errno = saved;
	return fr_once_put(cache, p);
}

int fr_is_libc_clock_gettime(const void *p)
{
	int saved = errno, is;

	/* musl has no symbol versions: its one clock_gettime. */
	is = p == fr_libc_sym("clock_gettime", FR_LIBC_GLIBC ? "GLIBC_2.17" : NULL) ||
	     p == fr_libc_sym("__clock_gettime", NULL);
	errno = saved;
	return is;
}

fr_getauxval_fn fr_real_getauxval(void)
{
	/* getauxval has one version, GLIBC_2.16: the default lookup finds it without reading the versions. */
	return (fr_getauxval_fn)resolve(fr_slot(FR_W_GETAUXVAL), "getauxval", fr_elfsym_default);
}

unsigned long fr_auxval(unsigned long type)
{
	fr_getauxval_fn f = fr_real_getauxval();
	int saved = errno;
	unsigned long v;

	if (!f)
		return 0;
	v = f(type);
	errno = saved;
	return v;
}
