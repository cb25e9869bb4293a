/* SPDX-License-Identifier: MIT */
/* Run through the fastraw launcher by its tests: prints its arguments, the environment it got and which clock_gettime it is bound to; or runs a program with names listed twice in its environment. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void show(const char *name)
{
	const char *v = getenv(name);

	printf("%s=%s\n", name, v ? v : "(unset)");
}

/*
 * --execve NAME=VALUE... -- PROGRAM [ARG...]: runs PROGRAM with this environment plus the
 * entries given, appended as they are, so that a name may appear twice (no shell or env(1) can
 * pass that; an execve can).
 */
static int execve_with(int argc, char **argv)
{
	int n = 0, extra = 0, i = 2;
	char **env;

	while (i < argc && strcmp(argv[i], "--") != 0)
		i++, extra++;
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: launcher-probe --execve NAME=VALUE... -- PROGRAM [ARG...]\n");
		return 2;
	}
	while (environ[n])
		n++;
	env = calloc((size_t)(n + extra + 1), sizeof(*env));
	if (!env)
		return 2;
	memcpy(env, environ, (size_t)n * sizeof(*env));
	memcpy(env + n, argv + 2, (size_t)extra * sizeof(*env));
	execve(argv[i + 1], argv + i + 1, env);
	perror(argv[i + 1]);
	return 127;
}

/* How many entries of the environment set name: the loader and getenv may each read another. */
static int copies(const char *name)
{
	size_t len = strlen(name);
	int n = 0;

	for (char **e = environ; *e; e++)
		n += strncmp(*e, name, len) == 0 && (*e)[len] == '=';
	return n;
}

int main(int argc, char **argv)
{
	static const char *const vars[] = { "LD_PRELOAD", "FASTRAW_TSC", "FASTRAW_DEBUG", "FASTRAW_STATS", "FASTRAW_CLOCKS" };
	/* The symbol the dynamic linker binds first, as every caller in the process gets it. */
	void *fn = dlsym(RTLD_DEFAULT, "clock_gettime");
	long loops = argc > 2 && strcmp(argv[1], "loop") == 0 ? atol(argv[2]) : 1;
	struct timespec ts;
	Dl_info info;
	int ok = 1;

	if (argc > 1 && strcmp(argv[1], "--execve") == 0)
		return execve_with(argc, argv);
	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		show(vars[i]);
	printf("LD_PRELOAD entries=%d\n", copies("LD_PRELOAD"));
	printf("clock_gettime in %s\n", fn && dladdr(fn, &info) && info.dli_fname ? info.dli_fname : "(unknown)");
	for (long i = 0; i < loops; i++)
		ok &= clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0;
	ok &= clock_gettime(CLOCK_MONOTONIC, &ts) == 0;
	printf("clock_gettime calls %s\n", ok ? "ok" : "failed");
	return ok ? 0 : 1;
}
