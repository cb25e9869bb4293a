/* SPDX-License-Identifier: MIT */
/* Probe: clock_gettime found through dlsym, dlvsym, the vDSO's handle and a parse of AT_SYSINFO_EHDR, and what must stay unchanged. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpu_test.h"
#include "arch/arch.h"
#include "elfwalk.h"
#include "lookup_common.h"
#include "probe.h"

/*
 * The vDSO's names (the kernel's vdso.lds.S): x86-64 exports __vdso_* and an alias without the
 * prefix for each, also time and getcpu; arm64 exports __kernel_* alone, no time, no getcpu.
 */
#define VDSO_NAME(fn) FRT_VDSO_NAME(fn)
#define VDSO_ALIASES FRT_HAS_VDSO_ALIASES
#define VDSO_TIME_GETCPU FRT_HAS_VDSO_TIME_GETCPU
#define VDSO_V FR_ARCH_VDSO_VERSION

/* The kernel's gettimeofday and 32-bit clock_getres answer in {long, long} pairs (its old timeval
   and old timespec), whatever time_t the program has. */
struct old_pair {
	long sec;
	long frac;
};

typedef int (*tod_fn)(struct old_pair *tv, void *tz);
typedef int (*res_fn)(clockid_t clk, struct old_pair *ts);
typedef long (*time_fn)(long *t);
typedef long (*getcpu_fn)(unsigned *cpu, unsigned *node, void *cache);

static struct e2e_tally tally;
static int conv_failures, other_failures;
static uintptr_t vdso_lo, vdso_hi;
/* Whether the kernel's image exports FR_ARCH_VDSO_CLOCK_GETTIME: 32-bit ARM's before 5.5 has only
   its 32-bit-time __vdso_clock_gettime. */
static int vdso_main;

/* Calibrated mode (FR_E2E_EXPECT=calibrated: a kernel with no RAW data) promises RAW within
   2 us of the kernel's, not inside its bracket: its answers get that much slack. */
#define CALIBRATED_BOUND_NS 2000

static int64_t raw_slack_ns(void)
{
	const char *v = getenv("FR_E2E_EXPECT");

	return v && strcmp(v, "calibrated") == 0 ? CALIBRATED_BOUND_NS : 0;
}

/* Reads RAW through p, libc's clock_gettime or __clock_gettime (e2e_as_entry32), bracketed by
   the kernel, and says where p lives. */
static void check_raw(const char *key, void *p)
{
	lookup_check_raw_as(&tally, key, p, e2e_as_entry32(p), raw_slack_ns());
}

#if __SIZEOF_LONG__ == 4
/* The same for p, glibc's __clock_gettime64 (a 32-bit CPU's, glibc 2.34+). */
static void check_raw64(const char *key, void *p)
{
	lookup_check_raw_as(&tally, key, p, e2e_as_entry64(p), raw_slack_ns());
}
#endif

static int in_vdso(const void *p)
{
	return (uintptr_t)p >= vdso_lo && (uintptr_t)p < vdso_hi;
}

/* A vDSO-convention function: 0 or -errno returned, errno never touched. p is the vDSO's
   FR_ARCH_VDSO_CLOCK_GETTIME (64-bit time), or where narrow its 32-bit-time one. The kernel's
   own code would write through NULL: only ours promises EFAULT. */
static void check_vdso_convention_as(const char *key, void *p, int narrow)
{
	e2e_clock_fn fn = narrow ? e2e_as_entry32(p) : e2e_as_entry64(p);

	lookup_check_raw_as(&tally, key, p, fn, raw_slack_ns());
	/* fn still calls p: nothing since has named another entry of the other width. */
	conv_failures += !lookup_convention(key, fn, 1, !in_vdso(p));
}

static void check_vdso_convention(const char *key, void *p)
{
	check_vdso_convention_as(key, p, 0);
}

static void find_vdso_mapping(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]"))
			sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &vdso_lo, &vdso_hi);
	if (f)
		fclose(f);
}

static void other_fail(const char *what)
{
	other_failures++;
	printf("FAIL %s\n", what);
}

