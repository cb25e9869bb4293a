/* SPDX-License-Identifier: MIT */
/* x86-64's half of the oracle on the live pages (tests/oracle/live.c): its harness, its copy, the page it needs. */
#ifndef FRT_LIVE_CPU_H
#define FRT_LIVE_CPU_H

#include "compare.h"

/* The comparison harness (compare.h) and the copy of this process's vDSO it runs (vdso_copy.h). */
typedef struct orun_tally live_tally;
#define LIVE_KD orun_kd
#define LIVE_COPY orun_vc
#define LIVE_OPEN(fatal) orun_open(fatal)
#define LIVE_CLOSE() orun_close()
#define LIVE_CARRY_SHORTCUT(on) vcopy_set_carry_shortcut(&orun_vc, (on))
#define LIVE_REFRESH() vcopy_refresh(&orun_vc)
#define LIVE_BEGIN(t, name) orun_begin((t), (name), ORUN_COMPUTE)
#define LIVE_ONE(t, now) orun_one((t), (now))
#define LIVE_END(t) orun_end(t)

/* The live page the comparison needs, and why not when it is not that. */
#define LIVE_UNUSABLE() (orun_vc.live_mode != FR_MODE_COUNTER)
#define LIVE_UNUSABLE_WHY "the live clock mode is not the counter's (TSC)"

#endif
