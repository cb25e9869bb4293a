/* SPDX-License-Identifier: MIT */
/* Probe: dlsym and dlvsym by RTLD_NEXT from every position in the loader's list: the program, a library before libc, one after it, a dlopen'd one. */
#define _GNU_SOURCE
#include "nextpos.h"

/* Linked in this order (e2e.cmake): nextpos_mid, libc, nextpos_late. */
void nextpos_mid(const char *pos);
void nextpos_late(const char *pos);

int main(int argc, char **argv)
{
	void (*opened)(const char *);
	void *h;

	if (argc < 2)
		return 2;
	nextpos_lookups("program");
	nextpos_mid("before_libc");
	nextpos_late("after_libc");
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	opened = h ? (void (*)(const char *))dlsym(h, "nextpos_open") : NULL;
	if (!opened)
		return 3;
	opened("dlopened");
	return 0;
}
