/* SPDX-License-Identifier: MIT */
/* The ARM CPUs' vendor and model from the MIDR the port reads (fr_armfam_midr), for the tools (apart, so that the library does not link it). */
#include "arch/arch.h"
#include "arch/cpu_dir.h"
#include FR_CPU_FILE(cpu.h)

#include <stdio.h>
#include <string.h>

/* MIDR.Implementer codes (the Arm ARM's list, plus those the kernel's cputype.h names). */
static const char *const implementers[256] = {
	[0x41] = "ARM",	     [0x42] = "Broadcom", [0x43] = "Cavium",	[0x44] = "DEC",	   [0x46] = "Fujitsu",
	[0x48] = "HiSilicon", [0x49] = "Infineon", [0x4d] = "Motorola", [0x4e] = "NVIDIA", [0x50] = "APM",
	[0x51] = "Qualcomm", [0x53] = "Samsung",  [0x56] = "Marvell",	[0x61] = "Apple",  [0x66] = "Faraday",
	[0x69] = "Intel",     [0x6d] = "Microsoft", [0x70] = "Phytium", [0xc0] = "Ampere",
};

/*
 * Implementer bits 31:24, variant 23:20, part number 15:4, revision 3:0 (architecture 19:16 is
 * 0xf everywhere): "ARM", "part 0xd0c r3p1", unknown implementers as "0x%02x"; empty strings
 * where the port found no MIDR.
 */
void fr_arch_cpu_name(struct fr_cpu_name *out)
{
	uint64_t midr = fr_armfam_midr();
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
