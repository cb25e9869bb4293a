/* SPDX-License-Identifier: MIT */
/* Walks the loader's list of objects after our own to find the next definition of a name, as the loader's own lookup order would. */
#define _GNU_SOURCE
#include "elf/nextsym.h"

#include <errno.h>
#include <link.h>
#include <stddef.h>

#include "elf/dynsym.h"
#include "base/once.h"
#include "elf/early.h"
#include "elf/elfsym.h"

/* Defined by every version of the library and by nothing else: what the launcher checks for too. */
static const char marker[] = "fastraw_info";

int fr_copy_is(const struct fr_elfsyms *s)
{
	return fr_elfsyms_find(s, marker, fr_elfsym_default) >= 0;
}

int fr_phdr_contains(const struct dl_phdr_info *info, const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && a - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
			return 1;
	}
	return 0;
}

/*
 * Our own ELF header, which the static linker places at the start of the first segment and names
 * __ehdr_start; hidden, so its address is formed relative to the instruction pointer, also before
 * relocation.
 */
extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

/* Our program headers, their count and our load bias, from our own ELF header; -1 without the segment that holds it. */
static int self_phdrs(const ElfW(Phdr) **ph, int *phnum, uintptr_t *bias)
{
	const ElfW(Ehdr) *eh = &__ehdr_start;

	*ph = (const void *)((const char *)eh + eh->e_phoff);
	*phnum = eh->e_phnum;
	/* The segment that holds the header (file offset 0) gives the load bias. */
	for (int i = 0; i < *phnum; i++)
		if ((*ph)[i].p_type == PT_LOAD && (*ph)[i].p_offset == 0) {
			*bias = (uintptr_t)eh - (*ph)[i].p_vaddr;
			return 0;
		}
	return -1;
}

/* Our load bias, computed once (racers compute the same); 0 when our header's segment is not found. */
uintptr_t fr_self_bias(void)
{
	uintptr_t bias = __atomic_load_n(&fr_word(FR_W_SELF_BIAS)->w, __ATOMIC_RELAXED);
	const ElfW(Phdr) *ph;
	int phnum;

	if (!bias && self_phdrs(&ph, &phnum, &bias) == 0)
		__atomic_store_n(&fr_word(FR_W_SELF_BIAS)->w, bias, __ATOMIC_RELAXED);
	return bias;
}

int fr_self_contains(const void *addr)
{
	const ElfW(Phdr) *ph;
	uintptr_t bias, a = (uintptr_t)addr;
	int phnum;

	if (self_phdrs(&ph, &phnum, &bias) != 0)
		return 0;
	for (int i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_LOAD && a - (bias + ph[i].p_vaddr) < ph[i].p_memsz)
			return 1;
	return 0;
}

int fr_self_defines(const char *name)
{
	const ElfW(Phdr) *ph;
	struct fr_elfsyms s;
	uintptr_t bias;
	int phnum;

	if (self_phdrs(&ph, &phnum, &bias) != 0 || fr_elfsyms_from_phdrs(bias, ph, (size_t)phnum, &s) != 0)
		return 0;
	return fr_elfsyms_find(&s, name, fr_elfsym_default) >= 0;
}

/*
 * By the address of our own code, which the compiler forms relative to the instruction pointer:
 * _DYNAMIC, a weak symbol, would be read from the GOT, which is still empty before relocation.
 */
int fr_phdr_is_self(const struct dl_phdr_info *info)
{
	uintptr_t bias = fr_self_bias();

	/* Only the entry at our own load bias can be ours: the segment test is for that one alone. */
	if (bias && info->dlpi_addr != bias)
		return 0;
	return fr_phdr_contains(info, (const void *)fr_phdr_is_self);
}

int fr_phdr_is_libc(const struct dl_phdr_info *info)
{
	struct fr_elfsyms s;

	return fr_libc_kept_at(info->dlpi_addr, &s) || fr_is_libc(info->dlpi_name, info->dlpi_addr);
}

int fr_phdr_is_vdso(const struct dl_phdr_info *info)
{
	return info->dlpi_name && fr_path_is(info->dlpi_name, "linux-vdso.so.1");
}

