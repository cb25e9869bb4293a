/* SPDX-License-Identifier: MIT */
/* The kernel's auxiliary vector read by raw system calls, for callers that cannot use libc (before relocation, or without getauxval). */
#ifndef FR_ARCH_AUXV_H
#define FR_ARCH_AUXV_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* 64 pairs: a vector holds about 20 to 30, and every entry read here comes early in it. */
#define FR_AUXV_WORDS 128

/*
 * The vector into v (size bytes): prctl(PR_GET_AUXV), Linux 6.4+, else /proc/self/auxv. The
 * number of bytes it holds, <= 0 when neither source answers. No libc, no errno, no allocation.
 */
long fr_auxv_read(unsigned long *v, long size);

/* The value of type in a vector of bytes bytes ((type, value) pairs up to AT_NULL), 0 if absent. Pure. */
unsigned long fr_auxv_find(const unsigned long *v, long bytes, unsigned long type);

/*
 * The kernel's entry for type (0 if none or unreadable), read afresh on each call. libc's
 * getauxval is the first choice where it can be reached: glibc's answers for AT_HWCAP and
 * AT_HWCAP2 differ from the kernel's on some CPUs (it keeps its loader's view).
 */
unsigned long fr_auxval_raw(unsigned long type);

#pragma GCC visibility pop

#endif
