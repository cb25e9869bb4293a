/* SPDX-License-Identifier: MIT */
/* Files read by system calls at start-up (readfile.h): /proc/self/maps line by line, and small sysfs and /proc files whole. */
#include "proc/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "base/sys.h"

int fr_file_read(const char *path, char *buf, size_t size, fr_file_take_fn take, void *ctx)
{
	int fd, rc = 0;
	size_t have = 0;

	fd = (int)fr_sys_open_ro(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		long n = have < size ? fr_sys_read(fd, buf + have, size - have) : 0;
		long done;

		if (n == -EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -1 : 0;
			take(ctx, buf, have, 1);
			break;
		}
		have += (size_t)n;
		done = take(ctx, buf, have, 0);
		if (done < 0)
			break;
		have -= (size_t)done;
		memmove(buf, buf + done, have);
	}
	fr_sys_close(fd);
	return rc;
}

/* A small file is taken whole: nothing is consumed, and the reading stops once the buffer is full. */
struct whole {
	size_t have, room;
};

static long keep_all(void *ctx, char *buf, size_t have, int end)
{
	struct whole *w = ctx;

	(void)buf;
	(void)end;
	w->have = have;
	return have == w->room ? -1 : 0;
}

int fr_file_read_small(const char *path, char *buf, size_t len)
{
	struct whole w = { 0, len - 1 };

	fr_file_read(path, buf, w.room, keep_all, &w);
	buf[w.have] = '\0';
	return w.have ? 0 : -1;
}