/*
 * Walks of the caller's namespace by libc's dl_iterate_phdr, in the loader's order: the program,
 * LD_PRELOAD's entries, their dependencies breadth first (libc among them), then what dlopen
 * added. Each entry comes with its program headers, which say where its segments are and how the
 * loader left its dynamic section; the loader's lock keeps the list still meanwhile.
 *
 * The chain walk hands each() the tables of every object after ours up to libc's, in order, and
 * stops when each() returns 1. It passes over the vDSO (outside the global scope: its
 * clock_gettime has the kernel's calling convention, never a libc-convention target), copies of
 * libfastraw (a later copy sends its calls back to the first, so chaining to one would loop:
 * passthru/copies.h) and objects whose tables cannot be read. When libc comes before our entry we were
 * dlopen'd, and what follows libc is not the start-up chain: libc alone is handed over.
 */
struct chain_walk {
	int (*each)(const struct fr_elfsyms *s, void *arg);
	void *arg;
	int self_at_start; /* our entry came before libc's */
	int reached_libc;  /* the walk went as far as libc, each() stopping it there or not */
	/* Where the recording walk notes the first copy of the library ahead of ours (NULL: not asked). */
	struct fr_elfsyms *copy;
	int copy_found;
};

/* Returns 1 when each() stopped the walk. */
static int hand(struct chain_walk *c, const struct dl_phdr_info *info)
{
	struct fr_elfsyms s;

	/* libc's tables as fr_libc_tables keeps them; libc is no copy of the library. */
	if (fr_libc_kept_at(info->dlpi_addr, &s))
		return c->each(&s, c->arg);
	if (fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &s) != 0 || fr_copy_is(&s))
		return 0;
	return c->each(&s, c->arg);
}

/*
 * An object ahead of ours (and of libc's): the first that is a copy of the library is noted, as
 * passthru/copies.c's own walk would find it, so that start-up walks the list once, not twice.
 */
static void note_copy(struct chain_walk *c, const struct dl_phdr_info *info)
{
	struct fr_elfsyms s;

	if (!c->copy || c->copy_found || fr_phdr_is_vdso(info))
		return;
	if (fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &s) == 0 && fr_copy_is(&s)) {
		*c->copy = s;
		c->copy_found = 1;
	}
}

/*
 * Whether our entry is in the default namespace's list (ld.so's _r_debug, one for every
 * namespace): a copy that dlmopen loaded into a namespace of its own stands before that
 * namespace's libc, yet was not loaded at start. Called under the loader's lock (from a
 * dl_iterate_phdr callback); 1 when that list cannot be read.
 */
static int self_in_default_namespace(void)
{
	const struct r_debug *r = fr_rdebug();
	uintptr_t bias = fr_self_bias();

	if (!r || !bias)
		return 1;
	for (const struct link_map *m = r->r_map; m; m = m->l_next)
		if (m->l_addr == bias)
			return 1;
	return 0;
}

static int chain_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct chain_walk *c = arg;
	int libc;

	(void)size;
	if (!c->self_at_start) {
		if (fr_phdr_is_self(info)) {
			/* In another namespace: as a dlopen'd copy, libc alone follows. */
			c->self_at_start = self_in_default_namespace();
			return 0;
		}
		if (!fr_phdr_is_libc(info)) {
			note_copy(c, info);
			return 0;
		}
		hand(c, info);
		return c->reached_libc = 1;
	}
	if (fr_phdr_is_vdso(info))
		return 0;
	libc = fr_phdr_is_libc(info);
	c->reached_libc = libc;
	return hand(c, info) || libc;
}

/* 0 after a walk, -1 when libc's dl_iterate_phdr cannot be found (nothing was read). */
static int chain_run(struct chain_walk *c)
{
	fr_iterate_fn iterate = fr_dl_iterate_phdr();

	if (!iterate)
		return -1;
	iterate(chain_visit, c);
	return 0;
}

/*
 * The objects after ours up to libc's, as the first chain walk found them: loaded at start and
 * never unloaded, so the record stays true for the life of the process, and later lookups read
 * it without another walk (and without the loader's lock).
 */
