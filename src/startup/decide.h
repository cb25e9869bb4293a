/* SPDX-License-Identifier: MIT */
/* The two decisions of start-up that need no process state: which counter read, and whether the fast path agrees with the vDSO. */
#ifndef FR_DECIDE_H
#define FR_DECIDE_H

#include "startup/runtime.h"
#include "exact/fastpath.h"
#include "arch/arch.h"
#include "proc/env.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * What the CPU offers: the architecture's probe, given libc's symbols to look in. The tests reach
 * fr_choose_counter's every branch with features of their own, passed as its argument.
 */
void fr_cpu_probe(struct fr_cpu_features *out);

/*
 * The counter read for this CPU and environment: FASTRAW_TSC when it names one the CPU has,
 * else the ordered read where the CPU has it, else the fenced one. Sets *ordered_missing when
 * the ordered read was asked for on a CPU without it (the fenced one is used: never a fault).
 */
enum fr_counter_mode fr_choose_counter(const struct fr_env *env, const struct fr_cpu_features *cpu,
				       int *ordered_missing);

/*
 * Interleaved calls: real <= ours <= real, with tv_nsec in range, every time, and at least one
 * call served by the fast path. Returns NULL, or why the fast path must stay off.
 */
const char *fr_self_test(const struct fr_kdata *kd, fr_counter_fn counter, fr_real_fn real);

/*
 * The self-test for every served clock of `clocks` but RAW (FASTRAW_CLOCKS): each answer, where
 * the fast reading gives one, inside the vDSO's bracket of the same clock. NULL, or why not.
 */
const char *fr_self_test_clocks(const struct fr_kdata *kd, fr_counter_fn counter, fr_real_fn real, unsigned clocks);

#pragma GCC visibility pop

#endif
