/* SPDX-License-Identifier: MIT */
/* Run through the fastraw launcher by its tests: prints its arguments, the environment it got and which clock_gettime it is bound to. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void show(const char *name)
{
	const char *v = getenv(name);

	printf("%s=%s\n", name, v ? v : "(unset)");
}

int main(int argc, char **argv)
{
	static const char *const vars[] = { "LD_PRELOAD", "FASTRAW_TSC", "FASTRAW_DEBUG", "FASTRAW_STATS" };
	/* The symbol the dynamic linker binds first, as every caller in the process gets it. */
	void *fn = dlsym(RTLD_DEFAULT, "clock_gettime");
	long loops = argc > 2 && strcmp(argv[1], "loop") == 0 ? atol(argv[2]) : 1;
	struct timespec ts;
	Dl_info info;
	int ok = 1;

	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		show(vars[i]);
	printf("clock_gettime in %s\n", fn && dladdr(fn, &info) && info.dli_fname ? info.dli_fname : "(unknown)");
	for (long i = 0; i < loops; i++)
		ok &= clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0;
	ok &= clock_gettime(CLOCK_MONOTONIC, &ts) == 0;
	printf("clock_gettime calls %s\n", ok ? "ok" : "failed");
	return ok ? 0 : 1;
}
