/* SPDX-License-Identifier: MIT */
/* Calibrated mode's start-up inputs (declared in calib_source.h): the eligibility facts from sysfs and /proc, and the seed rate. */
#include "calib/calib_source.h"

#include "kdata/gtod.h"
#include "kdata/kdata.h"
#include "exact/fastpath.h"
#include "proc/readfile.h"
#include "base/pages.h"

const char *fr_cal_eligible(const struct fr_cpu_features *cpu, const struct fr_gtod *g)
{
	/*
	 * Static, not on the stack of a first RAW read that may run in a signal handler on a small
	 * alternate stack: only the holder of start-up's claim runs this (startup/claim.h), and the
	 * tools, single-threaded. The first CPU's block of cpuinfo fits in 4 KiB (the rest is not
	 * needed); x86's command line is at most 2 KiB.
	 */
	static struct {
		char avail[256], cpuinfo[4096], cmdline[2048];
	} in FR_LATE_STATIC(cal_inputs);
	int a, c, l, kernel_counter = g ? g->tsc : -1;

	/*
	 * 32-bit ARM's page before 5.5 says tk_is_cntvct 0 when its vDSO may not read the counter
	 * (another clocksource, or an erratum workaround): the kernel's verdict, final there. Where
	 * that page is the seed's (FR_ARCH_OLD_DATA FR_OLD_DATA_ARM), a CPU may lack the counter altogether
	 * (ARM11), so without the page's word calibrated mode is not eligible either.
	 */
	if (g && g->era == FR_GTOD_ARM_4_1 && !g->tsc)
		return "the kernel's vdso_data says tk_is_cntvct 0: its vDSO does not read the counter";
	if (FR_ARCH_OLD_DATA == FR_OLD_DATA_ARM && !(g && g->era == FR_GTOD_ARM_4_1))
		return "no pre-5.5 vdso_data says the kernel's vDSO reads the counter";
	/* kernel_counter: the kernel's own verdict, its vDSO reads the TSC only while its clocksource is the TSC. */
	a = fr_file_read_small("/sys/devices/system/clocksource/clocksource0/available_clocksource", in.avail,
		       sizeof(in.avail));
	c = fr_file_read_small("/proc/cpuinfo", in.cpuinfo, sizeof(in.cpuinfo));
	l = fr_file_read_small("/proc/cmdline", in.cmdline, sizeof(in.cmdline));
	return fr_cal_seed_eligible(cpu, kernel_counter, a ? NULL : in.avail, c ? NULL : in.cpuinfo, l ? NULL : in.cmdline);
}

/* What the debug line says of a gtod seed: its source and the layout the page was read with. */
static const char *gtod_source(const struct fr_gtod *g)
{
	switch (g->era) {
	case FR_GTOD_4_X:
		return "kernel gtod mult (3.16-4.19 layout)";
	case FR_GTOD_4_20:
		return "kernel gtod mult (4.20-5.2 layout)";
	case FR_GTOD_3_10_DEBUG:
		return "kernel gtod mult (3.10-debug layout)";
	case FR_GTOD_ARM_4_1:
		return "kernel vdso_data mult (arm-4.1-5.4 layout)";
	default:
		return "kernel gtod mult (3.10 layout)";
	}
}

void fr_cal_seed_choose(const struct fr_kdata *kd, int have_kd, const struct fr_gtod *g, struct fr_cal_seed *out)
{
	struct fr_arch_rates rates;

	out->mult = 0;
	out->source = "none";
	out->kmult = out->kshift = 0;
	if (have_kd && kd->lay) {
		const volatile uint8_t *raw = fr_raw_entry(kd, 0);
		uint32_t mode = FR_LD32(raw + FR_OFF_MODE);

		if (fr_mode_is_counter((int32_t)mode)) {
			out->kmult = FR_LD32(raw + FR_OFF_MULT + kd->lay->field_shift);
			out->kshift = FR_LD32(raw + FR_OFF_SHIFT + kd->lay->field_shift);
			out->mult = fr_cal_seed_mult_from_shift(out->kmult, out->kshift);
			out->source = "kernel " FR_ARCH_COUNTER_WORD " mult";
		} else if (fr_mode_is_pvclock((int32_t)mode) && kd->vclock) {
			out->mult = fr_cal_seed_mult_from_pvclock(FR_LD32(kd->vclock + FR_PV_MUL),
							      *(const volatile int8_t *)(kd->vclock + FR_PV_SHIFT));
			out->source = "pvclock";
		}
		if (out->mult)
			return;
		out->kmult = out->kshift = 0;
	}
	if (g && g->tsc && (out->mult = fr_cal_seed_mult_from_shift(g->mult, g->shift)) != 0) {
		out->source = gtod_source(g);
		out->kmult = g->mult;
		out->kshift = g->shift;
		return;
	}
	fr_arch_counter_rates(&rates);
	fr_cal_seed_from_rates(&rates, out);
}
