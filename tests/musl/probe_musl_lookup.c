/* SPDX-License-Identifier: MIT */
/* Probe, built with musl-gcc: the lookups musl has (dlsym, getauxval and a parse of AT_SYSINFO_EHDR) lead to the library, dlvsym stays absent, other lookups stay musl's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>

#include "arch/arch.h"
#include "elfwalk.h"
#include "fastraw.h"
#include "lookup_common.h"
#include "probe.h"

/* Calibrated mode promises RAW within 2 us of the kernel's, not inside its bracket: its answers
   get that much slack, as probe_lookup's and probe_loop's do. */
#define CALIBRATED_BOUND_NS 2000

static struct e2e_tally tally;
static int conv_failures, auxv_failures;
/* Whether a NULL timespec is tried: musl's own clock_gettime writes through it (SIGSEGV). */
static int try_null = 1;

/* Reads RAW through p bracketed by the kernel, and says where p lives. */
static void check_raw(const char *key, void *p)
{
	lookup_check_raw(&tally, key, p, 0);
}

/* libc's calling convention, with a NULL timespec where try_null. */
static void check_libc_convention(const char *key, void *p)
{
	check_raw(key, p);
	conv_failures += !lookup_convention(key, (e2e_clock_fn)p, 0, try_null);
}

/* The vDSO's calling convention, without a NULL timespec. */
static void check_vdso_convention(const char *key, void *p)
{
	check_raw(key, p);
	conv_failures += !lookup_convention(key, (e2e_clock_fn)p, 1, 0);
}

/* The image getauxval gives, parsed with the tests' own reader: both tables lead to one function. */
static void check_parsed(void)
{
	unsigned long ehdr = getauxval(AT_SYSINFO_EHDR);
	const char *why = NULL;
	struct elfwalk w;

	printf("ehdr_is_real=%d\n", ehdr == lookup_kernel_auxv(AT_SYSINFO_EHDR));
	if (!ehdr || elfwalk_open((const void *)ehdr, &w, &why) != 0) {
		printf("walk=%s\n", why ? why : "no AT_SYSINFO_EHDR");
		return;
	}
	printf("walk=ok\n");
	for (int gnu = 0; gnu <= 1; gnu++)
		if (gnu ? w.gnu != NULL : w.sysv != NULL)
			check_vdso_convention(gnu ? "parsed_gnu" : "parsed_sysv",
					      elfwalk_sym(&w, gnu, FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION));
}

/* Other names and other auxiliary-vector types are musl's, unchanged. */
static void check_unchanged(void *libc)
{
	static const unsigned long types[] = { AT_PAGESZ, AT_RANDOM, AT_SECURE, AT_PHDR, AT_BASE };

	printf("getpid_same=%d\n", dlsym(RTLD_DEFAULT, "getpid") == dlsym(libc, "getpid"));
	printf("getpid_from=%s\n", lookup_where(dlsym(RTLD_DEFAULT, "getpid")));
	printf("libc_is=%s\n", lookup_where(dlsym(libc, "getpid")));
	dlerror();
	printf("missing_null=%d\n", dlsym(RTLD_DEFAULT, "fastraw_no_such_symbol") == NULL);
	printf("missing_dlerror=%d\n", dlerror() != NULL);
	/* musl has no dlvsym: a lookup of it finds nothing, with us or without. */
	printf("dlvsym_default_null=%d\n", dlsym(RTLD_DEFAULT, "dlvsym") == NULL);
	printf("dlvsym_next_null=%d\n", dlsym(RTLD_NEXT, "dlvsym") == NULL);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (getauxval(types[i]) != lookup_kernel_auxv(types[i])) {
			auxv_failures++;
			printf("FAIL getauxval(%lu)\n", types[i]);
		}
	errno = 0;
	if (getauxval(12345) != 0 || errno != ENOENT) {
		auxv_failures++;
		printf("FAIL getauxval of a missing type\n");
	}
}

/*
 * Where the library, initialised in this process, takes RAW from (fastraw_info's source:
 * "kernel", "calibrated" or "none"), printed as source=; "?" when it cannot say.
 */
