/* SPDX-License-Identifier: MIT */
/* Which C library the build is for: glibc, or musl (the one other libc the library is built for). */
#ifndef FR_LIBC_H
#define FR_LIBC_H

/* features.h defines __GLIBC__ under glibc and nothing of the kind under musl. */
#include <features.h>

/*
 * FR_LIBC_GLIBC is 1 under glibc and 0 under musl, always defined, so that code asks
 * `if (FR_LIBC_GLIBC)` where both branches compile and `#if FR_LIBC_GLIBC` only where a branch
 * names what the other libc lacks (_r_debug, glibc's symbol versions, its CPUID cache). The
 * build (src/CMakeLists.txt) makes the same test to choose the export list.
 */
#if defined(__GLIBC__)
#define FR_LIBC_GLIBC 1
#else
#define FR_LIBC_GLIBC 0
#endif

/*
 * The TLS model of the library's thread-locals. Initial-exec under glibc: one %fs-relative load,
 * and glibc's loader keeps room in static TLS for an object dlopen'd later. musl's loader refuses
 * initial-exec TLS in a dlopen'd object (the dlopen fails), so there the general model, whose
 * __tls_get_addr only indexes the thread's vector: musl sets up every module's TLS at dlopen
 * and pthread_create, so the access allocates nothing and is safe in a signal handler.
 */
#if FR_LIBC_GLIBC
#define FR_TLS_MODEL "initial-exec"
#else
#define FR_TLS_MODEL "global-dynamic"
#endif

#endif
