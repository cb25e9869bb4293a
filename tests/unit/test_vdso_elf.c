/* SPDX-License-Identifier: MIT */
/* Unit tests of the vDSO symbol lookup: the live image, copies with one hash table, and non-images. */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>

#include "elf/elfsym.h"
#include "run_suite.h"
#include "cpu_test.h"
#include "arch/arch.h"
#include "elf/vdso_elf.h"
#include "proc/readable.h"

/* Functions every kernel's vDSO of this architecture exports (arch/<cpu>/.../vdso.lds.S), under FR_ARCH_VDSO_VERSION. */
static const char *const names[] = { FRT_VDSO_NAMES };
/* A version that is not the vDSO's (x86-64: a longer one; arm64: a prefix of LINUX_2.6.39). */
#define OTHER_VERSION FRT_VDSO_OTHER_VERSION
#define N_NAMES (sizeof(names) / sizeof(names[0]))
#define CG FR_ARCH_VDSO_CLOCK_GETTIME
#define VER FR_ARCH_VDSO_VERSION

/* This process's vDSO image, or NULL with a SKIP line: qemu-user maps none (AT_SYSINFO_EHDR 0). */
static const void *live(const char *test)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);

	if (!base)
		printf("SKIP: %s: no vDSO in this process (AT_SYSINFO_EHDR is 0)\n", test);
	return base;
}

/* The size of the image: its section headers are the last thing in it (the vDSO is a whole ELF file). */
static size_t image_size(const void *base)
{
	const ElfW(Ehdr) *eh = base;

	return eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
}

/* Where the dynamic loader, independently, put name@VER (it maps the vDSO as linux-vdso.so.1). */
static void *loader_sym(const char *name)
{
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);

	ck_assert_msg(h != NULL, "the loader does not know linux-vdso.so.1: %s", dlerror());
	return dlvsym(h, name, VER);
}

START_TEST(live_lookups)
{
	const char *base = live("live_lookups");
	size_t size;

	if (!base)
		return;
	size = image_size(base);
	ck_assert_ptr_eq(fr_vdso_base(), base);
	for (size_t i = 0; i < N_NAMES; i++) {
		void *p = fr_vdso_sym(base, names[i], VER);

		ck_assert_msg(p != NULL, "%s@%s not found", names[i], VER);
		ck_assert_msg((const char *)p > base && (const char *)p < base + size, "%s outside the image", names[i]);
		ck_assert_ptr_eq(p, loader_sym(names[i]));
		/* Any version: the same symbol. */
		ck_assert_ptr_eq(fr_vdso_sym(base, names[i], NULL), p);
		ck_assert_ptr_null(fr_vdso_sym(base, names[i], "LINUX_9.9"));
		ck_assert_ptr_null(fr_vdso_sym(base, names[i], OTHER_VERSION));
	}
#if FRT_HAS_VDSO_ALIASES
	/* clock_gettime is the weak alias of __vdso_clock_gettime. */
	ck_assert_ptr_eq(fr_vdso_sym(base, "clock_gettime", VER), fr_vdso_sym(base, CG, VER));
#endif
	ck_assert_ptr_null(fr_vdso_sym(base, CG "_nope", VER));
	ck_assert_ptr_null(fr_vdso_sym(base, "__vdso_clock_gettim", NULL));
	ck_assert_ptr_null(fr_vdso_sym(base, "__kernel_clock_gettim", NULL));
	ck_assert_ptr_null(fr_vdso_sym(base, "", NULL));
	/* The version definition's own name is an ABS object, not a function. */
	ck_assert_ptr_null(fr_vdso_sym(base, VER, NULL));
}
END_TEST

/* A function's code: where fr_vdso_sym puts it, its symbol's size, inside the image; none for others. */
START_TEST(live_code)
{
	const char *base = live("live_code");
	const uint8_t *code;
	size_t n = 0, size;

	if (!base)
		return;
	size = image_size(base);
	code = fr_vdso_code(base, CG, VER, &n);
	ck_assert_ptr_eq(code, fr_vdso_sym(base, CG, VER));
	ck_assert_msg(n > 0 && (const char *)code + n <= base + size, "%zu bytes at +%td of a %zu-byte image", n,
		      (const char *)code - base, size);
	ck_assert_ptr_null(fr_vdso_code(base, CG "_nope", VER, &n));
	ck_assert_ptr_null(fr_vdso_code(base, VER, NULL, &n));
	ck_assert_ptr_null(fr_vdso_code(NULL, CG, VER, &n));
}
END_TEST

