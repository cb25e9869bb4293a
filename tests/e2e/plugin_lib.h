/* SPDX-License-Identifier: MIT */
/* What the test plugin (plugin_lib.c), dlopen'd RTLD_LOCAL by a probe, finds with RTLD_NEXT, and how it reports the lookups it fails. */
#ifndef FR_E2E_PLUGIN_LIB_H
#define FR_E2E_PLUGIN_LIB_H

/* dlsym(RTLD_NEXT, "clock_gettime"), dlsym(RTLD_NEXT, "__clock_gettime") and dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17"). */
struct plugin_next {
	void *clock_gettime, *private_clock_gettime, *versioned;
};

/* e2e_plugin_next: what the plugin's constructor found, and what the same lookups find now. */
typedef void (*plugin_next_fn)(struct plugin_next *at_ctor, struct plugin_next *now);

/* Called right after each lookup the plugin makes, with what it returned: dlerror() is still the lookup's. */
typedef void (*plugin_report_fn)(const char *what, void *found);

/* e2e_plugin_failures: lookups of the clock names that fail, made from the plugin's own frame. */
typedef void (*plugin_failures_fn)(plugin_report_fn report);

#endif
