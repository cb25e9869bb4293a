/* SPDX-License-Identifier: MIT */
/* The CPU's vendor and brand strings from CPUID, for the tools (apart, so that the library does not link it). */
#include "arch/arch.h"

#include <cpuid.h>
#include <string.h>

/* The vendor is leaf 0's EBX, EDX, ECX in that order; the model is leaves 0x80000002-4, space-padded (on Intel at the front). */
void fr_arch_cpu_name(struct fr_cpu_name *out)
{
	unsigned regs[12], a, b, c, d;
	size_t start, n;

	memset(out, 0, sizeof(*out));
	if (__get_cpuid(0, &a, &b, &c, &d)) {
		memcpy(out->vendor, &b, 4);
		memcpy(out->vendor + 4, &d, 4);
		memcpy(out->vendor + 8, &c, 4);
	}
	if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x80000004u)
		return;
	for (unsigned i = 0; i < 3; i++)
		__get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
	memcpy(out->model, regs, 48);
	start = strspn(out->model, " ");
	n = strlen(out->model);
	while (n > start && out->model[n - 1] == ' ')
		n--;
	memmove(out->model, out->model + start, n - start);
	out->model[n - start] = '\0';
}
