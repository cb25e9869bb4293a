/* SPDX-License-Identifier: MIT */
/* Lookups by RTLD_NEXT of the clock names, made from the object that includes this: what each found and dlerror's text. */
#ifndef FR_E2E_NEXTPOS_H
#define FR_E2E_NEXTPOS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdio.h>

static void nextpos_show(const char *pos, const char *what, void *p)
{
	const char *e = dlerror();

	printf("%s %s found=%d dlerror=%s\n", pos, what, p != NULL, e ? e : "(none)");
}

/*
 * Static in each object, so that glibc reads the caller's position from this object's code: the
 * names libc defines, the vDSO's (outside the global scope) and one no object defines.
 */
static __attribute__((noinline, unused)) void nextpos_lookups(const char *pos)
{
	dlerror();
	nextpos_show(pos, "dlsym(clock_gettime)", dlsym(RTLD_NEXT, "clock_gettime"));
	nextpos_show(pos, "dlsym(__clock_gettime)", dlsym(RTLD_NEXT, "__clock_gettime"));
	nextpos_show(pos, "dlsym(__vdso_clock_gettime)", dlsym(RTLD_NEXT, "__vdso_clock_gettime"));
	nextpos_show(pos, "dlsym(fr_nextpos_none)", dlsym(RTLD_NEXT, "fr_nextpos_none"));
	nextpos_show(pos, "dlvsym(clock_gettime@GLIBC_2.17)", dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17"));
	nextpos_show(pos, "dlvsym(clock_gettime@FR_NONE)", dlvsym(RTLD_NEXT, "clock_gettime", "FR_NONE"));
}

#endif
