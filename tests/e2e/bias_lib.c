/* SPDX-License-Identifier: MIT */
/* A library linked at a fixed non-zero base (prelink style): built twice at one base, so the loader must move the second. */
int BIAS_FN(void)
{
	return BIAS_VALUE;
}
