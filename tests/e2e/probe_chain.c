/* SPDX-License-Identifier: MIT */
/* Probe: which interposer each clock, lookup and system call reaches, with the test interposer (chain_lib.c) preloaded beside libfastraw. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "chain_lib.h"
#include "probe.h"

#define SAMPLES 20000

static chain_counts_fn counts_of;

static const char *where(const void *p)
{
	Dl_info info;

	if (!p || !dladdr(p, &info) || !info.dli_fname)
		return "?";
	return info.dli_fname;
}

static struct chain_counts now(void)
{
	struct chain_counts c;

	counts_of(&c);
	return c;
}

/* REALTIME through fn minus the kernel's, in whole seconds: the interposers' shift. */
static long realtime_shift(e2e_clock_fn fn)
{
	struct timespec k, m;

	k_clock_gettime(CLOCK_REALTIME, &k);
	if (!fn || fn(CLOCK_REALTIME, &m) != 0)
		return -1;
	return (long)((ts_ns(&m) - ts_ns(&k) + 500000000) / 1000000000);
}

int main(void)
{
	struct chain_counts a, b;
	struct e2e_tally t = { 0 };
	chain_next_clock_fn next_clock;
	void *plain, *versioned;
	e2e_clock_fn found;
	long pid;

	counts_of = (chain_counts_fn)dlsym(RTLD_DEFAULT, "e2e_chain_counts");
	if (!counts_of) {
		printf("setup failed: the test interposer is not loaded\n");
		return 2;
	}
	printf("clock_gettime_from=%s\n", where(dlsym(RTLD_DEFAULT, E2E_CLOCK_GETTIME)));
	next_clock = (chain_next_clock_fn)dlsym(RTLD_DEFAULT, "e2e_chain_next_clock");
	if (next_clock) {
		next_clock(&plain, &versioned);
		printf("interposer_next_from=%s\n", where(plain));
		printf("interposer_next_versioned_from=%s\n", where(versioned));
	}

	a = now();
	printf("realtime_shift=%ld\n", realtime_shift(clock_gettime));
	b = now();
	printf("realtime_seen=%ld\n", b.clock_gettime - a.clock_gettime);

	a = now();
	found = (e2e_clock_fn)dlsym(RTLD_DEFAULT, E2E_CLOCK_GETTIME);
	b = now();
	printf("dlsym_clock_seen=%ld\n", b.dlsym - a.dlsym);
	printf("found_realtime_shift=%ld\n", realtime_shift(found));

	a = now();
	printf("dlsym_getpid_ok=%d\n", dlsym(RTLD_DEFAULT, "getpid") == (void *)getpid);
	b = now();
	printf("dlsym_getpid_seen=%ld\n", b.dlsym - a.dlsym);

	a = now();
	printf("getauxval_ok=%d\n", getauxval(AT_PAGESZ) == (unsigned long)sysconf(_SC_PAGESIZE));
	b = now();
	printf("getauxval_seen=%ld\n", b.getauxval - a.getauxval);

	a = now();
	pid = syscall(SYS_getpid);
	b = now();
	printf("syscall_ok=%d\n", pid == (long)getpid());
	printf("syscall_seen=%ld\n", b.syscall - a.syscall);

	a = now();
	for (int i = 0; i < SAMPLES; i++)
		e2e_bracket(&t, clock_gettime, CLOCK_MONOTONIC_RAW);
	b = now();
	printf("raw_seen=%ld\n", b.clock_raw - a.clock_raw);
	e2e_tally_print("", &t);
	return 0;
}
