/* SPDX-License-Identifier: MIT */
/* The environments fastraw-bench gives its children. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_env.h"

extern char **environ;

char **bench_env(const char *preload, const char *const *set)
{
	size_t n = 0, nset = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	while (set && set[nset])
		nset++;
	env = calloc(n + nset + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0 && strncmp(environ[i], "FASTRAW_", 8) != 0)
			env[k++] = environ[i];
	if (preload && asprintf(&env[k++], "LD_PRELOAD=%s", preload) < 0) {
		free(env);
		return NULL;
	}
	for (size_t i = 0; i < nset; i++)
		env[k++] = (char *)set[i];
	return env;
}
