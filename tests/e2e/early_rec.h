/* SPDX-License-Identifier: MIT */
/* What an IFUNC resolver sees when it calls each of libfastraw's exports, recorded for the probe to print. */
#ifndef FR_E2E_EARLY_REC_H
#define FR_E2E_EARLY_REC_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpu_test.h"

/* getpid's version in glibc: the architecture's first (x86-64's 2.2.5, arm64's 2.17). */
#define EARLY_GETPID_VERSION FRT_GLIBC_FIRST_VERSION

struct early_rec {
	int done;
	unsigned long hwcap, pagesz, ehdr, bogus;
	int bogus_errno;
	int mono_rc, raw_rc;
	int64_t mono_ns, raw_ns;
	void *dlsym_getpid, *dlvsym_getpid, *dlsym_next_getpid;
	long sc_pid, sc_raw_rc;
	int64_t sc_raw_ns;
	int api; /* the fastraw_* exports were found (only under the preload) */
	int64_t now_ns;
	uint64_t ticks;
	int info_rc;
	int clock_rc, clock_null_rc; /* fastraw_clock_gettime(CLOCK_MONOTONIC), with a timespec and with NULL */
	int64_t clock_ns;
};

static inline int64_t early_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/*
 * Calls every export the way a resolver or constructor might. Inline in each object, so that
 * every call binds through that object's own relocations. Never lets errno leak out.
 */
static inline void early_record(struct early_rec *r)
{
	struct timespec ts;
	int saved = errno;
	int64_t (*now)(void);
	uint64_t (*ticks)(void);
	int (*info)(void *);
	int (*clk)(int, struct timespec *);
	struct { size_t size; char rest[256]; } ibuf;

	r->hwcap = getauxval(AT_HWCAP);
	r->pagesz = getauxval(AT_PAGESZ);
	r->ehdr = getauxval(AT_SYSINFO_EHDR);
	errno = 0;
	r->bogus = getauxval(0x7fffffff);
	r->bogus_errno = errno;
	r->mono_rc = clock_gettime(CLOCK_MONOTONIC, &ts);
	r->mono_ns = early_ns(&ts);
	r->raw_rc = clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	r->raw_ns = early_ns(&ts);
	r->dlsym_getpid = dlsym(RTLD_DEFAULT, "getpid");
	r->dlvsym_getpid = dlvsym(RTLD_DEFAULT, "getpid", EARLY_GETPID_VERSION);
	r->dlsym_next_getpid = dlsym(RTLD_NEXT, "getpid");
	r->sc_pid = syscall(SYS_getpid);
	r->sc_raw_rc = syscall(SYS_clock_gettime, CLOCK_MONOTONIC_RAW, &ts);
	r->sc_raw_ns = early_ns(&ts);
	now = (int64_t(*)(void))dlsym(RTLD_DEFAULT, "fastraw_now_ns");
	ticks = (uint64_t(*)(void))dlsym(RTLD_DEFAULT, "fastraw_ticks");
	info = (int (*)(void *))dlsym(RTLD_DEFAULT, "fastraw_info");
	clk = (int (*)(int, struct timespec *))dlsym(RTLD_DEFAULT, "fastraw_clock_gettime");
	r->api = now && ticks && info && clk;
	if (r->api) {
		r->now_ns = now();
		r->ticks = ticks();
		ibuf.size = sizeof(ibuf);
		r->info_rc = info(&ibuf);
		r->clock_rc = clk(CLOCK_MONOTONIC, &ts);
		r->clock_ns = early_ns(&ts);
		r->clock_null_rc = clk(CLOCK_MONOTONIC, NULL);
	}
	r->done = 1;
	errno = saved;
}

/* One line per field, each prefixed (e.g. "dep_"), for the test to compare. */
static inline void early_print(const char *p, const struct early_rec *r)
{
	printf("%sdone=%d\n%shwcap=%lu\n%spagesz=%lu\n%sehdr=%lu\n%sbogus=%lu\n%sbogus_errno=%d\n", p, r->done, p,
	       r->hwcap, p, r->pagesz, p, r->ehdr, p, r->bogus, p, r->bogus_errno);
	printf("%smono_rc=%d\n%sraw_rc=%d\n%smono_ns=%lld\n%sraw_ns=%lld\n", p, r->mono_rc, p, r->raw_rc, p,
	       (long long)r->mono_ns, p, (long long)r->raw_ns);
	printf("%sdlsym_ok=%d\n%sdlvsym_ok=%d\n%sdlsym_next_ok=%d\n", p, r->dlsym_getpid == (void *)getpid, p,
	       r->dlvsym_getpid == (void *)getpid, p, r->dlsym_next_getpid == (void *)getpid);
	printf("%ssc_pid_ok=%d\n%ssc_raw_rc=%ld\n%ssc_raw_ns=%lld\n", p, r->sc_pid == getpid(), p, r->sc_raw_rc, p,
	       (long long)r->sc_raw_ns);
	printf("%sapi=%d\n%snow_ns=%lld\n%sticks_nonzero=%d\n", p, r->api, p, (long long)r->now_ns, p, r->ticks != 0);
	printf("%sclock_rc=%d\n%sclock_ns=%lld\n%sclock_null_rc=%d\n", p, r->clock_rc, p, (long long)r->clock_ns, p,
	       r->clock_null_rc);
}

#endif
