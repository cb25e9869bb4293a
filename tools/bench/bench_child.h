/* SPDX-License-Identifier: MIT */
/* The measuring side of fastraw-bench: one child process per FASTRAW_TSC mode, under LD_PRELOAD. */
#ifndef BENCH_CHILD_H
#define BENCH_CHILD_H

#include "bench/bench_loops.h"

/* The bare counter read a mode's interposer performs: "default" is the ordered read where the CPU has it, else the fenced one. */
enum bench_kind bench_mode_counter(const char *mode);

/*
 * Prints "where FILE" (the file clock_gettime binds to here) and "interposed 1" when that is
 * lib and libc's own clock_gettime was found apart from it; returns 0, else 3 after printing
 * "interposed 0" or "libc_hidden 1". Call after bench_init.
 */
int bench_check_binding(const char *lib);

/*
 * The child's whole job: check that clock_gettime binds into lib, then time the bare counter,
 * libc's own clock_gettime and the interposed one side by side, and print one "key value"
 * line per result on stdout for the parent. Returns the process exit status.
 */
int bench_child_main(const char *mode, const char *lib, int rounds, long iters);

#endif
