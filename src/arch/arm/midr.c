/* SPDX-License-Identifier: MIT */
/* The first processor's MIDR from /proc/cpuinfo's fields, for the tools' CPU name (arch/armfam/cpu_name.c). */
#include "arch/arm/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value after "key" and ':' on line, or -1. */
static long field(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	if (strncmp(line, key, n) != 0 || !(p = strchr(line + n, ':')))
		return -1;
	return strtol(p + 1, NULL, 0);
}

/*
 * As 32-bit ARM's /proc/cpuinfo spells it ("CPU implementer : 0x41", "CPU variant", "CPU part",
 * "CPU revision"); the sysfs file arm64 has does not exist here. 0 without them.
 */
uint64_t fr_armfam_midr(void)
{
	char buf[256];
	FILE *f = fopen("/proc/cpuinfo", "re");
	long impl = -1, variant = -1, part = -1, rev = -1, v;

	while (f && fgets(buf, sizeof(buf), f) && (impl < 0 || variant < 0 || part < 0 || rev < 0)) {
		if ((v = field(buf, "CPU implementer")) >= 0 && impl < 0)
			impl = v;
		else if ((v = field(buf, "CPU variant")) >= 0 && variant < 0)
			variant = v;
		else if ((v = field(buf, "CPU part")) >= 0 && part < 0)
			part = v;
		else if ((v = field(buf, "CPU revision")) >= 0 && rev < 0)
			rev = v;
	}
	if (f)
		fclose(f);
	if (impl < 0 || part < 0)
		return 0;
	return (uint32_t)impl << 24 | (uint32_t)(variant & 0xf) << 20 | 0xfu << 16 | (uint32_t)(part & 0xfff) << 4 |
	       (uint32_t)(rev & 0xf);
}
