/* SPDX-License-Identifier: MIT */
/* Whether an address can be read, asked of the kernel so that a wrong guess costs an error code instead of a signal. */
#ifndef FR_READABLE_H
#define FR_READABLE_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * 1 when the 8 bytes at p can be read, 0 when reading them would fault (unmapped, or a special
 * page whose fault handler answers SIGBUS), -1 when the kernel would not say (a sandbox refused
 * the question). One system call, no side effect.
 */
int fr_readable(const volatile void *p);

/*
 * The same question for the 4-byte-aligned word at p, asked with futex instead (see readable.c):
 * 1 readable, 0 unmapped or PROT_NONE, -1 when the kernel would not say (a filter refused
 * futex, or p is not aligned). One system call that a seccomp filter allowing libc's locks allows.
 */
int fr_word_readable(const volatile void *p);

#pragma GCC visibility pop

#endif
