// SPDX-License-Identifier: MIT
/* The fast path instantiated once per counter read, so each has the counter inlined. */
#include "fastpath.h"

#include "counter.h"
#include "runtime.h"

static uint64_t ctr_rdtsc(void)
{
	return fr_rdtsc();
}

static uint64_t ctr_lfence(void)
{
	return fr_rdtsc_lfence();
}

static uint64_t ctr_rdtscp(void)
{
	return fr_rdtscp();
}

int fr_raw_read_with(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts)
{
	return fr_raw_read_inline(kd, counter, ts);
}

/* The pages found at initialisation; written before the function pointers that read it are published. */
struct fr_kdata fr_kd;

int fr_raw_rdtsc(struct timespec *ts)
{
	return fr_raw_read_inline(&fr_kd, ctr_rdtsc, ts);
}

int fr_raw_lfence(struct timespec *ts)
{
	return fr_raw_read_inline(&fr_kd, ctr_lfence, ts);
}

int fr_raw_rdtscp(struct timespec *ts)
{
	return fr_raw_read_inline(&fr_kd, ctr_rdtscp, ts);
}

fr_counter_fn fr_counter_for(enum fr_counter_mode mode)
{
	return mode == FR_CTR_RDTSCP ? ctr_rdtscp : mode == FR_CTR_RDTSC ? ctr_rdtsc : ctr_lfence;
}

fr_raw_fn fr_raw_for(enum fr_counter_mode mode)
{
	return mode == FR_CTR_RDTSCP ? fr_raw_rdtscp : mode == FR_CTR_RDTSC ? fr_raw_rdtsc : fr_raw_lfence;
}
