/* SPDX-License-Identifier: MIT */
/* Probe: after the program unmaps its [vdso], or makes it PROT_NONE, every lookup of clock_gettime and getauxval still answers, as libc's would. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probe.h"

/*
 * Prints where p lives (KEY_served=FILE) and, when that is libfastraw, whether RAW through it
 * lies between two kernel reads (KEY_raw_ok). libc's own would call into the vDSO, which is gone:
 * it is named, never called.
 */
static void report(const char *key, void *p)
{
	Dl_info info;
	const char *file = p && dladdr(p, &info) && info.dli_fname ? info.dli_fname : "?";
	struct e2e_tally t;

	printf("%s_served=%s\n", key, p ? file : "(null)");
	if (!p || !strstr(file, "libfastraw"))
		return;
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < 5; i++)
		e2e_bracket(&t, (e2e_clock_fn)p, CLOCK_MONOTONIC_RAW);
	printf("%s_raw_ok=%d\n", key, t.samples == 5 && t.violations == 0);
}

/*
 * argv[1]: unmap (munmap the whole [vdso]) or none (mprotect it PROT_NONE); the kernel refuses to
 * split the mapping, so it goes whole. Nothing looks the vDSO up before: the library's first
 * getauxval of AT_SYSINFO_EHDR, which builds the shadow when asked for, comes after.
 */
int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "unmap";
	unsigned long kernel = e2e_kernel_ehdr(), ehdr;
	uintptr_t lo, hi;
	int rc;

	if (!kernel || e2e_maps_vdso(&lo, &hi) != 0 || lo != kernel) {
		printf("error=no [vdso] at the kernel's AT_SYSINFO_EHDR (%lx)\n", kernel);
		return 2;
	}
	if (strcmp(mode, "none") == 0)
		rc = mprotect((void *)lo, hi - lo, PROT_NONE);
	else
		rc = munmap((void *)lo, hi - lo);
	if (rc != 0) {
		printf("error=%s failed: errno %d\n", mode, errno);
		return 2;
	}
	fflush(stdout);

	report("default", dlsym(RTLD_DEFAULT, "clock_gettime"));
	report("default_under", dlsym(RTLD_DEFAULT, "__clock_gettime"));
	report("next", dlsym(RTLD_NEXT, "clock_gettime"));
	report("vdefault", dlvsym(RTLD_DEFAULT, "clock_gettime", "GLIBC_2.17"));
	report("vnext", dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17"));
	fflush(stdout);

	ehdr = getauxval(AT_SYSINFO_EHDR);
	printf("ehdr_is_kernel=%d\n", ehdr == kernel);
	printf("second_ehdr_same=%d\n", getauxval(AT_SYSINFO_EHDR) == ehdr);
	errno = 1234;
	getauxval(AT_SYSINFO_EHDR);
	printf("errno_kept=%d\n", errno == 1234);
	/* Served by the library, RAW reads its data pages, which are still mapped. */
	report("call", (void *)clock_gettime);
	printf("done=1\n");
	return 0;
}
