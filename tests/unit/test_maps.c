/* SPDX-License-Identifier: MIT */
/* Unit tests of the /proc/self/maps reader: sample texts, tricky file names, and the live process. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_suite.h"
#include "proc/maps.h"

static struct fr_maps parse(const char *text)
{
	struct fr_maps m;

	memset(&m, 0xa5, sizeof(m));
	fr_maps_parse(text, strlen(text), &m);
	return m;
}

/*
 * The synthetic lines are x86-64's and arm64's, with addresses above 4 GiB, which no 32-bit
 * process's maps show (nor can its uintptr_t hold): those cases skip there.
 */
#define SKIP_ON_32BIT(name)                                                              \
	do {                                                                               \
		if (sizeof(uintptr_t) < 8) {                                               \
			printf("SKIP: %s: 64-bit addresses in a 32-bit process\n", (name)); \
			return;                                                            \
		}                                                                          \
	} while (0)

/* As on the 6.18 development VM (docs/kernel-data.md §1.1): [vvar] 4 pages, [vvar_vclock] 2, [vdso] 2. */
static const char maps_618[] =
	"55d0c8a00000-55d0c8a02000 r--p 00000000 fe:00 1311 /usr/bin/cat\n"
	"55d0ca1b2000-55d0ca1d3000 rw-p 00000000 00:00 0                          [heap]\n"
	"7f8159800000-7f8159822000 r--p 00000000 fe:00 332390 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"7f81599f8000-7f81599fc000 r--p 00000000 00:00 0                          [vvar]\n"
	"7f81599fc000-7f81599fe000 r--p 00000000 00:00 0                          [vvar_vclock]\n"
	"7f81599fe000-7f8159a00000 r-xp 00000000 00:00 0                          [vdso]\n"
	"7f8159a02000-7f8159a03000 r--p 00000000 fe:00 332383 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\n"
	"7ffee9e8f000-7ffee9eb0000 rw-p 00000000 00:00 0                          [stack]\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n";

START_TEST(with_vvar_vclock)
{
	struct fr_maps m = parse(maps_618);

	SKIP_ON_32BIT("with_vvar_vclock");
	ck_assert_uint_eq(m.vvar, 0x7f81599f8000ULL);
	ck_assert_uint_eq(m.vvar_vclock, 0x7f81599fc000ULL);
	ck_assert_uint_eq(m.vdso, 0x7f81599fe000ULL);
	ck_assert_uint_eq(m.vdso_end, 0x7f8159a00000ULL);
}
END_TEST

START_TEST(without_vvar_vclock)
{
	/* 5.6-6.12: one [vvar] of 4 pages right below a [vdso] of 2. No trailing newline either. */
	struct fr_maps m = parse("7fff3c7d6000-7fff3c7f7000 rw-p 00000000 00:00 0 [stack]\n"
				 "7fff3c7fa000-7fff3c7fe000 r--p 00000000 00:00 0 [vvar]\n"
				 "7fff3c7fe000-7fff3c800000 r-xp 00000000 00:00 0 [vdso]");

	SKIP_ON_32BIT("without_vvar_vclock");
	ck_assert_uint_eq(m.vvar, 0x7fff3c7fa000ULL);
	ck_assert_uint_eq(m.vvar_vclock, 0);
	ck_assert_uint_eq(m.vdso, 0x7fff3c7fe000ULL);
	ck_assert_uint_eq(m.vdso_end, 0x7fff3c800000ULL);
}
END_TEST

START_TEST(empty_and_absent)
{
	struct fr_maps m = parse("");

	SKIP_ON_32BIT("empty_and_absent");
	ck_assert_uint_eq(m.vvar | m.vvar_vclock | m.vdso, 0);
	/* valgrind-like: no vDSO at all. */
	m = parse("00400000-00401000 r-xp 00000000 fe:00 12 /bin/true\n"
		  "7ffee9e8f000-7ffee9eb0000 rw-p 00000000 00:00 0 [stack]\n");
	ck_assert_uint_eq(m.vvar | m.vvar_vclock | m.vdso, 0);
	/* Only the given length counts: the [vdso] line after it is not seen. */
	const char *t = "7f81599f8000-7f81599fc000 r--p 00000000 00:00 0 [vvar]\n"
			"7f81599fe000-7f8159a00000 r-xp 00000000 00:00 0 [vdso]\n";
	fr_maps_parse(t, strchr(t, '\n') + 1 - t, &m);
	ck_assert_uint_eq(m.vvar, 0x7f81599f8000ULL);
	ck_assert_uint_eq(m.vdso, 0);
}
END_TEST

/* File names containing the special names; each listed after the real lines, so a false match wins. */
static const char *const traps[] = {
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/[vdso]\n",
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/x[vdso]\n",
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/[vdso].so\n",
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/[vdso] (deleted)\n",
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/[vvar]/lib.so\n",
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/evil [vdso]\n",
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/evil [vvar]\n",
	"7f9000000000-7f9000001000 r--p 00000000 fe:00 4242 /tmp/evil [vvar_vclock]\n",
	"7f9000000000-7f9000001000 rw-p 00000000 00:00 0 [anon:[vdso]]\n",
};

