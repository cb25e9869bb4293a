/* SPDX-License-Identifier: MIT */
/* The CPU's vendor and model from /proc/cpuinfo's MIDR fields, for the tools (apart, so that the library does not link it). */
#include "arch/arch.h"
#include "arch/arm/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MIDR.Implementer codes (the Arm ARM's list, plus those the kernel's cputype.h names). */
static const char *const implementers[256] = {
	[0x41] = "ARM",	     [0x42] = "Broadcom", [0x43] = "Cavium",	[0x44] = "DEC",	   [0x46] = "Fujitsu",
	[0x48] = "HiSilicon", [0x49] = "Infineon", [0x4d] = "Motorola", [0x4e] = "NVIDIA", [0x50] = "APM",
	[0x51] = "Qualcomm", [0x53] = "Samsung",  [0x56] = "Marvell",	[0x61] = "Apple",  [0x66] = "Faraday",
	[0x69] = "Intel",     [0x6d] = "Microsoft", [0x70] = "Phytium", [0xc0] = "Ampere",
};

/* Implementer bits 31:24, variant 23:20, part number 15:4, revision 3:0. */
void fr_arm_name_from_midr(uint32_t midr, struct fr_cpu_name *out)
{
	unsigned impl = (midr >> 24) & 0xff, variant = (midr >> 20) & 0xf, part = (midr >> 4) & 0xfff, rev = midr & 0xf;

	memset(out, 0, sizeof(*out));
	if (!midr)
		return;
	if (implementers[impl])
		snprintf(out->vendor, sizeof(out->vendor), "%s", implementers[impl]);
	else
		snprintf(out->vendor, sizeof(out->vendor), "0x%02x", impl);
	snprintf(out->model, sizeof(out->model), "part 0x%03x r%up%u", part, variant, rev);
}

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
 * The first processor's MIDR as 32-bit ARM's /proc/cpuinfo spells it ("CPU implementer : 0x41",
 * "CPU variant", "CPU part", "CPU revision"); the sysfs file arm64 has does not exist here.
 * Empty strings without them.
 */
void fr_arch_cpu_name(struct fr_cpu_name *out)
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
	if (impl < 0 || part < 0) {
		fr_arm_name_from_midr(0, out);
		return;
	}
	fr_arm_name_from_midr((uint32_t)impl << 24 | (uint32_t)(variant & 0xf) << 20 | 0xfu << 16 |
				      (uint32_t)(part & 0xfff) << 4 | (uint32_t)(rev & 0xf),
			      out);
}
