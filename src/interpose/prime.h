/* SPDX-License-Identifier: MIT */
/* The constructor's last step: every next definition the exports chain to, found before any call needs it. */
#ifndef FR_PRIME_H
#define FR_PRIME_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Each fills its file's caches of the next definitions in the chain (elf/nextsym.h) and returns.
 * Found lazily, they would be found by the first call that needs one, walking the loader's list
 * under the loader's lock: a child forked while another thread held that lock would wait for
 * ever, and so would a signal handler that interrupted its own thread inside it. Calls made
 * before the constructor (other objects' IFUNC resolvers and constructors) still find them
 * lazily, while start-up is normally one thread.
 */
void fr_dl_prime(void);      /* dlsym, dlvsym, getauxval (interpose_dl.c) */
void fr_syscall_prime(void); /* syscall, and FASTRAW_SYSCALL (interpose_syscall.c) */
void fr_time32_prime(void);  /* the 32-bit-time clock_gettime's, where FR_HAS_TIME64 (interpose_time32.c) */

#pragma GCC visibility pop

#endif
