/* SPDX-License-Identifier: MIT */
/* The start-up baseline: a preload with nothing in it but a constructor, so only loading it costs. */

int fr_empty_preload_ran;

static void __attribute__((constructor)) empty_ctor(void)
{
	/* A store the compiler cannot drop: the constructor runs and does nothing else. */
	__atomic_store_n(&fr_empty_preload_ran, 1, __ATOMIC_RELAXED);
}
