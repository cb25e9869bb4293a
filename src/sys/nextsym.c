/* SPDX-License-Identifier: MIT */
/* Walks the loader's list of objects after our own to find the next definition of a name, as the loader's own lookup order would. */
#define _GNU_SOURCE
#include "sys/nextsym.h"

#include <errno.h>
#include <link.h>

#include "sys/copies.h"
#include "sys/dynsym.h"
#include "sys/early.h"
#include "sys/elfsym.h"

/*
 * One walk of the caller's namespace by libc's dl_iterate_phdr, in the loader's order: the
 * program, LD_PRELOAD's entries, their dependencies breadth first (libc among them), then what
 * dlopen added. Each entry comes with its program headers, which say where its segments are
 * and how the loader left its dynamic section; the loader's lock keeps the list still meanwhile.
 * The vDSO has an entry too but is outside the global scope: its clock_gettime has the kernel's
 * calling convention, never a libc-convention target.
 */
struct walk {
	const char *name;      /* fr_next_sym: the name looked up */
	uintptr_t addr;        /* fr_follows_self, fr_precedes_self: the address placed */
	int after_self;        /* our own entry has gone by */
	int self_at_start;     /* ... and before libc's */
	void *found;
	int follows;
	int precedes;          /* addr is in an entry before ours (which counts once ours is seen) */
};

static int contains(const struct dl_phdr_info *info, uintptr_t a)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && a - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
			return 1;
	}
	return 0;
}

/*
 * By the address of our own code, which the compiler forms relative to the instruction pointer:
 * _DYNAMIC, a weak symbol, would be read from the GOT, which is still empty before relocation.
 */
int fr_phdr_is_self(const struct dl_phdr_info *info)
{
	return contains(info, (uintptr_t)fr_phdr_is_self);
}

static void *lookup_in(const struct dl_phdr_info *info, const char *name)
{
	struct fr_elfsyms s;

	/* Another copy of libfastraw sends its calls back to the first: chaining to it would loop (sys/copies.h). */
	if (fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &s) != 0 || fr_copy_is(&s))
		return NULL;
	return fr_elfsyms_lookup_default(&s, name);
}

/* Returns 1 to stop: at libc, at the first definition after ours, or once addr is placed (before or after ours). */
static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;
	int libc = info->dlpi_name && fr_path_is(info->dlpi_name, "libc.so.6");

	(void)size;
	if (!w->after_self) {
		if (fr_phdr_is_self(info)) {
			w->after_self = w->self_at_start = 1;
			/* An address already placed before us cannot lie after us as well. */
			return w->precedes;
		}
		if (!w->name && contains(info, w->addr))
			w->precedes = 1;
		/* libc before us: we were dlopen'd, and what follows libc is not the start-up chain. */
		if (libc) {
			if (w->name)
				w->found = lookup_in(info, w->name);
			return 1;
		}
		return 0;
	}
	if (info->dlpi_name && fr_path_is(info->dlpi_name, "linux-vdso.so.1"))
		return 0;
	if (w->name && (w->found = lookup_in(info, w->name)))
		return 1;
	if (!w->name && contains(info, w->addr))
		return w->follows = 1;
	return libc;
}

static int chain_ready(void);
static int chain_self_at_start;

/* 0 after a walk, -1 when libc's dl_iterate_phdr cannot be found (nothing was read). */
static int run(struct walk *w)
{
	fr_iterate_fn iterate = fr_dl_iterate_phdr();

	if (!iterate)
		return -1;
	iterate(visit, w);
	return 0;
}

int fr_self_loaded_at_start(void)
{
	struct walk w = { 0 };

	if (chain_ready() == 0)
		return chain_self_at_start;
	return run(&w) == 0 && w.self_at_start;
}

int fr_follows_self(const void *addr)
{
	struct walk w = { 0 };

	w.addr = (uintptr_t)addr;
	return run(&w) == 0 && w.follows;
}

int fr_precedes_self(const void *addr)
{
	struct walk w = { 0 };

	w.addr = (uintptr_t)addr;
	return run(&w) == 0 && w.self_at_start && w.precedes;
}

