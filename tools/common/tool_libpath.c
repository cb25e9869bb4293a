/* SPDX-License-Identifier: MIT */
/* Lists where an installed or built tool finds libfastraw.so: the configured libdir, ../lib beside it, its own folder. */
#define _GNU_SOURCE
#include "common/tool_libpath.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if !defined(FASTRAW_INSTALL_LIBDIR) || !defined(FASTRAW_BIN_TO_LIB)
#error "FASTRAW_INSTALL_LIBDIR and FASTRAW_BIN_TO_LIB must be defined (see tools/common/common.cmake)"
#endif

const char tool_lib_install_libdir[] = FASTRAW_INSTALL_LIBDIR;
const char tool_lib_bin_to_lib[] = FASTRAW_BIN_TO_LIB;

/* The directory holding this program, from /proc/self/exe; 0 or -1. */
static int self_dir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	out[n] = '\0';
	slash = strrchr(out, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/* 1 when an snprintf into a PATH_MAX buffer returning len was not truncated. */
static int fits(int len)
{
	return len >= 0 && len < PATH_MAX;
}

int tool_lib_places(char places[TOOL_LIB_PLACES][PATH_MAX])
{
	char dir[PATH_MAX];
	int n = 0;

	n += fits(snprintf(places[n], PATH_MAX, "%s/%s", FASTRAW_INSTALL_LIBDIR, TOOL_LIB_NAME));
	if (self_dir(dir, sizeof(dir)) == 0) {
		n += fits(snprintf(places[n], PATH_MAX, "%s/%s/%s", dir, FASTRAW_BIN_TO_LIB, TOOL_LIB_NAME));
		n += fits(snprintf(places[n], PATH_MAX, "%s/%s", dir, TOOL_LIB_NAME));
	}
	return n;
}
