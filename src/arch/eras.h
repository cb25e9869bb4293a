/* SPDX-License-Identifier: MIT */
/* The era table of this CPU (arch/<cpu>/eras.h): included by kdata/eras.c alone, which declares what it defines. */
#ifndef FR_ARCH_ERAS_H
#define FR_ARCH_ERAS_H

#include "arch/cpu_dir.h"
#include FR_CPU_FILE(eras.h)

#endif
