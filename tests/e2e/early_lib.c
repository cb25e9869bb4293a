/* SPDX-License-Identifier: MIT */
/* A library whose IFUNC resolver calls every libfastraw export: ld.so runs it before it relocates a preloaded libfastraw. */
#include "early_rec.h"

static struct early_rec rec;

const struct early_rec *early_lib_rec(void)
{
	return &rec;
}

static int early_impl(void)
{
	return 7;
}

/* The common resolver pattern, getauxval first; the rest of the exports after it. */
typedef int (*early_fn_t)(void);

static early_fn_t early_resolve(void)
{
	if (!rec.done)
		early_record(&rec);
	return early_impl;
}

int early_fn(void) __attribute__((ifunc("early_resolve")));
