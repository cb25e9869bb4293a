/* SPDX-License-Identifier: MIT */
/* The folder of the CPU being built, the one place that maps the compiler's CPU macro to it: FR_CPU_FILE(name) is "arch/<cpu>/name". */
#ifndef FR_CPU_DIR_H
#define FR_CPU_DIR_H

/*
 * The dispatch of arch.h, eras.h and insn.h. It is the compiler's macro, not a definition from
 * CMake, because the matrix scripts and the musl build compile the tests' probes against src/
 * without CMake. A port adds one line here. The folder names are no macros of any compiler
 * (unlike "linux" or "unix"), so the stringised path is the folder's own name.
 */
#if defined(__x86_64__)
#define FR_CPU_DIR x86_64
#elif defined(__aarch64__)
#define FR_CPU_DIR aarch64
#elif defined(__arm__)
#define FR_CPU_DIR arm
#else
#error "libfastraw: no src/arch/ folder for this architecture"
#endif

#define FR_CPU_STR_(path) #path
#define FR_CPU_STR(path) FR_CPU_STR_(path)
#define FR_CPU_FILE(name) FR_CPU_STR(arch/FR_CPU_DIR/name)

#endif
