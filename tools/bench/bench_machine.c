/* SPDX-License-Identifier: MIT */
/* The machine facts fastraw-bench prints above its table: CPU, kernel release, clocksource. */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "bench/bench_machine.h"
#include "arch/arch.h"

static void cpu_identity(struct bench_machine *m)
{
	unsigned regs[12], a, b, c, d;
	size_t start, n;

	if (__get_cpuid(0, &a, &b, &c, &d)) {
		/* The vendor string is EBX, EDX, ECX in that order. */
		memcpy(m->vendor, &b, 4);
		memcpy(m->vendor + 4, &d, 4);
		memcpy(m->vendor + 8, &c, 4);
	}
	if (__get_cpuid_max(0x80000000u, NULL) < 0x80000004u)
		return;
	for (unsigned i = 0; i < 3; i++)
		__get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
	memcpy(m->brand, regs, 48);
	/* Brand strings are padded with spaces, on Intel at the front. */
	start = strspn(m->brand, " ");
	n = strlen(m->brand);
	while (n > start && m->brand[n - 1] == ' ')
		n--;
	memmove(m->brand, m->brand + start, n - start);
	m->brand[n - start] = '\0';
}

void bench_machine_read(struct bench_machine *m)
{
	struct fr_cpu_features f = { 0 };
	struct utsname u;
	FILE *cs;

	memset(m, 0, sizeof(*m));
	cpu_identity(m);
	/* Hygon's cores are AMD's design, with the same rdtsc cost. */
	m->amd = strcmp(m->vendor, "AuthenticAMD") == 0 || strcmp(m->vendor, "HygonGenuine") == 0;
	fr_cpu_probe_cpuid(&f);
	m->rdtscp = f.rdtscp != 0;
	m->invariant_tsc = f.invariant_tsc != 0;
	snprintf(m->release, sizeof(m->release), "%s", uname(&u) == 0 ? u.release : "?");
	strcpy(m->clocksource, "?");
	cs = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
	if (cs) {
		if (fgets(m->clocksource, sizeof(m->clocksource), cs))
			m->clocksource[strcspn(m->clocksource, "\n")] = '\0';
		fclose(cs);
	}
	if (!m->clocksource[0])
		strcpy(m->clocksource, "?");
}