START_TEST(live_function_works)
{
	const void *base = live("live_function_works");
	int (*cg)(clockid_t, struct timespec *);
	struct timespec a, b;

	if (!base)
		return;
	cg = (int (*)(clockid_t, struct timespec *))fr_vdso_sym(base, CG, VER);
	ck_assert_ptr_nonnull(cg);
	ck_assert_int_eq(cg(CLOCK_MONOTONIC, &a), 0);
	ck_assert_int_eq(clock_gettime(CLOCK_MONOTONIC, &b), 0);
	ck_assert(b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec));
	ck_assert_int_lt(b.tv_sec - a.tv_sec, 2);
}
END_TEST

/* A copy of the live image with dynamic tags tag1 and tag2 turned into DT_DEBUG; *found counts them. */
static char *copy_without(const char *base, ElfW(Sxword) tag1, ElfW(Sxword) tag2, int *found)
{
	size_t size = image_size(base);
	char *copy = aligned_alloc(4096, (size + 4095) & ~(size_t)4095);
	const ElfW(Ehdr) *eh;
	const ElfW(Phdr) *ph;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, base, size);
	eh = (const ElfW(Ehdr) *)copy;
	ph = (const ElfW(Phdr) *)(copy + eh->e_phoff);
	*found = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		/* d_ptr values are offsets in the image (p_vaddr 0): the copy resolves them against itself. */
		for (ElfW(Dyn) *d = (ElfW(Dyn) *)(copy + ph[i].p_offset); d->d_tag != DT_NULL; d++) {
			if (d->d_tag == tag1 || d->d_tag == tag2) {
				d->d_tag = DT_DEBUG;
				(*found)++;
			}
		}
	}
	return copy;
}

/* Lookups in a copy give the live offsets; the names of the hash each copy keeps. */
static void compare_copy(const char *base, const char *copy, const char *which)
{
	for (size_t i = 0; i < N_NAMES; i++) {
		const char *want = fr_vdso_sym(base, names[i], VER);
		const char *got = fr_vdso_sym(copy, names[i], VER);

		ck_assert_msg(got != NULL, "%s: %s not found", which, names[i]);
		ck_assert_msg(got - copy == want - base, "%s: %s at +%#lx, live +%#lx", which, names[i],
			      (long)(got - copy), (long)(want - base));
		ck_assert_ptr_eq(fr_vdso_sym(copy, names[i], NULL), got);
		ck_assert_ptr_null(fr_vdso_sym(copy, names[i], "LINUX_9.9"));
	}
	ck_assert_ptr_null(fr_vdso_sym(copy, "no_such_symbol", NULL));
}

START_TEST(sysv_hash_only)
{
	const char *base = live("sysv_hash_only");
	int found, has_hash;
	char *copy;

	if (!base)
		return;
	copy = copy_without(base, DT_GNU_HASH, DT_GNU_HASH, &found);
	free(copy_without(base, DT_HASH, DT_HASH, &has_hash));
	if (!has_hash) {
		fprintf(stderr, "vdso_elf: the live vDSO has no DT_HASH; only the GNU hash path is tested\n");
		free(copy);
		return;
	}
	ck_assert_msg(found, "the live vDSO has no DT_GNU_HASH to disable");
	compare_copy(base, copy, "DT_HASH only");
	free(copy);
}
END_TEST

START_TEST(gnu_hash_only)
{
	const char *base = live("gnu_hash_only");
	int found;
	char *copy;

	if (!base)
		return;
	copy = copy_without(base, DT_HASH, DT_HASH, &found);
	compare_copy(base, copy, "DT_GNU_HASH only");
	free(copy);
}
END_TEST

START_TEST(no_hash_table)
{
	const char *base = live("no_hash_table");
	int found;
	char *copy;

	if (!base)
		return;
	copy = copy_without(base, DT_HASH, DT_GNU_HASH, &found);
	ck_assert_int_ge(found, 1);
	ck_assert_ptr_null(fr_vdso_sym(copy, CG, VER));
	ck_assert_ptr_null(fr_vdso_sym(copy, CG, NULL));
	free(copy);
}
END_TEST