/* Whether the kernel's own image (not a copy) exports name. */
static int kernel_exports(const char *name)
{
	struct elfwalk k;
	const char *why;

	return elfwalk_open((const void *)vdso_lo, &k, &why) == 0 && elfwalk_sym(&k, k.gnu != NULL, name, VDSO_V);
}

/* A clock name the kernel's image lacks: its lookups through the vDSO's handle fail as they do
   without the library, NULL and a dlerror text that names it. */
static void check_absent(void *vdso, const char *name)
{
	const char *err;

	dlerror();
	if (dlsym(vdso, name) || !(err = dlerror()) || !strstr(err, name))
		other_fail("dlsym of a name the kernel's vDSO lacks");
	if (dlvsym(vdso, name, VDSO_V) || !(err = dlerror()) || !strstr(err, name))
		other_fail("dlvsym of a name the kernel's vDSO lacks");
}

/* The image's other functions are the kernel's own and answer as the system calls do. A function
   the kernel's image lacks (clock_getres joined the x86 vDSO in 5.3) must be missing here too. */
static void check_others(const struct elfwalk *w, int gnu)
{
	tod_fn tod = (tod_fn)elfwalk_sym(w, gnu, VDSO_NAME("gettimeofday"), VDSO_V);
	res_fn res = (res_fn)elfwalk_sym(w, gnu, VDSO_NAME("clock_getres"), VDSO_V);
	struct old_pair a, m, b, r1, r2;

	if (!res && kernel_exports(VDSO_NAME("clock_getres")))
		res = (res_fn)-1; /* missing where the kernel has it: fails below */
	if (!tod || !in_vdso((void *)tod) || (res && !in_vdso((void *)res))) {
		other_fail("gettimeofday or clock_getres missing or outside [vdso]");
		return;
	}
	syscall(SYS_gettimeofday, &a, NULL);
	tod(&m, NULL);
	syscall(SYS_gettimeofday, &b, NULL);
	if (a.sec > m.sec || (a.sec == m.sec && a.frac > m.frac) || m.sec > b.sec ||
	    (m.sec == b.sec && m.frac > b.frac))
		other_fail("the vDSO's gettimeofday outside the kernel's bracket");
#if VDSO_TIME_GETCPU
	time_fn tm = (time_fn)elfwalk_sym(w, gnu, VDSO_NAME("time"), VDSO_V);
	getcpu_fn gc = (getcpu_fn)elfwalk_sym(w, gnu, VDSO_NAME("getcpu"), VDSO_V);
	long ta, tmv, tb;
	unsigned c1, n1, c2, n2, c3, n3;
	int ok = 0;

	if (!tm || !gc || !in_vdso((void *)tm) || !in_vdso((void *)gc)) {
		other_fail("time or getcpu missing or outside [vdso]");
		return;
	}
	ta = syscall(SYS_time, NULL);
	tmv = tm(NULL);
	tb = syscall(SYS_time, NULL);
	if (tmv < ta || tmv > tb)
		other_fail("__vdso_time outside the kernel's bracket");
	/* The thread may move between CPUs: agreement on one of a few tries is enough. */
	for (int i = 0; i < 100 && !ok; i++) {
		syscall(SYS_getcpu, &c1, &n1, NULL);
		gc(&c2, &n2, NULL);
		syscall(SYS_getcpu, &c3, &n3, NULL);
		ok = c1 == c3 && c2 == c1 && n2 == n1 && n3 == n1;
	}
	if (!ok)
		other_fail("__vdso_getcpu disagrees with getcpu");
#endif
	for (clockid_t c = 0; res && c <= CLOCK_BOOTTIME; c++) {
		if (res(c, &r1) != 0 || syscall(SYS_clock_getres, c, &r2) != 0 || r1.sec != r2.sec ||
		    r1.frac != r2.frac)
			other_fail("the vDSO's clock_getres disagrees with clock_getres");
	}
}

