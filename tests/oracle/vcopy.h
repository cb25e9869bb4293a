/* SPDX-License-Identifier: MIT */
/* A private, patched copy of this process's vDSO and data pages whose counter reads return a chosen TSC. */
#ifndef FR_TEST_VCOPY_H
#define FR_TEST_VCOPY_H

#include <stdint.h>
#include <time.h>

/* Layout of the copy, as the 6.17+ kernels map it: [vvar] 4 pages, [vvar_vclock] 2, [vdso] 2. */
#define VC_PAGE 4096u
#define VC_VVAR_PAGES 4u
#define VC_VCLOCK_PAGES 2u
#define VC_VDSO_PAGES 2u
#define VC_MAX_SITES 16

typedef int (*vc_gettime_fn)(clockid_t clk, struct timespec *ts);

/* What the kernel's code did during one call of the copy. */
struct vc_call {
	long ret;              /* the copy's return value */
	unsigned rdtsc_traps;  /* patched rdtsc instructions executed */
	int rdtsc_site;        /* index of the last one, or -1 */
	unsigned carry_traps;  /* carry loops replaced by their closed form */
	unsigned syscalls;     /* fallback system calls the copy made */
};

struct vcopy {
	uint8_t *region;      /* VC_VVAR_PAGES + VC_VCLOCK_PAGES + VC_VDSO_PAGES pages */
	uint8_t *vvar;        /* copy of [vvar]: page 0 and the rng page copied, the rest zero */
	uint8_t *vclock;      /* copy of [vvar_vclock]: page 0 copied when the clock mode is pvclock */
	uint8_t *text;        /* copy of [vdso], patched and executable */
	uint8_t time_page[VC_PAGE]; /* the original [vvar] page 0, for restoring between regimes */
	int live_mode;        /* clock_mode of the live RAW entry */
	vc_gettime_fn gettime;
	int n_rdtsc;          /* patched lfence;rdtsc sites */
	uintptr_t rdtsc_at[VC_MAX_SITES];
	int n_carry;          /* recognised "subtract 1e9 until below" loops */
	int n_syscall;        /* patched clock_gettime fallback system calls */
};

/*
 * Maps and patches the copy and installs the SIGILL handler. Returns NULL, or why this process's
 * vDSO cannot serve as an oracle (the caller then skips, it does not fail).
 */
const char *vcopy_open(struct vcopy *vc);
void vcopy_close(struct vcopy *vc);

/*
 * Whether the kernel's carry loops (sec += 1 per 1e9 ns) run natively or are replaced by a trap
 * that applies their closed form, for results whose loop would take seconds.
 */
void vcopy_set_carry_shortcut(struct vcopy *vc, int on);

/* Calls the copy's clock_gettime(clk) with every counter read returning tsc. */
void vcopy_gettime(struct vcopy *vc, clockid_t clk, uint64_t tsc, struct timespec *ts, struct vc_call *call);

#endif
