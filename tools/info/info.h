/* SPDX-License-Identifier: MIT */
/* What fastraw-info finds out, gathered once into one struct and printed as text or JSON. */
#ifndef FR_INFO_H
#define FR_INFO_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "interpose/tools.h"
#include "arch/arch.h"
#include "proc/env.h"

/* The system, from uname, sysfs and the CPU (arch/arch.h). */
struct info_sys {
	char release[65];
	char clocksource[64];      /* "" when sysfs cannot be read */
	char available[256];       /* space-separated, as sysfs lists them */
	char vendor[13];           /* the CPU's vendor, "" when it does not say */
	char brand[49];            /* the CPU's model string, spaces trimmed; "" without one */
	struct fr_cpu_features cpu;
	struct fr_arch_rates rates; /* the counter's rate as the CPU states it (arch/arch.h) */
};

/* The kernel's data pages, as the library reads them. */
struct info_pages {
	const char *era;           /* layout name, or NULL when the release has none */
	const char *era_note;      /* "assumed: ..." when the release does not name that layout, else NULL */
	struct fr_pick pick;       /* the choice, when the tool looked itself */
	const char *problem;       /* why the pages cannot be used, or NULL */
	int mode;                  /* clock mode of the CS_RAW entry on the real page, -1 unknown */
	int timens;                /* 1 inside a time namespace, 0 outside, -1 unknown */
	int have_mult;             /* mult and shift were read in one seqcount window */
	uint32_t mult, shift;
	int have_pv;               /* the pvclock page was read (only in pvclock mode) */
	uint32_t pv_mul;
	int8_t pv_shift;
	uint8_t pv_flags;
};

/* Which counter read a preloaded process would use, and why. */
struct info_counter {
	enum fr_counter_mode mode;
	char why[200];
	int ordered_missing;       /* FASTRAW_TSC named the ordered read on a CPU without it */
	struct fr_env env;
};

/* The sandwich test: kernel <= clock_gettime <= kernel. */
struct info_agree {
	long samples, violations, failures;
	int preloaded;             /* clock_gettime resolves to libfastraw */
	const char *object;        /* the file defining the clock_gettime measured */
	const char *measured;      /* "libfastraw fast path", "libfastraw pass-through" or "libc" */
};

struct info {
	struct info_sys sys;
	struct info_pages pages;
	struct info_counter counter;
	const struct fr_status *status;
	const char *cal_ineligible; /* why calibrated mode is not eligible here; NULL: it is */
	struct info_agree agree;
};

/* info_sys.c */
void info_sys_read(struct info_sys *s);
/* The counter read the library chooses for this CPU and environment, with the reason in words. */
void info_counter_explain(struct info_counter *c, const struct fr_cpu_features *cpu, char **envp, int secure);

/* info_pages.c: reads the pages fr_init() found, or finds them itself when it did not look. */
void info_pages_read(struct info_pages *p, const struct fr_status *st);
/* The frequency of a clocksource counter with this mult/shift, in Hz (rounded); 0 if mult is 0. */
uint64_t info_mult_hz(uint32_t mult, uint32_t shift);
/* The TSC frequency a pvclock page's tsc_to_system_mul/tsc_shift imply, in Hz; 0 if implausible. */
uint64_t info_pvclock_tsc_hz(uint32_t mul, int8_t shift);

/* info_agree.c */
/* The clock_gettime this process binds to (dlsym RTLD_DEFAULT), and whether it is libfastraw's. */
void info_agree_resolve(struct info_agree *a);
void info_agree_run(struct info_agree *a, long samples, int fast_path_active);

/* info_print.c */
void info_print_text(FILE *f, const struct info *in);
void info_print_json(FILE *f, const struct info *in);

#endif
