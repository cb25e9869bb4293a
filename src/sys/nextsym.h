/* SPDX-License-Identifier: MIT */
/* The next definition of a function in the lookup chain after libfastraw (what RTLD_NEXT would give), found without dlsym. */
#ifndef FR_NEXTSYM_H
#define FR_NEXTSYM_H

/*
 * The address an unversioned reference to name would bind to if libfastraw were not there: the
 * first object after ours in the loader's list of objects loaded at start (later LD_PRELOAD
 * entries, their dependencies and the program's) that defines it, else libc's own. When this
 * object was dlopen'd rather than loaded at start, libc's. NULL if even libc has no such name.
 * Reads only loaded ELF tables: no allocation, no locks, no system call, async-signal-safe.
 */
void *fr_next_sym(const char *name);

/* fr_next_sym(name), cached in *cache (lock-free: racers find and store the same address). Keeps errno. */
void *fr_next_cached(void **cache, const char *name);

/*
 * NULL when the walk can read the loader's list, else why not (for FASTRAW_DEBUG): what cannot be
 * read is not read, and the calls go on to libc's own definitions or fail as documented.
 */
const char *fr_chain_problem(void);

struct dl_phdr_info;

/* Whether this dl_iterate_phdr entry is this object itself (its PT_DYNAMIC is our _DYNAMIC). */
int fr_phdr_is_self(const struct dl_phdr_info *info);

/* Whether this object is in the loader's list ahead of libc, i.e. was loaded at start, not dlopen'd. */
int fr_self_loaded_at_start(void);

/*
 * Whether addr lies in an object after ours in that list, up to libc (a later interposer, a
 * dependency, libc itself): 0 when this object was dlopen'd.
 */
int fr_follows_self(const void *addr);

/*
 * Whether addr lies in an object before ours in that list (the program, earlier LD_PRELOAD
 * entries and anything else the loader put ahead of us): 0 when this object was dlopen'd. So
 * an address in neither this nor fr_follows_self's range is in libfastraw itself, in an object
 * after libc, or outside every object loaded at start (a dlopen'd object, generated code).
 */
int fr_precedes_self(const void *addr);

#endif