START_TEST(not_an_image)
{
	static char zeros[4096] __attribute__((aligned(64)));
	static char text[4096] __attribute__((aligned(64))) = "this is not an ELF file";
	const void *base = live("not_an_image (the 32-bit copy)");
	char *elf32 = aligned_alloc(4096, 8192);

	ck_assert_ptr_null(fr_vdso_sym(NULL, CG, VER));
	ck_assert_ptr_null(fr_vdso_sym(zeros, CG, VER));
	ck_assert_ptr_null(fr_vdso_sym(text, CG, NULL));
	/* An ELF identity of the other class (32-bit in a 64-bit process, and the reverse) is not this process's vDSO. */
	if (base) {
		memcpy(elf32, base, 4096);
		elf32[EI_CLASS] = FR_ELF_CLASS == ELFCLASS64 ? ELFCLASS32 : ELFCLASS64;
		ck_assert_ptr_null(fr_vdso_sym(elf32, CG, NULL));
	}
	free(elf32);
}
END_TEST

/*
 * A copy of the live image in pages of its own, each in turn made PROT_NONE, then the last one
 * unmapped: the image's extent and every lookup in it are refused (0, NULL) instead of faulting,
 * as for a program that unmapped its vDSO; whole, the copy's extent is its size in pages.
 */
START_TEST(unreadable_pages)
{
	const char *base = live("unreadable_pages");
	size_t size, pages;
	char *copy;

	if (!base)
		return;
	size = image_size(base);
	pages = (size + 4095) / 4096;
	copy = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(copy, MAP_FAILED);
	memcpy(copy, base, size);
	ck_assert_uint_eq(fr_elf_image_end(copy), (uintptr_t)copy + pages * 4096);
	ck_assert_ptr_nonnull(fr_vdso_sym(copy, CG, VER));
	for (size_t k = 0; k < pages; k++) {
		ck_assert_int_eq(mprotect(copy + k * 4096, 4096, PROT_NONE), 0);
		ck_assert_msg(fr_elf_image_end(copy) == 0, "page %zu of %zu PROT_NONE: extent still given", k, pages);
		ck_assert_msg(fr_vdso_sym(copy, CG, VER) == NULL, "page %zu of %zu PROT_NONE: lookup answered", k, pages);
		ck_assert_int_eq(mprotect(copy + k * 4096, 4096, PROT_READ | PROT_WRITE), 0);
	}
	ck_assert_int_eq(munmap(copy + (pages - 1) * 4096, 4096), 0);
	ck_assert_uint_eq(fr_elf_image_end(copy), 0);
	ck_assert_ptr_null(fr_vdso_sym(copy, CG, NULL));
	if (pages > 1)
		ck_assert_int_eq(munmap(copy, (pages - 1) * 4096), 0);
	ck_assert_uint_eq(fr_elf_image_end(copy), 0);
	ck_assert_ptr_null(fr_vdso_sym(copy, CG, VER));
}
END_TEST

/* fr_word_readable, the probe behind it: readable, PROT_NONE, unmapped, misaligned, NULL. */
START_TEST(word_probe)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(fr_word_readable(p), 1);
	ck_assert_int_eq(fr_word_readable(p + 4092), 1);
	/* The word's value equal to the one waited for (0): the zero timeout answers at once. */
	ck_assert_int_eq(*(volatile int *)(p + 4096), 0);
	ck_assert_int_eq(fr_word_readable(p + 4096), 1);
	ck_assert_int_eq(mprotect(p + 4096, 4096, PROT_NONE), 0);
	ck_assert_int_eq(fr_word_readable(p + 4096), 0);
	ck_assert_int_eq(munmap(p + 4096, 4096), 0);
	ck_assert_int_eq(fr_word_readable(p + 4096), 0);
	ck_assert_int_eq(fr_word_readable(p + 1), -1);
	ck_assert_int_eq(fr_word_readable(NULL), 0);
	ck_assert_int_eq(mprotect(p, 4096, PROT_READ), 0);
	ck_assert_int_eq(fr_word_readable(p), 1);
	munmap(p, 4096);
}
END_TEST

static Suite *vdso_elf_suite(void)
{
	Suite *s = suite_create("vdso_elf");
	TCase *tc = tcase_create("lookup");

	tcase_add_test(tc, live_lookups);
	tcase_add_test(tc, live_function_works);
	tcase_add_test(tc, live_code);
	tcase_add_test(tc, sysv_hash_only);
	tcase_add_test(tc, gnu_hash_only);
	tcase_add_test(tc, no_hash_table);
	tcase_add_test(tc, not_an_image);
	tcase_add_test(tc, unreadable_pages);
	tcase_add_test(tc, word_probe);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(vdso_elf_suite());
}
