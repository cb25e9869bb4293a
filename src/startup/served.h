/* SPDX-License-Identifier: MIT */
/* FASTRAW_CLOCKS: the dispatcher that serves the named clocks from the kernel's page, published into fr_hot.pass. */
#ifndef FR_SERVED_H
#define FR_SERVED_H

#include <time.h>

#include "kdata/kdata.h"
#include "arch/arch.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Why the clocks of FASTRAW_CLOCKS other than RAW are not served, or NULL when they are: they
 * are served exactly where RAW is served from the kernel's data (active), never from
 * calibrated mode's estimate, which other processes' readings of the same clock would not share.
 */
const char *fr_served_why_not(int active, int calibrated, unsigned wanted);

/*
 * Publishes into fr_hot.pass a dispatcher that answers the clocks of `clocks` (bits of clock ids;
 * RAW's is ignored, RAW has its own path) from fr_kd, with the readers of the era lay and the
 * counter read mode, and passes every other call, and every call they cannot answer exactly,
 * on to what fr_hot.pass held or would hold (the counting wrapper with FASTRAW_STATS, the next
 * interposer, or the vDSO). counting: FASTRAW_STATS is on, count the calls answered. Call once,
 * during initialisation, after fr_kd is written and after fr_pass_count. Returns the clocks
 * served (0: none, fr_hot.pass unchanged).
 */
unsigned fr_served_start(const struct fr_layout *lay, enum fr_counter_mode mode, unsigned clocks, int counting);

/*
 * A served clock's reading for the entries that pass on to the vDSO rather than along the chain
 * (fr_served_libc and fr_served_vdso below, and through them every such entry): FR_OK with *ts
 * (counted with FASTRAW_STATS), or FR_PASS when clk is not served (nothing published yet, or
 * FASTRAW_CLOCKS did not name it) or cannot be answered exactly. ts must not be NULL.
 */
int fr_served_read(clockid_t clk, struct timespec *ts);

/*
 * Every clock but RAW in libc's convention, ts not NULL, for the entries that pass on to the vDSO
 * rather than along the chain (the API, syscall(), __clock_gettime where libc's own follows): a
 * served clock from the page, everything else, and what cannot be answered exactly, the vDSO's
 * answer (fr_passthrough_libc, counted by FASTRAW_STATS).
 */
int fr_served_libc(clockid_t clk, struct timespec *ts);

/*
 * Every clock but RAW in the vDSO's convention (0 or -errno, errno untouched), for
 * fr_vdso_clock_gettime: a served clock from the page (NULL: -EFAULT, as the kernel answers),
 * everything else, and what cannot be answered exactly, to fr_passthrough_vdso. One load and a
 * branch more than fr_passthrough_vdso: handed out only when fr_served_any (fr_vdso_entry).
 */
int fr_served_vdso(clockid_t clk, struct timespec *ts);

/* Whether any clock but RAW is served (FASTRAW_CLOCKS, published). */
int fr_served_any(void);

#pragma GCC visibility pop

#endif
