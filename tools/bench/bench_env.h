/* SPDX-License-Identifier: MIT */
/* The environments fastraw-bench gives its children: this one, with the preload and FASTRAW_ settings replaced. */
#ifndef BENCH_ENV_H
#define BENCH_ENV_H

/*
 * A copy of this process's environment without LD_PRELOAD and without any FASTRAW_ variable,
 * so that each row measures only what it names; then LD_PRELOAD=preload (unless preload is
 * NULL) and each "NAME=value" of set (a NULL-terminated list, or NULL). NULL when out of memory.
 * The strings are shared with environ or leaked: a child's environment lives as long as the run.
 */
char **bench_env(const char *preload, const char *const *set);

#endif
