/* SPDX-License-Identifier: MIT */
/* Probe: libfastraw's exports called from IFUNC resolvers, before the loader relocated it (a dependency's) and before any constructor (the program's own). */
#include "early_rec.h"

#include "cpu_test.h"
#include <stdlib.h>
#include <string.h>

const struct early_rec *early_lib_rec(void);
int early_dep_call(void);

static struct early_rec own;

static int own_impl(void)
{
	return 8;
}

typedef int (*own_fn_t)(void);

__attribute__((used)) static own_fn_t own_resolve(void)
{
	if (!own.done)
		early_record(&own);
	return own_impl;
}

int own_fn(void) __attribute__((ifunc("own_resolve")));
int (*own_ptr)(void) = own_fn;

int main(void)
{
	struct early_rec late = { 0 };
	struct timespec k;

	early_record(&late);
	printf("calls=%d,%d\n", early_dep_call(), own_ptr());
	/* The kernel's RAW now: every recorded clock value must lie before it. */
	syscall(FRT_SYS_CLOCK_GETTIME, CLOCK_MONOTONIC_RAW, &k);
	printf("kernel_raw_ns=%lld\n", (long long)early_ns(&k));
	early_print("dep_", early_lib_rec());
	early_print("own_", &own);
	early_print("main_", &late);
	return 0;
}