/* What a program parsing the image at getauxval(AT_SYSINFO_EHDR) finds, through both hash tables. */
static void check_parsed(void)
{
	const void *ehdr = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct elfwalk w, k;
	const char *why;

	printf("ehdr_is_real=%d\n", (uintptr_t)ehdr == vdso_lo);
	printf("ehdr_kernel_matches_maps=%d\n", lookup_kernel_auxv(AT_SYSINFO_EHDR) == vdso_lo);
	if (elfwalk_open(ehdr, &w, &why) != 0) {
		printf("walk=%s\n", why);
		return;
	}
	printf("walk=ok\nhash_tables=%d\nnotes=%d\nlinux_note=%d\n", !!w.gnu + !!w.sysv, w.notes, w.linux_note);
	/* The kernel's own image, for comparison: what a copy of it must hold. */
	if (elfwalk_open((const void *)vdso_lo, &k, &why) == 0)
		printf("kernel_hash_tables=%d\nkernel_gnu=%d\nkernel_sysv=%d\n", !!k.gnu + !!k.sysv, !!k.gnu, !!k.sysv);
	for (int gnu = 0; gnu <= 1; gnu++) {
		char key[32];

		snprintf(key, sizeof(key), "parsed_%s", gnu ? "gnu" : "sysv");
		if ((gnu ? w.gnu : w.sysv) == NULL)
			continue;
		if (vdso_main)
			check_vdso_convention(key, elfwalk_sym(&w, gnu, FR_ARCH_VDSO_CLOCK_GETTIME, VDSO_V));
		else if (elfwalk_sym(&w, gnu, FR_ARCH_VDSO_CLOCK_GETTIME, VDSO_V))
			other_fail("the parsed image has a name the kernel's lacks");
#if VDSO_ALIASES
		snprintf(key, sizeof(key), "parsed_alias_%s", gnu ? "gnu" : "sysv");
		check_vdso_convention(key, elfwalk_sym(&w, gnu, "clock_gettime", VDSO_V));
#endif
#ifdef FR_ARCH_VDSO_CLOCK_GETTIME32
		snprintf(key, sizeof(key), "parsed32_%s", gnu ? "gnu" : "sysv");
		check_vdso_convention_as(key, elfwalk_sym(&w, gnu, FR_ARCH_VDSO_CLOCK_GETTIME32, VDSO_V), 1);
#endif
		if (elfwalk_sym(&w, gnu, FR_ARCH_VDSO_CLOCK_GETTIME, "LINUX_9.9"))
			other_fail("a wrong version matched");
		check_others(&w, gnu);
	}
}

/* Lookups of other names and other auxiliary-vector types are libc's, unchanged. */
static void check_unchanged(void)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	static const unsigned long types[] = { AT_PAGESZ, AT_HWCAP, AT_RANDOM, AT_SECURE, AT_PHDR };
	int auxv_failures = 0, libc_errno;
	unsigned long libc_missing;
	/* dlsym is only redirected for clock names: this is libc's own getauxval. */
	unsigned long (*libc_getauxval)(unsigned long) = (unsigned long (*)(unsigned long))dlsym(libc, "getauxval");

	printf("getauxval_is_libcs=%d\n", libc_getauxval && strstr(lookup_where((void *)libc_getauxval), "libc.so.6") != NULL);
	printf("getpid_from=%s\n", lookup_where(dlsym(RTLD_DEFAULT, "getpid")));
	printf("getpid_next_from=%s\n", lookup_where(dlsym(RTLD_NEXT, "getpid")));
	printf("getpid_handle_same=%d\n", libc && dlsym(libc, "getpid") == dlsym(RTLD_DEFAULT, "getpid"));
	dlerror();
	printf("missing_null=%d\n", dlsym(RTLD_DEFAULT, "fastraw_no_such_symbol") == NULL);
	printf("missing_dlerror=%d\n", dlerror() != NULL);
	printf("missing_v_null=%d\n", libc && dlvsym(libc, "clock_gettime", "GLIBC_9.9") == NULL);
	printf("missing_v_dlerror=%d\n", dlerror() != NULL);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		/* glibc reports its own idea of AT_HWCAP: only the other types are the kernel's verbatim. */
		int kernel_differs = types[i] != AT_HWCAP && getauxval(types[i]) != lookup_kernel_auxv(types[i]);

		if (!libc_getauxval || getauxval(types[i]) != libc_getauxval(types[i]) || kernel_differs) {
			auxv_failures++;
			printf("FAIL getauxval(%lu)\n", types[i]);
		}
	}
	/* A missing type: 0, and errno as libc's own sets it (ENOENT since glibc 2.19, untouched before). */
	errno = 0;
	libc_missing = libc_getauxval ? libc_getauxval(12345) : 1;
	libc_errno = errno;
	errno = 0;
	if (getauxval(12345) != 0 || libc_missing != 0 || errno != libc_errno) {
		auxv_failures++;
		printf("FAIL getauxval of a missing type\n");
	}
	printf("auxv_failures=%d\n", auxv_failures);
}

