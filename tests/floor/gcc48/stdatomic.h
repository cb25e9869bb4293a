/* SPDX-License-Identifier: MIT */
/* The part of <stdatomic.h> the e2e probes use, for GCC 4.8 (glibc 2.17's compiler), which has the __atomic builtins but not the header. */
#ifndef FR_FLOOR_GCC48_STDATOMIC_H
#define FR_FLOOR_GCC48_STDATOMIC_H

/* Only tests/floor/glibc_matrix.sh puts this folder on the include path, and only for GCC 4.8:
   a compiler with its own header never sees this one. */
typedef enum {
	memory_order_relaxed = __ATOMIC_RELAXED,
	memory_order_consume = __ATOMIC_CONSUME,
	memory_order_acquire = __ATOMIC_ACQUIRE,
	memory_order_release = __ATOMIC_RELEASE,
	memory_order_acq_rel = __ATOMIC_ACQ_REL,
	memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;

typedef int atomic_int;
typedef unsigned atomic_uint;
typedef long atomic_long;
typedef unsigned long atomic_ulong;

#define atomic_load_explicit(p, mo) __atomic_load_n((p), (mo))
#define atomic_store_explicit(p, v, mo) __atomic_store_n((p), (v), (mo))
#define atomic_fetch_add_explicit(p, v, mo) __atomic_fetch_add((p), (v), (mo))
#define atomic_load(p) atomic_load_explicit((p), memory_order_seq_cst)
#define atomic_store(p, v) atomic_store_explicit((p), (v), memory_order_seq_cst)
#define atomic_fetch_add(p, v) atomic_fetch_add_explicit((p), (v), memory_order_seq_cst)

#endif
