/* SPDX-License-Identifier: MIT */
/* Probe: libfastraw loaded into a new link-map namespace with dlmopen (or with dlopen), each export called through that copy. */
#define _GNU_SOURCE
#include "cpu_test.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	const char *lib = getenv("FR_DLMOPEN_LIB"), *data = getenv("FR_DLMOPEN_DATA");
	void *h;
	int (*cg)(clockid_t, struct timespec *);
	unsigned long (*aux)(unsigned long);
	long (*sc)(long, ...);
	void *(*ds)(void *, const char *);
	int64_t (*now)(void);
	struct timespec ts, k;
	int rc;

	/* A program that writes its data to fd 2: the copy must take it for no stderr of the process. */
	if (data) {
		int fd = open(data, O_WRONLY | O_APPEND);

		if (fd < 0 || dup2(fd, 2) != 2)
			return 2;
		close(fd);
	}
	if (getenv("FR_DLMOPEN_PLAIN"))
		h = lib ? dlopen(lib, RTLD_NOW | RTLD_LOCAL) : NULL;
	else
		h = lib ? dlmopen(LM_ID_NEWLM, lib, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!h) {
		printf("dlmopen failed: %s\n", dlerror());
		return 1;
	}
	cg = (int (*)(clockid_t, struct timespec *))dlsym(h, "clock_gettime");
	aux = (unsigned long (*)(unsigned long))dlsym(h, "getauxval");
	sc = (long (*)(long, ...))dlsym(h, "syscall");
	ds = (void *(*)(void *, const char *))dlsym(h, "dlsym");
	now = (int64_t(*)(void))dlsym(h, "fastraw_now_ns");
	if (!cg || !aux || !sc || !ds || !now) {
		printf("missing export\n");
		return 1;
	}
	rc = cg(CLOCK_MONOTONIC_RAW, &ts);
	syscall(FRT_SYS_CLOCK_GETTIME, CLOCK_MONOTONIC_RAW, &k);
	printf("raw_rc=%d\nraw_ok=%d\n", rc, ts.tv_sec < k.tv_sec || (ts.tv_sec == k.tv_sec && ts.tv_nsec <= k.tv_nsec));
	rc = cg(CLOCK_MONOTONIC, &ts);
	printf("mono_rc=%d\n", rc);
	printf("pagesz_ok=%d\n", aux(AT_PAGESZ) == getauxval(AT_PAGESZ));
	printf("getpid_ok=%d\n", sc(SYS_getpid) == getpid());
	printf("dlsym_ok=%d\n", ds(RTLD_DEFAULT, "getpid") != NULL);
	printf("now_ok=%d\n", now() > 0);
	return 0;
}
