/* SPDX-License-Identifier: MIT */
/* cpu0's MIDR_EL1 as sysfs shows it, for the tools' CPU name (arch/armfam/cpu_name.c). */
#include "arch/aarch64/cpu.h"

#include <stdio.h>
#include <stdlib.h>

/* As the kernel exports it (Linux 4.7+), "0x00000000410fd0c1"; 0 without it. */
uint64_t fr_armfam_midr(void)
{
	char buf[32];
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "re");
	uint64_t midr = 0;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			midr = strtoull(buf, NULL, 16);
		fclose(f);
	}
	return midr;
}