/*
 * The objects after ours up to libc's, as the first walk found them: loaded at start and never
 * unloaded, so the record stays true for the life of the process, and later lookups read it
 * without another walk (and without the loader's lock). Copies of libfastraw and objects whose
 * tables cannot be read are left out, as the walk passes over them. When we were dlopen'd it
 * holds libc alone.
 */
#define CHAIN_MAX 32

enum { CHAIN_NONE, CHAIN_BUILDING, CHAIN_READY };

static int chain_state = CHAIN_NONE;
static int chain_n;
static struct fr_elfsyms chain[CHAIN_MAX];

struct record {
	int after_self, self_at_start, complete, n;
};

static int add(struct record *r, const struct dl_phdr_info *info)
{
	struct fr_elfsyms s;

	if (fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &s) != 0 || fr_copy_is(&s))
		return 0;
	if (r->n == CHAIN_MAX)
		return -1;
	chain[r->n++] = s;
	return 0;
}

/* Returns 1 to stop: at libc, or when the record would overflow (then it is not published). */
static int record(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct record *r = arg;
	int libc = info->dlpi_name && fr_path_is(info->dlpi_name, "libc.so.6");

	(void)size;
	if (!r->after_self) {
		if (fr_phdr_is_self(info)) {
			r->after_self = r->self_at_start = 1;
			return 0;
		}
		if (!libc)
			return 0;
		r->complete = add(r, info) == 0;
		return 1;
	}
	if (info->dlpi_name && fr_path_is(info->dlpi_name, "linux-vdso.so.1"))
		return 0;
	if (add(r, info) != 0)
		return 1;
	return r->complete = libc;
}

/* The record, made by the first caller that claims it; 0 when it is there to read. */
static int chain_ready(void)
{
	int st = __atomic_load_n(&chain_state, __ATOMIC_ACQUIRE), expected = CHAIN_NONE;
	fr_iterate_fn iterate;
	struct record r = { 0 };

	if (st == CHAIN_READY)
		return 0;
	/* Another thread (or a handler's interrupted thread) is recording: walk on our own. */
	if (st != CHAIN_NONE || !(iterate = fr_dl_iterate_phdr()) ||
	    !__atomic_compare_exchange_n(&chain_state, &expected, CHAIN_BUILDING, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return -1;
	iterate(record, &r);
	chain_n = r.n;
	chain_self_at_start = r.self_at_start;
	__atomic_store_n(&chain_state, r.complete ? CHAIN_READY : CHAIN_NONE, __ATOMIC_RELEASE);
	return r.complete ? 0 : -1;
}

void *fr_next_sym(const char *name)
{
	struct walk w = { 0 };
	struct fr_elfsyms libc;
	void *p;

	if (chain_ready() == 0) {
		for (int i = 0; i < chain_n; i++)
			if ((p = fr_elfsyms_lookup_default(&chain[i], name)))
				return p;
		return NULL;
	}
	w.name = name;
	if (run(&w) == 0 && (w.found || w.after_self))
		return w.found;
	/* Our entry not seen (another namespace's list): libc's own, as for a dlopen'd copy. */
	if (fr_dynsym_object("libc.so.6", &libc) != 0)
		return NULL;
	return fr_elfsyms_lookup_default(&libc, name);
}

const char *fr_chain_problem(void)
{
	struct fr_elfsyms libc;

	if (fr_dynsym_object("libc.so.6", &libc) != 0)
		return "libc.so.6 not in the loader's list or its symbol table unreadable: lookups, getauxval and syscall() have nothing to pass to";
	if (!fr_dl_iterate_phdr())
		return "libc has no dl_iterate_phdr: every next definition is libc's own, later interposers are passed over";
	return NULL;
}

void *fr_next_cached(void **cache, const char *name)
{
	void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	int saved;

	if (p)
		return p;
	/* Before relocation errno is out of reach, and nothing on this path sets it. */
	if (!fr_relocated()) {
		p = fr_next_sym(name);
	} else {
		saved = errno;
		p = fr_next_sym(name);
		errno = saved;
	}
	if (p)
		__atomic_store_n(cache, p, __ATOMIC_RELEASE);
	return p;
}
