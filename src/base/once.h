/* SPDX-License-Identifier: MIT */
/* The compute-once idioms: a pointer slot published with release, one claim, a record kept once. */
#ifndef FR_ONCE_H
#define FR_ONCE_H

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

#pragma GCC visibility pop

#endif
