/* SPDX-License-Identifier: MIT */
/* Probe: lookups of the clock names (and others) that fail, from the program and from a dlopen'd plugin, each with its dlerror text, to be compared with glibc's alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "plugin_lib.h"

/* One line per lookup: found or not and dlerror's text; a second dlerror must then say nothing. */
static void report(const char *what, void *found)
{
	const char *e = dlerror();

	printf("%s: %s: %s\n", what, found ? "found" : "NULL", e ? e : "no error");
	e = dlerror();
	if (e)
		printf("%s: second dlerror: %s\n", what, e);
}

/* Every clock name and one other, through RTLD_DEFAULT and RTLD_NEXT, unversioned and versioned. */
static void from_program(void)
{
	static const char *const names[] = { "clock_gettime", "__clock_gettime", FR_ARCH_VDSO_CLOCK_GETTIME,
					     "fastraw_no_such_symbol", NULL };
	static const char *const versions[] = { "BOGUS_1.0", "GLIBC_2.17", FR_ARCH_VDSO_VERSION, NULL };
	char what[128];

	for (const char *const *n = names; *n; n++) {
		snprintf(what, sizeof(what), "dlsym(RTLD_DEFAULT, %s)", *n);
		report(what, dlsym(RTLD_DEFAULT, *n));
		snprintf(what, sizeof(what), "dlsym(RTLD_NEXT, %s)", *n);
		report(what, dlsym(RTLD_NEXT, *n));
		for (const char *const *v = versions; *v; v++) {
			snprintf(what, sizeof(what), "dlvsym(RTLD_DEFAULT, %s, %s)", *n, *v);
			report(what, dlvsym(RTLD_DEFAULT, *n, *v));
			snprintf(what, sizeof(what), "dlvsym(RTLD_NEXT, %s, %s)", *n, *v);
			report(what, dlvsym(RTLD_NEXT, *n, *v));
		}
	}
}

/* Handles that lack the name or the version: the vDSO's (only its own symbols) and libc's. */
static void from_handles(void *vdso, void *libc)
{
	report("dlsym(vdso, __clock_gettime)", dlsym(vdso, "__clock_gettime"));
	report("dlvsym(vdso, " FR_ARCH_VDSO_CLOCK_GETTIME ", LINUX_9.9)", dlvsym(vdso, FR_ARCH_VDSO_CLOCK_GETTIME, "LINUX_9.9"));
	report("dlvsym(vdso, clock_gettime, GLIBC_2.17)", dlvsym(vdso, "clock_gettime", "GLIBC_2.17"));
	report("dlsym(libc, " FR_ARCH_VDSO_CLOCK_GETTIME ")", dlsym(libc, FR_ARCH_VDSO_CLOCK_GETTIME));
	report("dlvsym(libc, clock_gettime, GLIBC_9.9)", dlvsym(libc, "clock_gettime", "GLIBC_9.9"));
	report("dlvsym(libc, __clock_gettime, BOGUS_1.0)", dlvsym(libc, "__clock_gettime", "BOGUS_1.0"));
}

/*
 * dlvsym with the empty version, whose hash is 0: glibc's loader would compare it with the NULL
 * name of an unversioned export's version slot. Every name libfastraw exports, by RTLD_DEFAULT,
 * RTLD_NEXT, the program's own handle and libc's, each with dlerror's text.
 */
static int empty_version(void)
{
	static const char *const names[] = { "clock_gettime", "__clock_gettime", "dlsym", "dlvsym", "getauxval",
					     "__getauxval", "syscall", "fastraw_now_ns", "fastraw_info", NULL };
	void *self = dlopen(NULL, RTLD_LAZY), *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	char what[128];

	dlerror();
	for (const char *const *n = names; *n; n++) {
		snprintf(what, sizeof(what), "empty %s default", *n);
		report(what, dlvsym(RTLD_DEFAULT, *n, ""));
		snprintf(what, sizeof(what), "empty %s next", *n);
		report(what, dlvsym(RTLD_NEXT, *n, ""));
		snprintf(what, sizeof(what), "empty %s self", *n);
		report(what, dlvsym(self, *n, ""));
		snprintf(what, sizeof(what), "empty %s libc", *n);
		report(what, dlvsym(libc, *n, ""));
	}
	printf("empty done\n");
	return 0;
}

/* argv[1]: the plugin to load, or "empty": only the empty-version lookups. */
int main(int argc, char **argv)
{
	void *vdso, *libc, *plugin;
	plugin_failures_fn failures;

	if (argc == 2 && strcmp(argv[1], "empty") == 0)
		return empty_version();
	vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	plugin = argc == 2 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
	failures = plugin ? (plugin_failures_fn)dlsym(plugin, "e2e_plugin_failures") : NULL;

	if (!vdso || !libc || !failures) {
		printf("setup failed: vdso %p libc %p plugin %p: %s\n", vdso, libc, plugin, dlerror());
		return 2;
	}
	dlerror();
	from_program();
	from_handles(vdso, libc);
	failures(report);
	/* A successful lookup clears an error nobody read, as every dl call does. */
	dlvsym(RTLD_DEFAULT, "clock_gettime", "BOGUS_1.0");
	report("dlsym(RTLD_DEFAULT, clock_gettime) after an unread error", dlsym(RTLD_DEFAULT, "clock_gettime"));
	dlsym(RTLD_DEFAULT, FR_ARCH_VDSO_CLOCK_GETTIME);
	report("dlvsym(RTLD_NEXT, clock_gettime, GLIBC_2.17) after an unread error",
	       dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17"));
	return 0;
}
