/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's system call registers for the family's fr_sys6 (arch/armfam/rawsys.h): EABI's svc #0, the number in r7, arguments in r0-r5, the result in r0. */
#ifndef FR_ARM_RAWSYS_H
#define FR_ARM_RAWSYS_H

/*
 * r7 is Thumb code's frame pointer only with -fno-omit-frame-pointer, which the library is not
 * built with; the number is moved into r7 inside the asm, from r6, around a save of r7 in ip,
 * so that no frame-pointer build breaks either.
 */
#define FR_ARMFAM_REG(n) "r" #n
#define FR_ARMFAM_SYS_NR "r6"
#define FR_ARMFAM_SVC "mov ip, r7\n\tmov r7, r6\n\tsvc #0\n\tmov r7, ip"
#define FR_ARMFAM_SVC_CLOBBERS "ip",

#include "arch/armfam/rawsys.h"

#endif
