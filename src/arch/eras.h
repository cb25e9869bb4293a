/* SPDX-License-Identifier: MIT */
/* The era table of this CPU (arch/<cpu>/eras.h): included by kdata/eras.c alone, which declares what it defines. */
#ifndef FR_ARCH_ERAS_H
#define FR_ARCH_ERAS_H

/*
 * The table's definition, included once, by kdata/eras.c: struct fr_era and the FR_RULES_*
 * values are kdata's and math's, declared there before this file, so that the facts of one CPU
 * live in its folder while this folder includes nothing above it.
 */
#include "arch/cpu_dir.h"
#include FR_CPU_FILE(eras.h)

#endif
