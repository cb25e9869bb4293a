/* SPDX-License-Identifier: MIT */
/* The one compute-once idiom: a pointer slot, NULL until a value is published into it with release. */
#ifndef FR_ONCE_H
#define FR_ONCE_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Every lazily computed answer of the library lives in a slot like this: a pointer that is NULL
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

#pragma GCC visibility pop

#endif
