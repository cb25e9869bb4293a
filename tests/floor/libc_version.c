/* SPDX-License-Identifier: MIT */
/* Probe: prints the glibc it runs on, every object loaded into it and the one serving clock_gettime. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <stdio.h>
#include <time.h>

static int print_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	/* The program itself has an empty name; the vDSO is named linux-vdso.so.1 (or has none). */
	if (info->dlpi_name && info->dlpi_name[0])
		printf("object=%s\n", info->dlpi_name);
	return 0;
}

int main(void)
{
	int (*volatile fn)(clockid_t, struct timespec *) = clock_gettime;
	struct timespec ts;
	Dl_info where;

	printf("glibc=%s\n", gnu_get_libc_version());
	dl_iterate_phdr(print_object, NULL);
	if (dladdr((void *)fn, &where) && where.dli_fname)
		printf("clock_gettime=%s\n", where.dli_fname);
	return fn(CLOCK_MONOTONIC_RAW, &ts) != 0;
}