#define CHAIN_MAX 32

/* A kept record (base/once.h) of its own: a symbol table per object is far more than a word. */
static struct {
	int state; /* FR_KEEP_* (base/once.h) */
	int n, self_at_start, copy_found;
	struct fr_elfsyms objs[CHAIN_MAX];
	struct fr_elfsyms copy; /* the first copy ahead of ours, when copy_found */
} chain;

/* Records one object; 1 (stop, the record is not published) when it would overflow. */
static int add(const struct fr_elfsyms *s, void *arg)
{
	int *overflow = arg;

	if (chain.n == CHAIN_MAX)
		return *overflow = 1;
	chain.objs[chain.n++] = *s;
	return 0;
}

/* The record, made by the first caller that claims it; 0 when it is there to read. */
static int chain_ready(void)
{
	int overflow = 0, ok;
	struct chain_walk c = { add, &overflow, 0, 0, &chain.copy, 0 };

	if (fr_keep_ready(&chain.state))
		return 0;
	/* Another thread (or a handler's interrupted thread) is recording: walk on our own. */
	if (!fr_keep_claim(&chain.state))
		return -1;
	chain.n = 0;
	ok = chain_run(&c) == 0 && c.reached_libc && !overflow;
	chain.self_at_start = c.self_at_start;
	chain.copy_found = c.copy_found;
	fr_keep_done(&chain.state, ok);
	return ok ? 0 : -1;
}

int fr_chain_recorded(void)
{
	return chain_ready() == 0;
}

int fr_chain_first_copy(struct fr_elfsyms *out)
{
	if (chain_ready() != 0)
		return -1;
	if (!chain.copy_found)
		return 0;
	*out = chain.copy;
	return 1;
}

static int stop(const struct fr_elfsyms *s, void *arg)
{
	(void)s;
	(void)arg;
	return 1;
}

int fr_self_loaded_at_start(void)
{
	struct chain_walk c = { stop, NULL, 0, 0, NULL, 0 };

	if (chain_ready() == 0)
		return chain.self_at_start;
	return chain_run(&c) == 0 && c.self_at_start;
}

/* A lookup by name along the chain: the first default definition. */
struct find_name {
	const char *name;
	void *found;
};

/*
 * A definition that binds into this object is passed over: going on to it would come straight
 * back. glibc 2.17's librt defines clock_gettime@GLIBC_2.2.5 as an IFUNC whose resolver answers
 * libc's __clock_gettime as librt's GOT binds it, which is ours.
 */
static int find(const struct fr_elfsyms *s, void *arg)
{
	struct find_name *f = arg;
	void *p = fr_elfsyms_lookup_default(s, f->name);

	if (!p || fr_self_contains(p))
		return 0;
	f->found = p;
	return 1;
}

void *fr_next_sym(const char *name)
{
	struct find_name f = { name, NULL };
	struct chain_walk c = { find, &f, 0, 0, NULL, 0 };
	struct fr_elfsyms libc;

	if (chain_ready() == 0) {
		for (int i = 0; i < chain.n; i++)
			if (find(&chain.objs[i], &f))
				break;
		return f.found;
	}
	if (chain_run(&c) == 0 && (c.self_at_start || c.reached_libc))
		return f.found;
	/* Our entry not seen (another namespace's list): libc's own, as for a dlopen'd copy. */
	if (fr_libc_tables(&libc) != 0)
		return NULL;
	return fr_elfsyms_lookup_default(&libc, name);
}

/*
 * The objects after libc's entry in the loader's list (start-up dependencies that came after it,
 * then what dlopen added), other copies, ourselves and the vDSO passed over.
 */
struct late_walk {
	struct find_name f;
	int past_libc;
};

static int late_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct late_walk *w = arg;
	struct fr_elfsyms s;

	(void)size;
	if (!w->past_libc) {
		w->past_libc = fr_phdr_is_libc(info);
		return 0;
	}
	if (fr_phdr_is_self(info) || fr_phdr_is_vdso(info))
		return 0;
	if (fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &s) != 0 || fr_copy_is(&s))
		return 0;
	return find(&s, &w->f);
}

