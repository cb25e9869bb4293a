/* SPDX-License-Identifier: MIT */
/* Probe: a program linked to a plugin host library (not to libdl), which loads its plugin; prints the loader's list of objects first. */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "host_lib.h"

struct order {
	int libc, libdl, n;
};

/* The position of each object; libdl's and libc's remembered (0: not loaded). */
static int note(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct order *o = arg;
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	base = base ? base + 1 : info->dlpi_name;
	o->n++;
	printf("order: %d %s\n", o->n, base && *base ? base : "(program)");
	if (base && strncmp(base, "libc.so", 7) == 0)
		o->libc = o->n;
	if (base && strncmp(base, "libdl.so", 8) == 0)
		o->libdl = o->n;
	return 0;
}

int main(int argc, char **argv)
{
	struct order o = { 0, 0, 0 };

	if (argc != 2) {
		printf("usage: %s PLUGIN\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	dl_iterate_phdr(note, &o);
	/* The case of issue 27: libdl (where dlsym lives before glibc 2.34) after libc. */
	printf("libdl: %s\n", !o.libdl ? "not loaded (dlsym is libc's)" : o.libdl > o.libc ? "after libc" : "before libc");
	return floor_host_run(argv[1]);
}
