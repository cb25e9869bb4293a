/* SPDX-License-Identifier: MIT */
/* Reading memory another writer changes: loads, the compiler barrier, branch hints, the seqcount pair. */
#ifndef FR_ACCESS_H
#define FR_ACCESS_H

#include <stdint.h>

#include "arch/arch.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * One load of a field that a writer (the kernel, a hypervisor, another thread) may change at
 * any time: volatile, so the compiler neither caches, repeats nor merges it. Each names its
 * width; p is any byte pointer to the field.
 */
#define FR_LD8(p) (*(const volatile uint8_t *)(p))
#define FR_LDS8(p) (*(const volatile int8_t *)(p))
#define FR_LD16(p) (*(const volatile uint16_t *)(p))
#define FR_LD32(p) (*(const volatile uint32_t *)(p))
#define FR_LD64(p) (*(const volatile uint64_t *)(p))

/*
 * The same loads, not volatile: for fields inside a seqcount window that no test reads before
 * the window closes, where a torn or repeated load costs nothing but a retry. Asm barriers
 * (FR_BARRIER, FR_COMPILER_BARRIER, the counter reads' memory clobbers) still bound them.
 */
#define FR_LD32_PLAIN(p) (*(const uint32_t *)(const void *)(p))
#define FR_LD64_PLAIN(p) (*(const uint64_t *)(const void *)(p))

/*
 * Orders the loads of a snapshot against the loads of its seqcount or version, for the
 * compiler and for the CPU: the architecture's read barrier (fr_arch_rmb, the kernel's smp_rmb:
 * a compiler barrier alone on x86-64, a load-load fence where loads may pass each other).
 */
#define FR_BARRIER() fr_arch_rmb()

/*
 * Keeps the compiler from moving loads across it, and nothing more: for a point the CPU
 * already orders, such as a counter read after the FR_BARRIER that followed seq (the ordered
 * reads wait for earlier loads themselves). On x86-64 it is FR_BARRIER itself.
 */
#define FR_COMPILER_BARRIER() __asm__ volatile("" ::: "memory")

#define FR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define FR_LIKELY(x) __builtin_expect(!!(x), 1)

/*
 * The seqcount pair, in the sense of the kernel's vdso_read_begin/vdso_read_retry: begin
 * waits while a writer holds the count odd, retry says whether it changed since. Unlike the
 * kernel's, begin gives up after FR_SEQ_SPINS looks, because a count can stay odd for ever (a
 * stuck writer, a page read with the wrong layout); it then returns the odd value, which the
 * caller must take as "no snapshot": retry cannot tell it from a settled one.
 */
#define FR_SEQ_SPINS 128

static inline __attribute__((always_inline)) uint32_t fr_seq_begin(const volatile void *p)
{
	uint32_t seq = FR_LD32(p);

	for (int i = 1; FR_UNLIKELY(seq & 1) && i < FR_SEQ_SPINS; i++) {
		fr_arch_pause();
		seq = FR_LD32(p);
	}
	FR_BARRIER();
	return seq;
}

static inline __attribute__((always_inline)) int fr_seq_retry(const volatile void *p, uint32_t seq)
{
	FR_BARRIER();
	return FR_LD32(p) != seq;
}

#pragma GCC visibility pop

#endif
