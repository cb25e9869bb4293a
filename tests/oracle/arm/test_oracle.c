/* SPDX-License-Identifier: MIT */
/* The 32-bit ARM oracle's place: the kernel's vDSO code against ours is not ported yet, so the suite says so and skips. */
#include <stdio.h>

/*
 * The arm64 oracle copies the vDSO's clock_gettime and rewrites its counter reads (A64
 * encodings); 32-bit ARM's vDSO is A32 or Thumb-2 code, whose copy needs its own rewriter.
 * Until it exists the suite reports a skip, never a pass.
 */
int main(void)
{
	printf("SKIP: no 32-bit ARM oracle yet (the vDSO copy's rewriter is arm64's alone)\n");
	return 77;
}
