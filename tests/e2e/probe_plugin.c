/* SPDX-License-Identifier: MIT */
/* Probe: what a dlopen'd RTLD_LOCAL plugin (plugin_lib.c) gets from RTLD_NEXT for the clock names, in its constructor and after, and RAW through each; and the program's own RTLD_NEXT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "plugin_lib.h"
#include "probe.h"

#define SAMPLES 5000

static struct e2e_tally tally;

static const char *where(const void *p)
{
	Dl_info info;

	if (!p || !dladdr(p, &info) || !info.dli_fname)
		return "?";
	return info.dli_fname;
}

/* Where p lives, whether it is libfastraw's clock_gettime, and RAW through it, bracketed by the kernel. */
static void check(const char *key, void *p, void *ours)
{
	struct e2e_tally t = { 0 };

	printf("served_%s=%s\n", key, where(p));
	printf("ours_%s=%d\n", key, ours && p == ours);
	if (!p)
		return;
	for (int i = 0; i < SAMPLES; i++)
		e2e_bracket(&t, (e2e_clock_fn)p, CLOCK_MONOTONIC_RAW);
	e2e_tally_add(&tally, &t);
}

int main(int argc, char **argv)
{
	/* libfastraw's own clock_gettime, through its handle (found by its soname), when it is loaded. */
	void *self = dlopen("libfastraw.so.0", RTLD_LAZY | RTLD_NOLOAD);
	void *ours = self ? dlsym(self, "clock_gettime") : NULL;
	void *plugin = argc == 2 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
	plugin_next_fn next_of = plugin ? (plugin_next_fn)dlsym(plugin, "e2e_plugin_next") : NULL;
	struct plugin_next ctor, now;

	if (!next_of) {
		printf("setup failed: plugin %p: %s\n", plugin, dlerror());
		return 2;
	}
	next_of(&ctor, &now);
	printf("served_program=%s\n", where(dlsym(RTLD_DEFAULT, "clock_gettime")));
	/* The program's own RTLD_NEXT: the first definition after it, whoever's. */
	printf("program_next=%s\n", where(dlsym(RTLD_NEXT, "clock_gettime")));
	printf("program_next_versioned=%s\n", where(dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17")));
	check("ctor_next", ctor.clock_gettime, ours);
	check("ctor_next_private", ctor.private_clock_gettime, ours);
	check("ctor_next_versioned", ctor.versioned, ours);
	check("next", now.clock_gettime, ours);
	check("next_private", now.private_clock_gettime, ours);
	check("next_versioned", now.versioned, ours);
	e2e_tally_print("", &tally);
	return 0;
}
