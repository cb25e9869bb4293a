/* SPDX-License-Identifier: MIT */
/* The tools' one door into the library's internals: what fastraw-info and fastraw-bench ask of start-up beyond the public API. */
#ifndef FR_TOOLS_H
#define FR_TOOLS_H

#include "startup/runtime.h"
#include "proc/env.h"

/*
 * The tools link fastraw_core statically and reach start-up, the exact reader and calibrated
 * mode only through these entries (tests/lint/check_layers.sh keeps them from including
 * src/startup, src/exact, src/kdata or src/calib themselves). They run the library's own code in
 * the tool's process; the preloaded library never calls them, and libfastraw.so holds none of
 * them. startup/runtime.h comes along for struct fr_status and the types it holds (the pick, the
 * kernel data pages' layout, the counter read), which the tools report.
 */

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Runs initialisation in this process and returns its published decision, NULL when none was
 * published (a later copy of the library). With release, decides as if uname said it: the
 * documented internal entry behind fastraw-info --release (which layout the page and the vDSO
 * prove; docs/internals.md, docs/tools.md), the release passed down as an argument. Only the
 * first initialisation of a process decides.
 */
const struct fr_status *fr_tool_decide(const char *release);

/* The constructor's share of start-up (startup/start.h), for bench_startup_stages. */
void fr_tool_start(void);

/* The library's CPU probe, as start-up runs it: it never executes the instructions it asks about. */
void fr_tool_cpu_probe(struct fr_cpu_features *out);

/* The counter read start-up chooses for env and cpu; *ordered_missing as startup/decide.h says. */
enum fr_counter_mode fr_tool_choose_counter(const struct fr_env *env, const struct fr_cpu_features *cpu,
					    int *ordered_missing);

/* Start-up's choice of the pages and their layout for release, judged with counter read ctr (startup/locate.h). */
const char *fr_tool_locate(const char *release, enum fr_counter_mode ctr, fr_real_fn real, struct fr_kdata *kd,
			   struct fr_pick *pick);

/* Start-up's self-test of the fast path on kd with counter read ctr: NULL, or why it must stay off. */
const char *fr_tool_self_test(const struct fr_kdata *kd, enum fr_counter_mode ctr, fr_real_fn real);

/*
 * The pages st's decision reads: the library's own when initialisation found and checked them,
 * else the choice start-up would make for st's release, into *own and *pick. NULL with the pages
 * in *kd, or why they cannot be used.
 */
const char *fr_tool_pages(const struct fr_status *st, struct fr_kdata *own, struct fr_pick *pick,
			  const struct fr_kdata **kd);

/* Why calibrated mode is not eligible on this CPU and st's kernel (calib/calib_source.h); NULL: it is. */
const char *fr_tool_cal_ineligible(const struct fr_status *st, const struct fr_cpu_features *cpu);

#pragma GCC visibility pop

#endif
