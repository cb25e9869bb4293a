/* SPDX-License-Identifier: MIT */
/* libfloor_host.so: a library (not the program) that dlopens a plugin and looks it up by handle, RTLD_DEFAULT, RTLD_NEXT and dlvsym, as libpam does for its modules. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "host_lib.h"

/*
 * Every line printed is glibc's answer, which must not depend on the preload: the script compares
 * the output with a run without it. dlerror() texts are printed verbatim for the same reason.
 */

int floor_host_callback(void)
{
	return FLOOR_HOST_CALLBACK_ANSWER;
}

static const char *last_error(void)
{
	const char *e = dlerror();

	return e ? e : "(no dlerror)";
}

/* Prints what a lookup found: the value of calling it, or NULL and dlerror's text. */
static void show(const char *key, void *p, const char *err)
{
	if (p)
		printf("%s = %d\n", key, ((int (*)(void))p)());
	else
		printf("%s = NULL: %s\n", key, err);
}

int floor_host_run(const char *plugin)
{
	void *h, *p;
	int (*fn)(void);

	dlerror();
	h = dlopen(plugin, RTLD_NOW);
	if (!h) {
		printf("dlopen(RTLD_NOW) failed: %s\n", last_error());
		return 1;
	}
	p = dlsym(h, "floor_plugin_answer");
	show("dlsym(handle, floor_plugin_answer)", p, p ? "" : last_error());
	p = dlvsym(h, "floor_plugin_answer", FLOOR_PLUGIN_NODE);
	show("dlvsym(handle, floor_plugin_answer, " FLOOR_PLUGIN_NODE ")", p, p ? "" : last_error());
	/* Not yet global: RTLD_DEFAULT must not see it. */
	p = dlsym(RTLD_DEFAULT, "floor_plugin_answer");
	show("dlsym(RTLD_DEFAULT, floor_plugin_answer) before RTLD_GLOBAL", p, p ? "" : last_error());
	/* The plugin's own RTLD_NEXT lookups, from inside the plugin while it is still local. */
	*(void **)&fn = dlsym(h, "floor_plugin_call_back");
	printf("plugin: dlsym(RTLD_NEXT, floor_host_callback) = %d\n", fn ? fn() : -2);
	*(void **)&fn = dlsym(h, "floor_plugin_next_clock");
	printf("plugin: dlsym(RTLD_NEXT, clock_gettime) works = %d\n", fn ? fn() : -2);
	/* Failing lookups: NULL, and dlerror's text as glibc words it. */
	p = dlsym(h, "floor_no_such_symbol");
	show("dlsym(handle, floor_no_such_symbol)", p, p ? "" : last_error());
	p = dlvsym(h, "floor_plugin_answer", "FLOOR_PLUGIN_9");
	show("dlvsym(handle, floor_plugin_answer, FLOOR_PLUGIN_9)", p, p ? "" : last_error());
	p = dlsym(RTLD_NEXT, "floor_no_such_symbol");
	show("dlsym(RTLD_NEXT, floor_no_such_symbol)", p, p ? "" : last_error());
	printf("dlerror after a failure was read: %s\n", last_error());

	if (!dlopen(plugin, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)) {
		printf("dlopen(RTLD_GLOBAL | RTLD_NOLOAD) failed: %s\n", last_error());
		return 1;
	}
	p = dlsym(RTLD_DEFAULT, "floor_plugin_answer");
	show("dlsym(RTLD_DEFAULT, floor_plugin_answer) after RTLD_GLOBAL", p, p ? "" : last_error());
	/* This library's own RTLD_NEXT, and RTLD_DEFAULT, of a libc function. */
	p = dlsym(RTLD_NEXT, "getpid");
	printf("dlsym(RTLD_NEXT, getpid) %s\n", p ? "found" : last_error());
	p = dlsym(RTLD_DEFAULT, "getpid");
	printf("dlsym(RTLD_DEFAULT, getpid) %s\n", p ? "found" : last_error());
	return 0;
}
