/* SPDX-License-Identifier: MIT */
/* The places the tools look for libfastraw.so when no path is given, shared by the launcher and the benchmark. */
#ifndef FR_TOOL_LIBPATH_H
#define FR_TOOL_LIBPATH_H

#include <limits.h>

/* The name looked for: the development link, present in a build tree and in every install. */
#define TOOL_LIB_NAME "libfastraw.so"
#define TOOL_LIB_PLACES 3

/*
 * Fills places with the candidate paths, in the order to try them, and returns how many:
 * FASTRAW_INSTALL_LIBDIR/libfastraw.so (the libdir compiled in at configure time),
 * <this program's dir>/FASTRAW_BIN_TO_LIB/libfastraw.so (an installed tree moved or staged
 * elsewhere) and <this program's dir>/libfastraw.so (a build tree). The last two are left out
 * when /proc/self/exe cannot be read; a path longer than PATH_MAX is left out.
 */
int tool_lib_places(char places[TOOL_LIB_PLACES][PATH_MAX]);

/* The installed libdir compiled in, and the relative path from the bindir to it, for help texts. */
extern const char tool_lib_install_libdir[];
extern const char tool_lib_bin_to_lib[];

#endif
