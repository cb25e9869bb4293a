/* SPDX-License-Identifier: MIT */
/* bench_empty.so: a preload that does nothing, the baseline fastraw-bench measures libfastraw's start-up against. */

/*
 * A constructor, as libfastraw has one: the loader then runs an initialiser for this library
 * too, so the difference between the two preloads is only what libfastraw does and carries.
 */
__attribute__((constructor)) static void bench_empty_init(void)
{
}