int main(void)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	void *vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);

	find_vdso_mapping();
	if (!libc || !vdso || !vdso_lo) {
		printf("setup failed: libc %p vdso %p [vdso] %#" PRIxPTR "\n", libc, vdso, vdso_lo);
		return 2;
	}
	check_raw("default", dlsym(RTLD_DEFAULT, "clock_gettime"));
	check_raw("default_private", dlsym(RTLD_DEFAULT, "__clock_gettime"));
	check_raw("next", dlsym(RTLD_NEXT, "clock_gettime"));
	check_raw("next_private", dlsym(RTLD_NEXT, "__clock_gettime"));
	check_raw("handle", dlsym(libc, "clock_gettime"));
	check_raw("handle_private", dlsym(libc, "__clock_gettime"));
	check_raw("handle_versioned", dlvsym(libc, "clock_gettime", "GLIBC_2.17"));
	check_raw("next_versioned", dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17"));
	vdso_main = kernel_exports(FR_ARCH_VDSO_CLOCK_GETTIME);
	printf("vdso_main=%d\n", vdso_main);
	if (vdso_main) {
		check_vdso_convention("vdso_dlsym", dlsym(vdso, FR_ARCH_VDSO_CLOCK_GETTIME));
		check_vdso_convention("vdso_dlvsym", dlvsym(vdso, FR_ARCH_VDSO_CLOCK_GETTIME, VDSO_V));
	} else {
		check_absent(vdso, FR_ARCH_VDSO_CLOCK_GETTIME);
	}
#if VDSO_ALIASES
	check_vdso_convention("vdso_alias", dlsym(vdso, "clock_gettime"));
#endif
	printf("time64=%d\n", E2E_TIME64);
#if __SIZEOF_LONG__ == 4
	/* What a program with a 64-bit time_t looks up on a 32-bit CPU: glibc's __clock_gettime64
	   (GLIBC_2.34; not in older glibcs, whose lookups then find nothing). */
	check_raw64("default64", dlsym(RTLD_DEFAULT, "__clock_gettime64"));
	check_raw64("next64", dlsym(RTLD_NEXT, "__clock_gettime64"));
	check_raw64("handle64", dlsym(libc, "__clock_gettime64"));
	check_raw64("handle_versioned64", dlvsym(libc, "__clock_gettime64", "GLIBC_2.34"));
#endif
#ifdef FR_ARCH_VDSO_CLOCK_GETTIME32
	/* The vDSO's 32-bit-time function beside it (32-bit ARM's __vdso_clock_gettime). */
	printf("vdso32_ways=1\n");
	check_vdso_convention_as("vdso_dlsym32", dlsym(vdso, FR_ARCH_VDSO_CLOCK_GETTIME32), 1);
	check_vdso_convention_as("vdso_dlvsym32", dlvsym(vdso, FR_ARCH_VDSO_CLOCK_GETTIME32, VDSO_V), 1);
#endif
	check_parsed();
	check_unchanged();
	e2e_tally_print("", &tally);
	printf("conv_failures=%d\nother_failures=%d\n", conv_failures, other_failures);
	return 0;
}
