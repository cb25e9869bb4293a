/* SPDX-License-Identifier: MIT */
/* The vDSO-related mappings of this process, read from /proc/self/maps without stdio or malloc. */
#ifndef FR_MAPS_H
#define FR_MAPS_H

#include <stddef.h>
#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* Start addresses of the special mappings; 0 where a mapping is absent. */
struct fr_maps {
	uintptr_t vvar;
	uintptr_t vvar_vclock;
	uintptr_t vdso;
	uintptr_t vdso_end; /* end (exclusive) of the [vdso] mapping; 0 when absent */
};

/* Fills out from the text of a maps file; pure, for tests. */
void fr_maps_parse(const char *text, size_t len, struct fr_maps *out);

/* Reads /proc/self/maps. Returns 0, or -1 when it cannot be read (no /proc). Keeps errno. */
int fr_maps_read(struct fr_maps *out);

#pragma GCC visibility pop

#endif
