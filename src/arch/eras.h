/* SPDX-License-Identifier: MIT */
/* The era table of this CPU (arch/<cpu>/eras.h): included by kdata/eras.c alone, which declares what it defines. */
#ifndef FR_ARCH_ERAS_H
#define FR_ARCH_ERAS_H

#if defined(__x86_64__)
#include "arch/x86_64/eras.h"
#elif defined(__aarch64__)
#include "arch/aarch64/eras.h"
#elif defined(__arm__)
#include "arch/arm/eras.h"
#else
#error "libfastraw: no src/arch/ folder for this architecture"
#endif

#endif