START_TEST(file_names_do_not_match)
{
	char text[sizeof(maps_618) + 256];
	struct fr_maps m;

	SKIP_ON_32BIT("file_names_do_not_match");
	snprintf(text, sizeof(text), "%s%s", maps_618, traps[_i]);
	m = parse(text);
	ck_assert_msg(m.vvar == 0x7f81599f8000ULL && m.vvar_vclock == 0x7f81599fc000ULL &&
			      m.vdso == 0x7f81599fe000ULL,
		      "the line \"%.*s\" was taken for a special mapping: vvar %#lx vvar_vclock %#lx vdso %#lx",
		      (int)strlen(traps[_i]) - 1, traps[_i], (unsigned long)m.vvar, (unsigned long)m.vvar_vclock,
		      (unsigned long)m.vdso);
}
END_TEST

START_TEST(live_process)
{
	struct fr_maps m;
	uintptr_t auxv = (uintptr_t)getauxval(AT_SYSINFO_EHDR);

	errno = 4242;
	ck_assert_int_eq(fr_maps_read(&m), 0);
	ck_assert_int_eq(errno, 4242);
	if (!auxv) {
		printf("SKIP: live_process: no vDSO in this process (AT_SYSINFO_EHDR is 0)\n");
		return;
	}
	ck_assert_uint_eq(m.vdso, auxv);
	/* [vvar] (and [vvar_vclock] where the kernel has it, 6.13+) lie page-aligned below the vDSO. */
	ck_assert_uint_ne(m.vvar, 0);
	ck_assert_uint_eq(m.vvar % 4096, 0);
	ck_assert_uint_lt(m.vvar, m.vdso);
	if (m.vvar_vclock) {
		ck_assert_uint_gt(m.vvar_vclock, m.vvar);
		ck_assert_uint_lt(m.vvar_vclock, m.vdso);
	}
}
END_TEST

START_TEST(live_process_long_line)
{
	/* A mapped file whose maps line is longer than the reader's 2 KiB buffer, listed before the vDSO. */
	uintptr_t hint = (uintptr_t)getauxval(AT_SYSINFO_EHDR) - 0x10000000;
	char dir[4096] = "/tmp/fr-maps-XXXXXX", path[4096];
	size_t len;
	struct fr_maps m;
	void *p;
	int fd;

	if (!getauxval(AT_SYSINFO_EHDR)) {
		printf("SKIP: live_process_long_line: no vDSO in this process (AT_SYSINFO_EHDR is 0)\n");
		return;
	}
	ck_assert_ptr_nonnull(mkdtemp(dir));
	len = strlen(dir);
	for (int i = 0; len < 3000; i++) {
		len += (size_t)snprintf(dir + len, sizeof(dir) - len, "/%0200d", i);
		ck_assert_int_eq(mkdir(dir, 0700), 0);
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	p = mmap((void *)hint, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_msg((uintptr_t)p < (uintptr_t)getauxval(AT_SYSINFO_EHDR), "the long line is not before [vdso]");
	close(fd);
	ck_assert_int_eq(fr_maps_read(&m), 0);
	munmap(p, 4096);
	unlink(path);
	while (strlen(dir) > strlen("/tmp/fr-maps-XXXXXX")) {
		rmdir(dir);
		*strrchr(dir, '/') = '\0';
	}
	rmdir(dir);
	ck_assert_uint_eq(m.vdso, (uintptr_t)getauxval(AT_SYSINFO_EHDR));
	ck_assert_uint_ne(m.vvar, 0);
}
END_TEST

START_TEST(live_file_named_like_vdso)
{
	/* A real file "evil [vdso]" mapped above the vDSO, so that its line comes after the real one. */
	char dir[64] = "/tmp/fr-maps-XXXXXX", path[128];
	uintptr_t auxv = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	struct fr_maps m;
	void *p;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/evil [vdso]", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	p = mmap((void *)(auxv + 0x40000000), 4096, PROT_READ, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		unlink(path);
		rmdir(dir);
		fprintf(stderr, "maps: no free address above the vDSO; file-name case tested on text only\n");
		return;
	}
	/* Still linked while reading: a deleted file's line ends in " (deleted)". */
	ck_assert_int_eq(fr_maps_read(&m), 0);
	munmap(p, 4096);
	unlink(path);
	rmdir(dir);
	ck_assert_msg(m.vdso == auxv, "[vdso] read as %#lx (the file at %p), not %#lx", (unsigned long)m.vdso, p,
		      (unsigned long)auxv);
}
END_TEST

static Suite *maps_suite(void)
{
	Suite *s = suite_create("maps");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, with_vvar_vclock);
	tcase_add_test(tc, without_vvar_vclock);
	tcase_add_test(tc, empty_and_absent);
	tcase_add_loop_test(tc, file_names_do_not_match, 0, sizeof(traps) / sizeof(traps[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("live");
	tcase_add_test(tc, live_process);
	tcase_add_test(tc, live_process_long_line);
	tcase_add_test(tc, live_file_named_like_vdso);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(maps_suite());
}
