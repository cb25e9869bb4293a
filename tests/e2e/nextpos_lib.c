/* SPDX-License-Identifier: MIT */
/* A library that looks the clock names up by RTLD_NEXT from wherever the probe places it: NEXTPOS_FN names its entry. */
#include "nextpos.h"

void NEXTPOS_FN(const char *pos)
{
	nextpos_lookups(pos);
	fflush(stdout);
}
