/* SPDX-License-Identifier: MIT */
/* Finds the program along PATH and refuses the programs the dynamic loader will not preload into. */
#define _GNU_SOURCE
#include "launcher/launcher_target.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/tool_arch.h"
#include "launcher/launcher_elf.h"
#include "launcher/launcher_file.h"

/* The kernel follows at most this many #! interpreters in a row (fs/exec.c). */
#define LAUNCHER_MAX_SCRIPT_DEPTH 4
/* The kernel reads the #! line from the first 256 bytes only (BINPRM_BUF_SIZE). */
#define LAUNCHER_SHEBANG_MAX 256

static int runnable(const char *path, int *err)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		*err = errno;
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		*err = EISDIR;
		return 0;
	}
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) {
		*err = EACCES;
		return 0;
	}
	return 1;
}

static int failed(int err, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s", strerror(err));
	return err == ENOENT || err == ENOTDIR ? LAUNCHER_EXIT_NOT_FOUND : LAUNCHER_EXIT_CANNOT_RUN;
}

int launcher_resolve(const char *prog, char *out, size_t outlen, char *why, size_t whylen)
{
	const char *path = getenv("PATH");
	int err = ENOENT, seen_eacces = 0;

	if (!*prog)
		return failed(ENOENT, why, whylen);
	if (strchr(prog, '/')) {
		if ((size_t)snprintf(out, outlen, "%s", prog) >= outlen)
			return failed(ENAMETOOLONG, why, whylen);
		return runnable(out, &err) ? 0 : failed(err, why, whylen);
	}
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		int len = (int)(end - p);

		/* An empty entry means the current directory, as for execvp. */
		if ((size_t)snprintf(out, outlen, "%.*s%s%s", len, p, len ? "/" : "", prog) < outlen) {
			if (runnable(out, &err))
				return 0;
			/* Like execvp: a match without execute permission is reported only if nothing later runs. */
			seen_eacces |= err == EACCES || err == EISDIR;
		}
		if (!*end)
			break;
		p = end;
	}
	if (seen_eacces) {
		snprintf(why, whylen, "found on PATH but not executable");
		return LAUNCHER_EXIT_CANNOT_RUN;
	}
	snprintf(why, whylen, "not found on PATH");
	return LAUNCHER_EXIT_NOT_FOUND;
}

static int refuse(char *why, size_t whylen, const char *reason)
{
	snprintf(why, whylen, "%s", reason);
	return LAUNCHER_EXIT_CANNOT_RUN;
}

/* The interpreter named on a #! line, or an empty string when the line names none. */
static void shebang_interp(const char *buf, size_t len, char *out, size_t outlen)
{
	size_t i = 2, n = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	while (i < len && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\0' &&
	       n + 1 < outlen)
		out[n++] = buf[i++];
	out[n] = '\0';
}

/*
 * For these the kernel sets AT_SECURE and the loader ignores LD_PRELOAD entries with a '/'.
 * Refuse rather than run the program silently without the library.
 */
static int check_secure(const char *path, const struct stat *st, char *why, size_t whylen)
{
	if (st->st_mode & S_ISUID)
		return refuse(why, whylen,
			      "set-user-ID: the dynamic loader ignores LD_PRELOAD for it");
	if ((st->st_mode & S_ISGID) && (st->st_mode & S_IXGRP))
		return refuse(why, whylen,
			      "set-group-ID: the dynamic loader ignores LD_PRELOAD for it");
	if (getxattr(path, "security.capability", NULL, 0) > 0)
		return refuse(why, whylen,
			      "has file capabilities: the dynamic loader ignores LD_PRELOAD for it");
	return 0;
}