static const char *served_source(void *h)
{
	int (*info)(struct fastraw_info *) = (int (*)(struct fastraw_info *))dlsym(h, "fastraw_info");
	struct fastraw_info in = { .size = sizeof(in) };
	const char *src = info && info(&in) == 0 && in.size == sizeof(in) && in.source ? in.source : "?";

	printf("source=%s\n", src);
	return src;
}

/*
 * Run without the preload: unmaps the [vdso] (mode "unmap") or makes it PROT_NONE ("none"), then
 * dlopens the library, whose constructor must not read the image, and reads RAW through its
 * clock_gettime (the handle's: no dladdr, which musl's own would fault in); its getauxval gives
 * the kernel's address (no shadow to build from a gone image). With no vDSO to check its data
 * pages against, the library starts in calibrated mode where that is eligible: its answers are
 * held to calibrated mode's bound, the others to the kernel's bracket.
 */
static int vdso_gone(const char *mode, const char *lib)
{
	unsigned long kernel = lookup_kernel_auxv(AT_SYSINFO_EHDR);
	unsigned long (*aux)(unsigned long);
	struct timespec first;
	e2e_clock_fn fn;
	uintptr_t lo, hi;
	void *h;

	if (!kernel || e2e_maps_vdso(&lo, &hi) != 0 ||
	    (strcmp(mode, "none") == 0 ? mprotect((void *)lo, hi - lo, PROT_NONE) : munmap((void *)lo, hi - lo)) != 0) {
		printf("setup failed: no [vdso] to %s (errno %d)\n", mode, errno);
		return 2;
	}
	fflush(stdout);
	h = dlopen(lib, RTLD_NOW);
	printf("dlopen_ok=%d\n", h != NULL);
	if (!h)
		return 0;
	/* Not check_raw: musl's own dladdr reads every object's program headers, the vDSO's too. */
	fn = (e2e_clock_fn)dlsym(h, "clock_gettime");
	printf("dlopened_found=%d\n", fn != NULL);
	/* The first RAW call initialises the library: after it, fastraw_info says what serves RAW. */
	if (fn && fn(CLOCK_MONOTONIC_RAW, &first) == 0 && strcmp(served_source(h), "calibrated") == 0)
		tally.slack_ns = CALIBRATED_BOUND_NS;
	for (int i = 0; fn && i < LOOKUP_SAMPLES; i++)
		e2e_bracket(&tally, fn, CLOCK_MONOTONIC_RAW);
	aux = (unsigned long (*)(unsigned long))dlsym(h, "getauxval");
	printf("ehdr_is_kernel=%d\n", aux && aux(AT_SYSINFO_EHDR) == kernel);
	e2e_tally_print("", &tally);
	return 0;
}

/*
 * probe_musl_lookup [--no-null]: --no-null for a run without the library.
 * probe_musl_lookup --vdso-gone MODE LIB: vdso_gone.
 */
int main(int argc, char **argv)
{
	/* musl's loader knows itself by this name, whatever its file is called. */
	void *libc = dlopen("libc.so", RTLD_LAZY | RTLD_NOLOAD);

	if (argc > 3 && strcmp(argv[1], "--vdso-gone") == 0)
		return vdso_gone(argv[2], argv[3]);
	try_null = !(argc > 1 && strcmp(argv[1], "--no-null") == 0);

	if (!libc) {
		printf("setup failed: no handle of libc.so\n");
		return 2;
	}
	check_libc_convention("default", dlsym(RTLD_DEFAULT, "clock_gettime"));
	check_libc_convention("next", dlsym(RTLD_NEXT, "clock_gettime"));
	check_libc_convention("handle", dlsym(libc, "clock_gettime"));
	check_libc_convention("direct", (void *)clock_gettime);
	check_parsed();
	check_unchanged(libc);
	e2e_tally_print("", &tally);
	printf("conv_failures=%d\nauxv_failures=%d\n", conv_failures, auxv_failures);
	return 0;
}
