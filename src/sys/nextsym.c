/* SPDX-License-Identifier: MIT */
/* Walks the loader's list of objects after our own to find the next definition of a name, as the loader's own lookup order would. */
#define _GNU_SOURCE
#include "sys/nextsym.h"

#include <errno.h>
#include <link.h>

#include "sys/copies.h"
#include "sys/dynsym.h"
#include "sys/elfsym.h"

/* The linker's name for this object's own dynamic section; the loader keeps the same address in l_ld. */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((weak, visibility("hidden")));

/*
 * Objects loaded at start sit in the list in the order of the global lookup scope (the program,
 * LD_PRELOAD's entries, then dependencies breadth first) and are never unloaded; libc is among
 * them. Later dlopens append after them, so a walk that ends at libc never meets a node that a
 * concurrent dlopen or dlclose may change. The vDSO has an entry too but is outside the global
 * scope: its clock_gettime has the kernel's calling convention, never a libc-convention target.
 */
static const struct link_map *self_entry(void)
{
	for (const struct link_map *m = _r_debug.r_map; m; m = m->l_next) {
		if (m->l_name && fr_path_is(m->l_name, "libc.so.6"))
			return NULL;
		if (_DYNAMIC && m->l_ld == _DYNAMIC)
			return m;
	}
	return NULL;
}

int fr_self_loaded_at_start(void)
{
	return self_entry() != NULL;
}

int fr_follows_self(const void *addr)
{
	const struct link_map *self = self_entry();
	uintptr_t a = (uintptr_t)addr;

	for (const struct link_map *m = self ? self->l_next : NULL; m; m = m->l_next) {
		/* A shared object's ELF header sits at its load bias: its extent follows from its headers. */
		uintptr_t end = fr_elf_image_end((const void *)m->l_addr);

		if (m->l_addr && a >= m->l_addr && a < end)
			return 1;
		if (m->l_name && fr_path_is(m->l_name, "libc.so.6"))
			return 0;
	}
	return 0;
}

static void *lookup_in(const struct link_map *m, const char *name)
{
	struct fr_elfsyms s;

	/* Another copy of libfastraw sends its calls back to the first: chaining to it would loop (sys/copies.h). */
	if (fr_elfsyms_from_dynamic(m->l_ld, m->l_addr, &s) != 0 || fr_copy_is(&s))
		return NULL;
	return fr_elfsyms_lookup_default(&s, name);
}

void *fr_next_sym(const char *name)
{
	const struct link_map *self = self_entry();
	struct fr_elfsyms libc;

	for (const struct link_map *m = self ? self->l_next : NULL; m; m = m->l_next) {
		void *p;

		if (m->l_name && fr_path_is(m->l_name, "linux-vdso.so.1"))
			continue;
		if (m->l_name && fr_path_is(m->l_name, "libc.so.6"))
			return lookup_in(m, name);
		if ((p = lookup_in(m, name)))
			return p;
	}
	if (fr_dynsym_object("libc.so.6", &libc) != 0)
		return NULL;
	return fr_elfsyms_lookup_default(&libc, name);
}

void *fr_next_cached(void **cache, const char *name)
{
	void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	int saved;

	if (p)
		return p;
	saved = errno;
	p = fr_next_sym(name);
	errno = saved;
	if (p)
		__atomic_store_n(cache, p, __ATOMIC_RELEASE);
	return p;
}
