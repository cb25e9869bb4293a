/* SPDX-License-Identifier: MIT */
/* Opens only regular files, so that a FIFO or a device named to the launcher cannot hang or disturb it. */
#define _GNU_SOURCE
#include "launcher/launcher_file.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int launcher_open_regular(const char *path, struct stat *st)
{
	int fd, err;

	if (stat(path, st) != 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return LAUNCHER_NOT_REGULAR;
	/* O_NONBLOCK: if a FIFO took the file's place since the stat, the open returns at once. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) != 0) {
		err = errno;
		close(fd);
		return -err;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return LAUNCHER_NOT_REGULAR;
	}
	return fd;
}

const char *launcher_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	default:
		return "not a regular file";
	}
}