/* How many objects the loader has unloaded so far (dlpi_subs), or -1 when it cannot say. */
static int first_subs(struct dl_phdr_info *info, size_t size, void *arg)
{
	long long *subs = arg;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs))
		*subs = (long long)info->dlpi_subs;
	return 1;
}

static long long unloads(fr_iterate_fn iterate)
{
	long long subs = -1;

	iterate(first_subs, &subs);
	return subs;
}

/*
 * Answers of the walk past libc, kept while no object has ever been unloaded: until then every
 * object in the list is still where it was found. One dl_iterate_phdr call (the loader's lock
 * for a moment, one entry) checks that instead of the whole walk. Racers may fill two slots with
 * the same answer; the few names that need one (dlsym, dlvsym) fit. Slots of their own, claimed
 * by name: base/once.h's table holds one answer per word, named in advance.
 */
#define LATE_SLOTS 4

static struct {
	const char *name;
	void *found;
} late_slots[LATE_SLOTS];

static void *late_kept(const char *name)
{
	for (int i = 0; i < LATE_SLOTS; i++) {
		const char *n = __atomic_load_n(&late_slots[i].name, __ATOMIC_ACQUIRE);
		void *p = n && fr_streq(n, name) ? __atomic_load_n(&late_slots[i].found, __ATOMIC_ACQUIRE) : NULL;

		if (p)
			return p;
	}
	return NULL;
}

static void late_keep(const char *name, void *p)
{
	for (int i = 0; i < LATE_SLOTS; i++) {
		if (FR_CLAIM(&late_slots[i].name, NULL, name)) {
			__atomic_store_n(&late_slots[i].found, p, __ATOMIC_RELEASE);
			return;
		}
	}
}

void *fr_next_sym_late(const char *name)
{
	fr_iterate_fn iterate = fr_dl_iterate_phdr();
	struct late_walk w = { { name, NULL }, 0 };
	long long subs;
	void *p;

	if (!iterate)
		return NULL;
	subs = unloads(iterate);
	if (subs == 0 && (p = late_kept(name)))
		return p;
	iterate(late_visit, &w);
	if (w.f.found && subs == 0 && unloads(iterate) == 0)
		late_keep(name, w.f.found);
	return w.f.found;
}

/*
 * Where an address lies in the loader's list relative to our entry, by one walk: before it
 * (the vDSO included), after it up to libc's, in an object loaded at start after libc's, or
 * none of these.
 *
 * Objects loaded at start come first in the list, in the loader's breadth-first order, and what
 * dlopen added follows them; past libc, an entry is one of the former while some entry before it
 * names it in a DT_NEEDED entry. The walk notes those names (pointers into the objects' own
 * string tables), up to PLACE_NEEDED of them; past that it cannot tell, and says neither.
 */
#define PLACE_NEEDED 64

struct place {
	const void *addr;
	int after_self, before, after, past_libc, late, full;
	int nneeded;
	const char *needed[PLACE_NEEDED];
};

/* The entry's dynamic section and string table; -1 without them. */
static int dyn_of(const struct dl_phdr_info *info, const ElfW(Dyn) **dyn, const char **strtab)
{
	struct fr_elfsyms s;

	*dyn = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			*dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	if (!*dyn || fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &s) != 0)
		return -1;
	*strtab = s.strtab;
	return 0;
}

static void note_needed(struct place *p, const struct dl_phdr_info *info)
{
	const ElfW(Dyn) *d;
	const char *str;

	if (dyn_of(info, &d, &str) != 0)
		return;
	for (; d->d_tag != DT_NULL; d++) {
		if (d->d_tag != DT_NEEDED)
			continue;
		if (p->nneeded == PLACE_NEEDED) {
			p->full = 1;
			return;
		}
		p->needed[p->nneeded++] = str + d->d_un.d_val;
	}
}

static const char *base_name(const char *path)
{
	const char *b = path;

	for (; *path; path++)
		if (*path == '/')
			b = path + 1;
	return b;
}

