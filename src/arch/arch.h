/* SPDX-License-Identifier: MIT */
/* The architecture seam: the few things generic code asks of the CPU, each answered by src/arch/<cpu>/. */
#ifndef FR_ARCH_H
#define FR_ARCH_H

/*
 * The hooks, as the kernel's lib/vdso lists its __arch_* ones. Every architecture folder
 * defines them all; generic code uses nothing else of the CPU.
 *
 *   uint64_t fr_arch_counter_ordered(void)    the counter, read after every earlier load
 *                                             (one self-ordering instruction: the default)
 *   uint64_t fr_arch_counter_fenced(void)     the counter, read after a separate fence
 *   uint64_t fr_arch_counter_unordered(void)  the counter, read as soon as the CPU likes
 *   void fr_arch_pause(void)                  a spin-wait hint for a retry loop
 *   long fr_sys6(nr, a..f), fr_sys3(nr, a..c) the system call instruction itself
 *   struct fr_cpu_features, fr_cpu_probe      what the CPU offers, replaceable by tests
 */
#if defined(__x86_64__)
#include "arch/x86_64/counter.h"
#include "arch/x86_64/rawsys.h"
#else
#error "libfastraw: no src/arch/ folder for this architecture"
#endif

#endif
