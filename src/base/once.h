/* SPDX-License-Identifier: MIT */
/* The compute-once idioms: a pointer slot published with release, one claim, a record kept once. */
#ifndef FR_ONCE_H
#define FR_ONCE_H

#include <stdint.h>
#include <sys/types.h>

#include "base/clockfn.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * A lazily computed answer that fits in a pointer lives in a slot like this: a pointer that is NULL
 * until published. NULL needs no relocation (a static pointer to anything else would be
 * garbage before the loader relocates us), and a pointer is one aligned word, so a reader sees
 * either NULL or a whole value whatever interrupts the writer: a thread, a signal handler on
 * the same thread, a fork while another thread computes. There is no lock and no waiting: a
 * reader that finds NULL computes the answer itself, and racers compute the same answer from
 * the same inputs and store the same value.
 *
 * The acquire load pairs with the release of the publication, so whatever the publisher wrote
 * before it (the data a published pointer points at) is visible to a reader that sees it.
 */
static inline void *fr_once_get(void *const *slot)
{
	return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

/*
 * Publishes v and returns it; v NULL publishes nothing ("not found" stays to be asked again). A
 * plain release store, not a compare-and-swap: racers computed the same answer, so whichever
 * store lands last leaves the slot as the first left it (and on arm64 without LSE a CAS is a
 * loop of exclusive loads and stores, larger on every path that asks).
 */
static inline void *fr_once_put(void **slot, void *v)
{
	if (v)
		__atomic_store_n(slot, v, __ATOMIC_RELEASE);
	return v;
}

/*
 * A pointer to stand for "looked, there is none" where that answer is final, so that it is not
 * asked again: compare with FR_ONCE_NONE, never dereference it. Address 1 is no object's, and
 * unlike the address of a static in this header it is the same value in every file.
 */
#define FR_ONCE_NONE ((void *)1)

/*
 * The one compare-and-swap of the library's claims: moves the word at p from *seen to `to` and
 * is true if this caller did; if not, *seen holds what the word held. Type-generic (an int
 * state, a pointer, a process id); acquire and release both ways, so what a claimer writes
 * after its claim and what it read before are ordered against the other claimers.
 */
#define FR_CLAIM_SEEN(p, seen, to) __atomic_compare_exchange_n((p), (seen), (to), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)

/* True if this caller moved the word at p from `from` to `to` (the first to claim it). */
#define FR_CLAIM(p, from, to) FR_CLAIM_SEEN((p), &(__typeof__(*(p))){ (from) }, (to))

/*
 * A record too large for one word (a symbol table's pointers, an extent), kept in place and
 * written once by whichever caller claims it, behind a state word that starts at FR_KEEP_NONE.
 * A racer, or a signal handler interrupting the claimer, finds it not ready and computes its
 * own copy; the claimer publishes the record with release (or gives the claim back).
 */
enum { FR_KEEP_NONE, FR_KEEP_BUSY, FR_KEEP_READY };

/* True when the record behind state is written and may be read. */
static inline int fr_keep_ready(const int *state)
{
	return __atomic_load_n(state, __ATOMIC_ACQUIRE) == FR_KEEP_READY;
}

/* True if this caller claimed the record: it alone writes it, then calls fr_keep_done. */
static inline int fr_keep_claim(int *state)
{
	/* A plain look first: a busy or ready record is not written to again. */
	return __atomic_load_n(state, __ATOMIC_RELAXED) == FR_KEEP_NONE && FR_CLAIM(state, FR_KEEP_NONE, FR_KEEP_BUSY);
}

/* Publishes the claimed record (ok), or gives the claim back for a later caller (!ok). */
static inline void fr_keep_done(int *state, int ok)
{
	__atomic_store_n(state, ok ? FR_KEEP_READY : FR_KEEP_NONE, __ATOMIC_RELEASE);
}

/*
 * Every word the library computes once, or claims, outside the hot path's record (base/hot.h):
 * one table, indexed by what each word holds, grouped by the file that owns it (only that file
 * touches its words). Each starts 0, which needs no relocation. A word is a slot (p, with
 * fr_once_get/fr_once_put), the state of a kept record (i, with fr_keep_*), or a claimed word
 * (FR_CLAIM on whichever member fits). Records larger than a word stay with their owners.
 */
enum fr_word_id {
	/* elf/dynsym.c: dl_iterate_phdr, program_invocation_name, getauxval */
	FR_W_ITERATE, FR_W_INVOCATION_NAME, FR_W_GETAUXVAL,
	/* elf/early.c: the initial stack's auxv, _r_debug, __libc_stack_end */
	FR_W_STACK_AUXV, FR_W_RDEBUG, FR_W_STACK_END,
	/* elf/nextsym.c: our own load bias */
	FR_W_SELF_BIAS,
	/* elf/vdso_elf.c: the vDSO's extent, a kept record of two words */
	FR_W_RANGE_STATE, FR_W_RANGE_LO, FR_W_RANGE_HI,
	/* passthru/copies.c: the first copy's tables' slot, its clock_gettime, our pass-through's */
	FR_W_FIRST_SLOT, FR_W_FIRST_CLOCK, FR_W_COPY_PASS,
	/* passthru/depth.c: the count before relocation, the loop said once */
	FR_W_EARLY_DEPTH, FR_W_DEPTH_REPORTED,
	/* passthru/passthru.c: the later interposer, the next clock_gettime, the counted target,
	   the kernel's ENOSYS for clock_gettime64 (32-bit ABIs) */
	FR_W_GUARDED, FR_W_PASS_NEXT, FR_W_COUNTED, FR_W_NO_TIME64,
	/* proc/memid.c: the marked page, its owner */
	FR_W_MEMID_PAGE, FR_W_MEMID_OWNER,
	/* report/errfd.c: noted, a file noted, its device and inode */
	FR_W_ERR_NOTED, FR_W_ERR_OPEN, FR_W_ERR_DEV, FR_W_ERR_INO,
	/* report/log.c: the program's name */
	FR_W_PROGRAM_OF,
	/* interpose/interpose_dl.c: the next dlsym, dlvsym, getauxval */
	FR_W_NEXT_DLSYM, FR_W_NEXT_DLVSYM, FR_W_NEXT_GETAUXVAL,
	/* interpose/shadow.c: the shadow image's state */
	FR_W_SHADOW_STATE,
	/* interpose/interpose_time32.c: where the 32-bit-time entry sends every clock but RAW */
	FR_W_TIME32_NEXT,
	/* interpose/interpose.c: where __clock_gettime sends every clock but RAW */
	FR_W_UNDERSCORE_NEXT,
	/* startup/claim.c: the holder, its process, quiet claims */
	FR_W_HOLDER, FR_W_HOLDER_PID, FR_W_QUIET,
	/* startup/locate.c: the probe's record kept, its four words */
	FR_W_PROBED_STATE, FR_W_PROBED_VDSO, FR_W_PROBED_LAY, FR_W_PROBED_PAGES, FR_W_PROBED_VCLOCK,
	/* startup/runtime.c: the configuration kept, the published decisions */
	FR_W_ENV_STATE, FR_W_STATE,
	/* startup/start.c: uname's answer kept */
	FR_W_UTS_STATE,
	FR_WORDS
};

/* One word of the table: the member its owner uses (aligned, so atomics act on a pointer-sized member whole). */
union fr_word {
	void *p;
	const void *cp;
	int i;
	unsigned u;
	uintptr_t w;
	uint64_t u64;
	pid_t pid;
	fr_clock_fn clock;
	const char *(*name_fn)(void);
};

/* The word id of the table (base/once.c); usable before relocation and in signal handlers. */
union fr_word *fr_word(enum fr_word_id id);

/* The word id as a slot, for fr_once_get and fr_once_put. */
static inline void **fr_slot(enum fr_word_id id)
{
	return &fr_word(id)->p;
}

#pragma GCC visibility pop

#endif