/* Whether a DT_NEEDED entry noted so far names this entry: by its path, its file name or its DT_SONAME. */
static int is_needed(const struct place *p, const struct dl_phdr_info *info)
{
	const char *name = info->dlpi_name ? info->dlpi_name : "", *soname = NULL, *str;
	const ElfW(Dyn) *d;

	if (dyn_of(info, &d, &str) == 0)
		for (; d->d_tag != DT_NULL; d++)
			if (d->d_tag == DT_SONAME)
				soname = str + d->d_un.d_val;
	for (int i = 0; i < p->nneeded; i++) {
		const char *n = p->needed[i];

		if ((*name && fr_streq(n, name)) || (soname && fr_streq(n, soname)) ||
		    (*name && base_name(n) == n && fr_streq(n, base_name(name))))
			return 1;
	}
	return 0;
}

static int place_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct place *p = arg;

	(void)size;
	if (!p->after_self) {
		if (fr_phdr_is_self(info)) {
			p->after_self = 1;
			note_needed(p, info);
			/* An address already placed before us cannot lie after us as well. */
			return p->before;
		}
		if (fr_phdr_contains(info, p->addr))
			p->before = 1;
		note_needed(p, info);
		/* libc before us: we were dlopen'd, and no address is before or after us. */
		return fr_phdr_is_libc(info);
	}
	if (fr_phdr_is_vdso(info))
		return 0;
	if (!p->past_libc) {
		if (fr_phdr_contains(info, p->addr))
			return p->after = 1;
		note_needed(p, info);
		p->past_libc = fr_phdr_is_libc(info);
		return p->full;
	}
	/* Past libc: loaded at start while an entry before it needs it; the first that none needs ends those. */
	if (fr_phdr_is_self(info) || !is_needed(p, info))
		return 1;
	if (fr_phdr_contains(info, p->addr))
		return p->late = 1;
	note_needed(p, info);
	return p->full;
}

enum fr_place fr_place_of(const void *addr)
{
	fr_iterate_fn iterate = fr_dl_iterate_phdr();
	struct place p = { .addr = addr };

	if (!iterate)
		return FR_PLACE_UNKNOWN;
	iterate(place_visit, &p);
	if (!p.after_self)
		return FR_PLACE_NEITHER;
	return p.before ? FR_PLACE_BEFORE : p.after ? FR_PLACE_AFTER : p.late ? FR_PLACE_LATE : FR_PLACE_NEITHER;
}

const char *fr_chain_problem(void)
{
	struct fr_elfsyms libc;

	if (fr_libc_tables(&libc) != 0)
		return "libc.so.6 not in the loader's list or its symbol table unreadable: lookups, getauxval and syscall() have nothing to pass to";
	if (!fr_dl_iterate_phdr())
		return "libc has no dl_iterate_phdr: every next definition is libc's own, later interposers are passed over";
	return NULL;
}

/* lookup(name) with errno kept: before relocation errno is out of reach, and nothing on this path sets it. */
static void *keeping_errno(void *(*lookup)(const char *), const char *name)
{
	int saved;
	void *p;

	if (!fr_relocated())
		return lookup(name);
	saved = errno;
	p = lookup(name);
	errno = saved;
	return p;
}

void *fr_next_cached(void **cache, const char *name)
{
	void *p = fr_once_get(cache);

	if (p)
		return p;
	p = keeping_errno(fr_next_sym, name);
	if (p)
		return fr_once_put(cache, p);
	/*
	 * Not up to libc: an object after it may define the name (glibc before 2.34 has dlsym and
	 * dlvsym in libdl, which follows libc in the list when only a library links it). Such an
	 * object may be dlopen'd and unloaded again, so what is found there is not kept here:
	 * fr_next_sym_late keeps it only while nothing was ever unloaded.
	 */
	return keeping_errno(fr_next_sym_late, name);
}

void *fr_next_interposer(void **cache, const char *name, void *own)
{
	void *p = fr_once_get(cache);

	if (p)
		return p;
	p = keeping_errno(fr_next_sym, name);
	return fr_once_put(cache, p && !fr_is_libc_clock_gettime(p) ? p : own);
}
