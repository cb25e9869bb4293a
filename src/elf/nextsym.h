/* SPDX-License-Identifier: MIT */
/* The next definition of a function in the lookup chain after libfastraw (what RTLD_NEXT would give), found without dlsym. */
#ifndef FR_NEXTSYM_H
#define FR_NEXTSYM_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

struct fr_elfsyms;

/*
 * The address an unversioned reference to name would bind to if libfastraw were not there: the
 * first object after ours (a definition that binds back into this object passed over) in the loader's list of objects loaded at start (later LD_PRELOAD
 * entries, their dependencies and the program's) that defines it, else libc's own. When this
 * object was dlopen'd rather than loaded at start, libc's. NULL if even libc has no such name.
 * Reads only loaded ELF tables: no allocation, no system call. The first call walks the loader's
 * list under the loader's lock and records the chain; later calls read the record.
 */
void *fr_next_sym(const char *name);

/*
 * The first default definition of name in an object after libc's entry in the loader's list
 * (ourselves, copies and the vDSO passed over), by a walk under the loader's lock; NULL if none.
 * For names libc does not define: the next dlsym of glibc before 2.34 is libdl's. An answer is
 * kept while the loader has never unloaded an object, which one dl_iterate_phdr call checks.
 */
void *fr_next_sym_late(const char *name);

/*
 * fr_next_sym(name), cached in *cache (lock-free: racers find and store the same address); when
 * that finds nothing, fr_next_sym_late(name), not in *cache. Keeps errno.
 */
void *fr_next_cached(void **cache, const char *name);

/*
 * Where an export sends the calls it passes on, for a clock name: fr_next_sym(name) when that is
 * another interposer's, else own (libc's own clock_gettime under either name, or none). Cached in
 * *cache as fr_next_cached caches, before relocation too (fr_next_sym reads no GOT). Keeps errno.
 */
void *fr_next_interposer(void **cache, const char *name, void *own);

/*
 * Whether the chain's record is made (the first call makes it, by the one walk of the loader's list
 * that start-up needs): 1 when every later fr_next_sym reads the record, with no walk and no lock,
 * so that the next definitions need not be found ahead of time (interpose/prime.h); 0 when calls
 * still walk (this object was not seen in the list, a racer is recording, the list is too long).
 */
int fr_chain_recorded(void);

/*
 * The first copy of the library ahead of ours in the loader's list, as the recording walk saw it:
 * 1 with its tables in *out, 0 when there is none, -1 when there is no record to ask.
 */
int fr_chain_first_copy(struct fr_elfsyms *out);

/* This object's load bias, from its own ELF header (usable before relocation); 0 if unknown. */
uintptr_t fr_self_bias(void);

/* Whether addr lies in one of this object's own loaded segments (usable before relocation). */
int fr_self_contains(const void *addr);

/* Whether this object's dynamic symbol table exports name (usable before relocation). */
int fr_self_defines(const char *name);

/*
 * NULL when the walk can read the loader's list, else why not (for FASTRAW_DEBUG): what cannot be
 * read is not read, and the calls go on to libc's own definitions or fail as documented.
 */
const char *fr_chain_problem(void);

struct dl_phdr_info;

/*
 * Whether the object with these tables is a copy of libfastraw: its dynamic symbol table defines
 * fastraw_info, the export the launcher identifies the library by; any version of the library
 * has it. The walk for the next definition passes over copies: a later copy sends its calls back
 * to the first, so chaining from the first to it would go round in a circle.
 */
int fr_copy_is(const struct fr_elfsyms *s);

/* Whether addr lies in one of this dl_iterate_phdr entry's PT_LOAD segments. */
int fr_phdr_contains(const struct dl_phdr_info *info, const void *addr);

/* Whether this dl_iterate_phdr entry is this object itself (it holds our own code). */
int fr_phdr_is_self(const struct dl_phdr_info *info);

/* Whether this entry is libc (elf/dynsym.h, fr_is_libc), or the vDSO (linux-vdso.so.1). */
int fr_phdr_is_libc(const struct dl_phdr_info *info);
int fr_phdr_is_vdso(const struct dl_phdr_info *info);

/* Whether this object is in the loader's list ahead of libc, i.e. was loaded at start, not dlopen'd. */
int fr_self_loaded_at_start(void);

/* Where an address lies in the loader's list of objects loaded at start, relative to ours. */
enum fr_place {
	FR_PLACE_BEFORE,  /* in an object before ours: the program, earlier LD_PRELOAD entries, the vDSO */
	FR_PLACE_AFTER,   /* in an object after ours, up to libc (a later interposer, a dependency, libc) */
	FR_PLACE_LATE,    /* in an object loaded at start after libc (linked after it: -lc -lB) */
	FR_PLACE_NEITHER, /* libfastraw itself, outside every object loaded at start (a dlopen'd
			     one, generated code); always when this object was dlopen'd */
	FR_PLACE_UNKNOWN, /* the list cannot be walked */
};

/* One walk of the list (under the loader's lock, for a moment). */
enum fr_place fr_place_of(const void *addr);

#pragma GCC visibility pop

#endif
