/* SPDX-License-Identifier: MIT */
/* arm64's half of the oracle on the live pages (tests/oracle/live.c): its harness, its copy, the page it needs. */
#ifndef FRT_LIVE_CPU_H
#define FRT_LIVE_CPU_H

#include "../armfam/compare.h"

/* The comparison harness (compare.h) and the copy of this process's vDSO it runs (vdso_copy.h). */
typedef struct aorun_tally live_tally;
#define LIVE_KD aorun_kd
#define LIVE_COPY aorun_ac
#define LIVE_OPEN(fatal) aorun_open(fatal)
#define LIVE_CLOSE() aorun_close()
#define LIVE_CARRY_SHORTCUT(on) acopy_set_carry_shortcut(&aorun_ac, (on))
#define LIVE_REFRESH() acopy_refresh(&aorun_ac)
#define LIVE_BEGIN(t, name) aorun_begin((t), (name), AORUN_COMPUTE)
#define LIVE_ONE(t, now) aorun_one((t), (now))
#define LIVE_END(t) aorun_end(t)

/* The live page the comparison needs, and why not when it is not that. */
#define LIVE_UNUSABLE() (aorun_ac.live_mode != FR_MODE_COUNTER || aorun_ac.live_in_timens)
#define LIVE_UNUSABLE_WHY "the live clock mode is not the generic timer's, or this process is in a time namespace"

#endif