static int check_elf(const char *path, const struct launcher_elf *e, const struct stat *st,
		     char *why, size_t whylen)
{
	if (e->elf_class != ELFCLASS32 && e->elf_class != ELFCLASS64) {
		snprintf(why, whylen,
			 "an ELF file with an invalid class (EI_CLASS %d, neither 32- nor 64-bit): no loader runs it",
			 e->elf_class);
		return LAUNCHER_EXIT_CANNOT_RUN;
	}
	/* The loader skips a preload of the other width (wrong ELF class): the program would run without it. */
	if (!e->is_native_class)
		return refuse(why, whylen, e->elf_class == ELFCLASS32 ?
			      "a 32-bit program: libfastraw.so is " TOOL_ELF_BITS "-bit " TOOL_ARCH_NAME " only" :
			      "a 64-bit program: libfastraw.so is " TOOL_ELF_BITS "-bit " TOOL_ARCH_NAME " only");
	if (!e->is_native)
		return refuse(why, whylen, "not an " TOOL_ARCH_NAME " program: libfastraw.so is " TOOL_ARCH_NAME " only");
	if (e->type != ET_EXEC && e->type != ET_DYN)
		return refuse(why, whylen, "not an executable ELF file");
	/* Static and static-pie programs alike have no PT_INTERP: no loader runs to read LD_PRELOAD. */
	if (!e->has_interp)
		return refuse(why, whylen,
			      "statically linked: no dynamic loader runs, so nothing can be preloaded");
	return check_secure(path, st, why, whylen);
}

/*
 * A file this user may execute but not read (mode 0111): the kernel runs it, but its headers
 * cannot be looked at, so static and dynamic cannot be told apart. Its mode and capabilities
 * can still be read, and those refusals stand. Otherwise accepted, with *unread set and the
 * reason in why.
 */
static int check_unreadable(const char *path, int err, int *unread, char *why, size_t whylen)
{
	struct stat st;
	int rc;

	if (err != EACCES || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return failed(err, why, whylen);
	rc = check_secure(path, &st, why, whylen);
	if (rc)
		return rc;
	*unread = 1;
	snprintf(why, whylen, "cannot read %s (%s)", path, strerror(err));
	return 0;
}

static int check_depth(const char *path, int depth, int *unread, char *why, size_t whylen)
{
	char buf[LAUNCHER_SHEBANG_MAX], interp[LAUNCHER_SHEBANG_MAX], inner[512];
	struct launcher_elf e;
	struct stat st;
	ssize_t n;
	int fd, err;

	/* A FIFO or a device would block or act on the open: only regular files are opened. */
	fd = launcher_open_regular(path, &st);
	if (fd == LAUNCHER_NOT_REGULAR) {
		if (S_ISDIR(st.st_mode))
			return failed(EISDIR, why, whylen);
		snprintf(why, whylen, "%s, not a regular file", launcher_file_kind(st.st_mode));
		return LAUNCHER_EXIT_CANNOT_RUN;
	}
	if (fd < 0)
		return check_unreadable(path, -fd, unread, why, whylen);
	err = launcher_elf_read(fd, &e);
	if (err == 0) {
		close(fd);
		return check_elf(path, &e, &st, why, whylen);
	}
	n = err == -ENOEXEC ? pread(fd, buf, sizeof(buf), 0) : -1;
	close(fd);
	if (err != -ENOEXEC)
		return err == -EINVAL ? refuse(why, whylen, "a damaged ELF file")
				      : failed(-err, why, whylen);
	/* Set-ID bits on a script are ignored by Linux: only its interpreter matters. */
	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return refuse(why, whylen, "neither an ELF program nor a #! script");
	shebang_interp(buf, (size_t)n, interp, sizeof(interp));
	if (!interp[0])
		return refuse(why, whylen, "a #! script that names no interpreter");
	if (depth >= LAUNCHER_MAX_SCRIPT_DEPTH)
		return refuse(why, whylen, "too many nested #! interpreters");
	if (!check_depth(interp, depth + 1, unread, why, whylen))
		return 0;
	/* The script itself was found: like a shell's "bad interpreter", this cannot run (126). */
	snprintf(inner, sizeof(inner), "%s", why);
	snprintf(why, whylen, "its #! interpreter %s: %s", interp, inner);
	return LAUNCHER_EXIT_CANNOT_RUN;
}

int launcher_check(const char *path, int *unread, char *why, size_t whylen)
{
	*unread = 0;
	return check_depth(path, 0, unread, why, whylen);
}
