/* SPDX-License-Identifier: MIT */
/* Two copies of libfastraw in one process (two files, two paths): the first does the work, a later one passes everything to it. */
#ifndef FR_COPIES_H
#define FR_COPIES_H

#include <time.h>

#include "elf/elfsym.h"
#include "passthru/passthru.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * A copy of libfastraw is an object whose dynamic symbol table defines fastraw_info, the export
 * the launcher identifies the library by; any version of the library has it. The first copy is
 * the earliest one in the loader's list of objects loaded at start (LD_PRELOAD's entries, then
 * /etc/ld.so.preload's, then the program's dependencies), which is also the one every reference
 * binds to. Everything here reads only loaded ELF tables and the loader's list up to libc, by
 * libc's own dl_iterate_phdr as elf/nextsym.c does: no allocation, no system call, and the
 * loader's lock held for a moment on the first use of each answer (then cached).
 */

/*
 * Whether this object is a later copy: a copy of libfastraw precedes it in the list (this one
 * loaded at start, or dlopen'd, the other loaded at start). Such a copy prints nothing, counts
 * nothing and initialises nothing of its own; the first copy answers for it. Cached.
 */
int fr_copy_later(void);

/* name's default definition in the first copy when this object is a later copy; NULL otherwise. */
void *fr_copy_first_sym(const char *name);

/* fr_copy_first_sym(name), cached in *cache (lock-free: racers find and store the same address). */
void *fr_copy_first_cached(void **cache, const char *name);

/*
 * A later copy's clock_gettime for the clocks it passes on (libc's convention), or NULL: the
 * first copy's, through fr_copy_clock_gettime, unless an object between the two copies defines
 * clock_gettime. That object's own next definition may be this copy, so going back to the first
 * would be a loop: this copy then passes on along the ordinary chain, as any interposer does,
 * and the call has been counted once already, by the first copy on its way there. Cached.
 */
fr_clock_fn fr_copy_pass(void);

/*
 * clock_gettime through the first copy's, in libc's convention: the first copy counts the call
 * and answers it. When the call comes back here on the same thread before that returns (a first
 * copy of a version that does not pass over copies chains on to this one), it goes to the next
 * definition after this object instead, so that two copies never chase each other.
 */
int fr_copy_clock_gettime(clockid_t clk, struct timespec *ts);

/* fr_copy_clock_gettime(CLOCK_MONOTONIC_RAW, ts): a later copy's RAW, served by the first copy. */
int fr_copy_raw(struct timespec *ts);

#pragma GCC visibility pop

#endif
