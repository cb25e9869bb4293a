/* SPDX-License-Identifier: MIT */
/* AArch64's system call registers for the family's fr_sys6 (arch/armfam/rawsys.h): svc #0, the number in x8, arguments in x0-x5, the result in x0. */
#ifndef FR_AARCH64_RAWSYS_H
#define FR_AARCH64_RAWSYS_H

#define FR_ARMFAM_REG(n) "x" #n
#define FR_ARMFAM_SYS_NR "x8"
#define FR_ARMFAM_SVC "svc #0"
#define FR_ARMFAM_SVC_CLOBBERS

#include "arch/armfam/rawsys.h"

#endif
