/* SPDX-License-Identifier: MIT */
/* A program the tests link statically: the fastraw launcher must refuse to run it. */
#include <stdio.h>

int main(void)
{
	puts("static program ran");
	return 0;
}
