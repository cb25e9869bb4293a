/* SPDX-License-Identifier: MIT */
/* Finds a usable libfastraw.so (command line, else the tools' shared list of places) and builds LD_PRELOAD around it. */
#define _GNU_SOURCE
#include "launcher/launcher_lib.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/tool_arch.h"
#include "common/tool_libpath.h"
#include "launcher/launcher_elf.h"
#include "launcher/launcher_file.h"

/* A symbol that only libfastraw defines (its public API, include/fastraw.h). */
#define LIBFASTRAW_MARK "fastraw_info"

/* "a FIFO, not a regular file": a directory keeps the system's own words. */
static const char *not_regular(const struct stat *st)
{
	static char why[64];

	if (S_ISDIR(st->st_mode))
		return strerror(EISDIR);
	snprintf(why, sizeof(why), "%s, not a regular file", launcher_file_kind(st->st_mode));
	return why;
}

/* Why path cannot be preloaded, or NULL when it can; the real path goes to out. */
static const char *unusable(const char *path, char *out)
{
	struct launcher_elf e;
	struct stat st;
	int fd, err;

	if (!realpath(path, out))
		return strerror(errno);
	fd = launcher_open_regular(out, &st);
	if (fd == LAUNCHER_NOT_REGULAR)
		return not_regular(&st);
	if (fd < 0)
		return strerror(-fd);
	err = launcher_elf_read(fd, &e);
	/* Only libfastraw exports its API: any other library would run the program without it. */
	if (!err && e.is_native_class && e.is_native && e.type == ET_DYN)
		err = launcher_elf_defines(fd, LIBFASTRAW_MARK) == 1 ? 0 : 1;
	close(fd);
	if (err == 1)
		return "not libfastraw: its dynamic symbol table does not define " LIBFASTRAW_MARK;
	if (err == -ENOEXEC || err == -EINVAL)
		return "not an ELF file";
	if (err)
		return strerror(-err);
	if (!e.is_native_class || !e.is_native || e.type != ET_DYN)
		return "not an " TOOL_ARCH_NAME " (" TOOL_ELF_BITS "-bit) shared library";
	if (strpbrk(out, ": "))
		return "its path holds ':' or ' ', which separate LD_PRELOAD entries";
	return NULL;
}

static void note(char *why, size_t whylen, const char *path, const char *reason)
{
	size_t used = strlen(why);

	if (used < whylen)
		snprintf(why + used, whylen - used, "%s%s (%s)", used ? ", " : "", path, reason);
}

int launcher_find_lib(const char *explicit_path, char *out, size_t outlen, char *why, size_t whylen)
{
	char cand[TOOL_LIB_PLACES][PATH_MAX], real[PATH_MAX];
	const char *reason;
	int n;

	why[0] = '\0';
	if (explicit_path) {
		if ((reason = unusable(explicit_path, real))) {
			note(why, whylen, explicit_path, reason);
			return -1;
		}
		return (size_t)snprintf(out, outlen, "%s", real) < outlen ? 0 : -1;
	}
	n = tool_lib_places(cand);
	for (int i = 0; i < n; i++) {
		if (!(reason = unusable(cand[i], real)))
			return (size_t)snprintf(out, outlen, "%s", real) < outlen ? 0 : -1;
		note(why, whylen, cand[i], reason);
	}
	return -1;
}

static int same_file(const char *entry, const struct stat *lib)
{
	struct stat st;

	/* An entry without '/' is a name the loader searches for, never our absolute path. */
	return strchr(entry, '/') && stat(entry, &st) == 0 && st.st_dev == lib->st_dev &&
	       st.st_ino == lib->st_ino;
}

static void append(char *val, size_t *len, const char *e)
{
	size_t n = strlen(e);

	if (*len)
		val[(*len)++] = ':';
	memcpy(val + *len, e, n + 1);
	*len += n;
}

/*
 * The entries already there come first: a sanitizer runtime must be the first object loaded, and
 * an interposer the user put in LD_PRELOAD (faketime's) must see every call before we do, the
 * order it would have without the launcher. An entry that already names the library keeps its
 * place: whoever wrote it chose where it goes.
 */
char *launcher_preload_value(const char *lib, const char *old)
{
	size_t len = 0, cap = strlen(lib) + (old ? strlen(old) : 0) + 2;
	char *val = malloc(cap), *copy = old ? strdup(old) : NULL, *save = NULL;
	struct stat st;
	int have_st, placed = 0;

	if (!val || (old && !copy)) {
		free(val);
		free(copy);
		return NULL;
	}
	val[0] = '\0';
	have_st = stat(lib, &st) == 0;
	/* The loader splits LD_PRELOAD on both ':' and ' '. */
	for (char *e = copy ? strtok_r(copy, ": ", &save) : NULL; e; e = strtok_r(NULL, ": ", &save)) {
		if (strcmp(e, lib) == 0 || (have_st && same_file(e, &st))) {
			if (!placed)
				append(val, &len, lib);
			placed = 1;
			continue;
		}
		append(val, &len, e);
	}
	if (!placed)
		append(val, &len, lib);
	free(copy);
	return val;
}

/*
 * The loaders disagree on a name listed twice (glibc's reads the last LD_PRELOAD, musl's and
 * getenv the first), so every copy's entries are kept, in order: the one value then passed on
 * gives each loader what it would have loaded from either, and drops nothing the user listed.
 */
char *launcher_preload_inherited(char *const *env, int *copies)
{
	static const char key[] = "LD_PRELOAD=";
	size_t cap = 1, len = 0;
	char *val;

	*copies = 0;
	for (char *const *e = env; e && *e; e++)
		if (strncmp(*e, key, sizeof(key) - 1) == 0) {
			cap += strlen(*e) - (sizeof(key) - 1) + 1;
			++*copies;
		}
	if (!*copies || !(val = malloc(cap)))
		return NULL;
	val[0] = '\0';
	for (char *const *e = env; e && *e; e++)
		if (strncmp(*e, key, sizeof(key) - 1) == 0)
			append(val, &len, *e + sizeof(key) - 1);
	return val;
}
