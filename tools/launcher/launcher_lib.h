/* SPDX-License-Identifier: MIT */
/* Finding libfastraw.so for the launcher, and the one LD_PRELOAD value that adds it. */
#ifndef LAUNCHER_LIB_H
#define LAUNCHER_LIB_H

#include <stddef.h>

/*
 * Finds the library: explicit when not NULL (and then nothing else), else the first usable
 * file of tool_lib_places() (common/tool_libpath.h: the installed libdir, ../lib beside the
 * launcher, the launcher's own folder). Usable: a 64-bit shared object of this architecture
 * (TOOL_ELF_MACHINE), a regular file (a FIFO is never opened), whose real path has no ':'
 * or ' ' (LD_PRELOAD separators).
 * Returns 0 with the real path in out, or -1 with every place tried and why in why.
 */
int launcher_find_lib(const char *explicit_path, char *out, size_t outlen, char *why, size_t whylen);

/*
 * The LD_PRELOAD value: the entries of old (may be NULL) in their order, then lib, separated
 * by ':', leaving out empty entries. An entry of old naming the same file as lib becomes lib in
 * its place (later ones are left out). NULL when out of memory.
 */
char *launcher_preload_value(const char *lib, const char *old);

/*
 * The LD_PRELOAD the program would inherit: the values of every LD_PRELOAD entry of env (an
 * execve may pass the name more than once), in their order, joined by ':'. Sets *copies to how
 * many entries there were; NULL when none, or when out of memory (*copies > 0).
 */
char *launcher_preload_inherited(char *const *env, int *copies);

#endif
