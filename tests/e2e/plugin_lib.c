/* SPDX-License-Identifier: MIT */
/* A plugin that probes dlopen RTLD_LOCAL: it looks the clock names up with RTLD_NEXT in its constructor and when asked, and fails lookups from its own frame. */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "arch/arch.h"
#include "plugin_lib.h"

#define EXPORT __attribute__((visibility("default")))

static struct plugin_next at_ctor;

/* Each result is stored, so no call here is a tail call: the loader sees this object as the caller. */
static void look_up(struct plugin_next *out)
{
	out->clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
	out->private_clock_gettime = dlsym(RTLD_NEXT, "__clock_gettime");
	out->versioned = dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17");
}

/* Runs inside dlopen, with the loader's lock held. */
static void __attribute__((constructor)) plugin_ctor(void)
{
	look_up(&at_ctor);
}

EXPORT void e2e_plugin_next(struct plugin_next *ctor, struct plugin_next *now);
EXPORT void e2e_plugin_failures(plugin_report_fn report);

void e2e_plugin_next(struct plugin_next *ctor, struct plugin_next *now)
{
	*ctor = at_ctor;
	look_up(now);
}

void e2e_plugin_failures(plugin_report_fn report)
{
	report("plugin dlvsym(RTLD_NEXT, clock_gettime, BOGUS_1.0)", dlvsym(RTLD_NEXT, "clock_gettime", "BOGUS_1.0"));
	report("plugin dlvsym(RTLD_DEFAULT, clock_gettime, BOGUS_1.0)",
	       dlvsym(RTLD_DEFAULT, "clock_gettime", "BOGUS_1.0"));
	report("plugin dlvsym(RTLD_NEXT, __clock_gettime, BOGUS_1.0)",
	       dlvsym(RTLD_NEXT, "__clock_gettime", "BOGUS_1.0"));
	report("plugin dlsym(RTLD_NEXT, " FR_ARCH_VDSO_CLOCK_GETTIME ")", dlsym(RTLD_NEXT, FR_ARCH_VDSO_CLOCK_GETTIME));
	report("plugin dlsym(RTLD_DEFAULT, " FR_ARCH_VDSO_CLOCK_GETTIME ")", dlsym(RTLD_DEFAULT, FR_ARCH_VDSO_CLOCK_GETTIME));
	report("plugin dlsym(RTLD_NEXT, no_such_symbol)", dlsym(RTLD_NEXT, "fastraw_no_such_symbol"));
}
