/* SPDX-License-Identifier: MIT */
/* Unit tests of the generalised symbol lookup on libc (relocated .dynamic) and of the shadow vDSO image. */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <errno.h>
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "interpose/shadow.h"
#include "run_suite.h"
#include "cpu_test.h"
#include "startup/runtime.h"
#include "elf/dynsym.h"
#include "elf/early.h"
#include "elf/nextsym.h"
#include "arch/arch.h"
#include "elf/vdso_elf.h"

/* ld.so's: the kernel's initial stack pointer. */
extern void *__libc_stack_end;

/* Whether this process has a vDSO; qemu-user maps none (AT_SYSINFO_EHDR 0): then a SKIP line. */
static int have_vdso(const char *test)
{
	if (fr_vdso_base())
		return 1;
	printf("SKIP: %s: no vDSO in this process (AT_SYSINFO_EHDR is 0)\n", test);
	return 0;
}

static void *libc_handle(void)
{
	void *h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);

	ck_assert_ptr_nonnull(h);
	return h;
}

START_TEST(libc_matches_dlsym)
{
	static const char *const names[] = { "dlsym", "dlvsym", "getauxval", "__getauxval", "clock_gettime", "printf" };
	void *h = libc_handle();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *want = dlsym(h, names[i]);

		ck_assert_ptr_nonnull(want);
		ck_assert_msg(fr_libc_sym(names[i], NULL) == want, "%s differs from dlsym's", names[i]);
	}
	ck_assert_ptr_eq(fr_libc_sym("dlsym", "GLIBC_2.34"), dlvsym(h, "dlsym", "GLIBC_2.34"));
	ck_assert_ptr_eq(fr_libc_sym("dlsym", "GLIBC_2.2.5"), dlvsym(h, "dlsym", "GLIBC_2.2.5"));
	ck_assert_ptr_eq(fr_libc_sym("getauxval", "GLIBC_2.16"), dlvsym(h, "getauxval", "GLIBC_2.16"));
	ck_assert_ptr_eq(fr_libc_sym("clock_gettime", "GLIBC_2.17"), dlvsym(h, "clock_gettime", "GLIBC_2.17"));
	ck_assert_ptr_null(fr_libc_sym("dlsym", "GLIBC_9.9"));
	ck_assert_ptr_null(fr_libc_sym("fastraw_no_such_symbol", NULL));
}
END_TEST

START_TEST(real_functions)
{
	void *h = libc_handle();

	ck_assert_ptr_eq((void *)fr_real_getauxval(), dlsym(h, "getauxval"));
	ck_assert_uint_eq(fr_auxval(AT_PAGESZ), getauxval(AT_PAGESZ));
	ck_assert_uint_eq(fr_auxval(AT_SYSINFO_EHDR), getauxval(AT_SYSINFO_EHDR));
}
END_TEST

/* The same tables with d_ptr made relative (as in the file): the lookup still finds the same symbol. */
START_TEST(relative_and_absolute)
{
	struct fr_elfsyms abs, rel;
	ElfW(Dyn) dyn[8];
	int n = 0;

	ck_assert_int_eq(fr_libc_tables(&abs), 0);
	ck_assert_uint_ne(abs.bias, 0);
	dyn[n++] = (ElfW(Dyn)){ DT_STRTAB, { (uintptr_t)abs.strtab - abs.bias } };
	dyn[n++] = (ElfW(Dyn)){ DT_SYMTAB, { (uintptr_t)abs.symtab - abs.bias } };
	dyn[n++] = (ElfW(Dyn)){ DT_GNU_HASH, { (uintptr_t)abs.gnu_hash - abs.bias } };
	dyn[n++] = (ElfW(Dyn)){ DT_VERSYM, { (uintptr_t)abs.versym - abs.bias } };
	dyn[n++] = (ElfW(Dyn)){ DT_VERDEF, { (uintptr_t)abs.verdef - abs.bias } };
	dyn[n] = (ElfW(Dyn)){ DT_NULL, { 0 } };
	ck_assert_int_eq(fr_elfsyms_from_dynamic(dyn, abs.bias, 0, &rel), 0);
	ck_assert_ptr_eq(rel.symtab, abs.symtab);
	ck_assert_ptr_eq(fr_elfsyms_lookup(&rel, "getauxval", "GLIBC_2.16"), fr_elfsyms_lookup(&abs, "getauxval", "GLIBC_2.16"));
	ck_assert_int_eq(fr_elfsyms_from_dynamic(dyn + n, abs.bias, 0, &rel), -1);
}
END_TEST

/*
 * The loader's rule: entries it relocates are addresses only where the bias is non-zero and
 * PT_DYNAMIC writable; DT_VERDEF is an offset either way.
 */
START_TEST(relocated_rule)
{
	struct fr_elfsyms abs, both;
	ElfW(Dyn) dyn[8];
	int n = 0;

	ck_assert_int_eq(fr_loader_relocated_dynamic(0, PF_R | PF_W), 0);
	ck_assert_int_eq(fr_loader_relocated_dynamic(0x1000, PF_R), 0);
	ck_assert_int_eq(fr_loader_relocated_dynamic(0x1000, PF_R | PF_W), 1);
	ck_assert_int_eq(fr_libc_tables(&abs), 0);
	dyn[n++] = (ElfW(Dyn)){ DT_STRTAB, { (uintptr_t)abs.strtab } };
	dyn[n++] = (ElfW(Dyn)){ DT_SYMTAB, { (uintptr_t)abs.symtab } };
	dyn[n++] = (ElfW(Dyn)){ DT_GNU_HASH, { (uintptr_t)abs.gnu_hash } };
	dyn[n++] = (ElfW(Dyn)){ DT_VERSYM, { (uintptr_t)abs.versym } };
	dyn[n++] = (ElfW(Dyn)){ DT_VERDEF, { (uintptr_t)abs.verdef - abs.bias } };
	dyn[n] = (ElfW(Dyn)){ DT_NULL, { 0 } };
	ck_assert_int_eq(fr_elfsyms_from_dynamic(dyn, abs.bias, 1, &both), 0);
	ck_assert_ptr_eq(both.strtab, abs.strtab);
	ck_assert_ptr_eq(both.verdef, abs.verdef);
	ck_assert_ptr_eq(fr_elfsyms_lookup(&both, "getauxval", "GLIBC_2.16"), dlvsym(libc_handle(), "getauxval", "GLIBC_2.16"));
}
END_TEST

/* Each object read from its dl_iterate_phdr entry agrees with the loader's own lookup in it. */
static int check_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct fr_elfsyms s;
	int *checked = arg;

	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libc.so.6"))
		return 0;
	ck_assert_int_eq(fr_elfsyms_from_phdrs(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &s), 0);
	ck_assert_ptr_eq(fr_elfsyms_lookup(&s, "clock_gettime", "GLIBC_2.17"), dlvsym(libc_handle(), "clock_gettime", "GLIBC_2.17"));
	*checked = 1;
	return 1;
}

START_TEST(tables_from_phdrs)
{
	Dl_info in;
	int checked = 0;

	ck_assert_ptr_nonnull(fr_dl_iterate_phdr());
	fr_dl_iterate_phdr()(check_object, &checked);
	ck_assert_int_eq(checked, 1);
	ck_assert_ptr_null(fr_chain_problem());
	/*
	 * ld.so's own _r_debug: this program's may be a copy of it (a copy relocation, at another
	 * address). Both head the same list.
	 */
	ck_assert_int_ne(dladdr(fr_rdebug(), &in), 0);
	ck_assert_str_eq(in.dli_sname, "_r_debug");
	ck_assert_ptr_eq(in.dli_saddr, fr_rdebug());
	ck_assert_ptr_nonnull(strstr(in.dli_fname, strrchr(FRT_LDSO_PATH, '/') + 1));
	ck_assert_ptr_eq(fr_rdebug()->r_map, _r_debug.r_map);
	/* The initial stack: argc, then argv, as the kernel laid them out. */
	ck_assert_ptr_nonnull(fr_stack_end());
	ck_assert_ptr_eq(fr_stack_end(), __libc_stack_end);
	ck_assert_int_eq(fr_relocated(), 1);
}
END_TEST

/* Both hash tables of the vDSO bound the symbol table alike. */
START_TEST(count_both_tables)
{
	struct fr_elfsyms s, gnu_only;

	if (!have_vdso("count_both_tables"))
		return;
	ck_assert_int_eq(fr_vdso_open(fr_vdso_base(), &s), 0);
	ck_assert_ptr_nonnull(s.hash);
	ck_assert_ptr_nonnull(s.gnu_hash);
	gnu_only = s;
	gnu_only.hash = NULL;
	ck_assert_uint_gt(fr_elfsyms_count(&s), 4);
	ck_assert_uint_eq(fr_elfsyms_count(&gnu_only), fr_elfsyms_count(&s));
}
END_TEST

START_TEST(shadow_image)
{
	const void *real = fr_vdso_base();
	const void *shadow;
	/* The vDSO's other functions, which the shadow keeps as the kernel's. */
	static const char *const others[] = { FRT_VDSO_OTHERS };
	uintptr_t lo, hi;
	struct timespec ts;

	if (!have_vdso("shadow_image"))
		return;
	/* Asked for in the starting environment (main): the first fr_shadow_get settles for good. */
	shadow = fr_shadow_get(real);

	ck_assert_ptr_nonnull(real);
	ck_assert_ptr_ne(shadow, real);
	ck_assert_ptr_eq(fr_shadow_get(real), shadow);
	ck_assert_int_eq(fr_vdso_range(&lo, &hi), 0);
	ck_assert_uint_eq(lo, (uintptr_t)real);
	ck_assert_uint_eq((uintptr_t)shadow % 4096, 0);
	ck_assert_ptr_eq(fr_vdso_sym(shadow, FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION),
			 (void *)fr_vdso_clock_gettime);
#if FRT_HAS_VDSO_ALIASES
	ck_assert_ptr_eq(fr_vdso_sym(shadow, "clock_gettime", "LINUX_2.6"), (void *)fr_vdso_clock_gettime);
#endif
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		ck_assert_ptr_eq(fr_vdso_sym(shadow, others[i], FR_ARCH_VDSO_VERSION),
				 fr_vdso_sym(real, others[i], FR_ARCH_VDSO_VERSION));
	/* Only st_value differs: the rest of the image is the kernel's byte for byte. */
	ck_assert_int_eq(memcmp(shadow, real, sizeof(ElfW(Ehdr))), 0);
	ck_assert_int_eq(fr_vdso_clock_gettime(CLOCK_MONOTONIC_RAW, &ts), 0);
	ck_assert_int_eq(fr_vdso_clock_gettime(CLOCK_MONOTONIC_RAW, NULL), -EFAULT);
}
END_TEST

/* The walk from this program's own entry agrees with the loader's RTLD_NEXT from here, default versions included. */
START_TEST(next_matches_rtld_next)
{
	static const char *const names[] = { "printf", "clock_gettime", "getauxval", "dlsym", "dlvsym", "syscall" };

	ck_assert_int_eq(fr_self_loaded_at_start(), 1);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ck_assert_msg(fr_next_sym(names[i]) == dlsym(RTLD_NEXT, names[i]), "%s differs from RTLD_NEXT's", names[i]);
	ck_assert_ptr_null(fr_next_sym("fastraw_no_such_symbol"));
	/* libc comes after this program; the program itself does not. */
	ck_assert_int_eq(fr_place_of(dlsym(RTLD_NEXT, "printf")), FR_PLACE_AFTER);
	ck_assert_int_ne(fr_place_of((const void *)libc_handle), FR_PLACE_AFTER);
}
END_TEST


static Suite *dynsym_suite(void)
{
	Suite *s = suite_create("dynsym");
	TCase *tc = tcase_create("dynsym");

	tcase_add_test(tc, libc_matches_dlsym);
	tcase_add_test(tc, real_functions);
	tcase_add_test(tc, relative_and_absolute);
	tcase_add_test(tc, relocated_rule);
	tcase_add_test(tc, tables_from_phdrs);
	tcase_add_test(tc, count_both_tables);
	tcase_add_test(tc, shadow_image);
	tcase_add_test(tc, next_matches_rtld_next);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/*
	 * The library reads FASTRAW_* once, from the environment the process started with: the
	 * shadow image is asked for there (tests/unit.cmake sets FASTRAW_SHADOW_VDSO=1). Running the
	 * program again from here would not do under qemu-user, where /proc/self/exe is the emulator.
	 */
	if (!getenv("FASTRAW_SHADOW_VDSO")) {
		fprintf(stderr, "test_dynsym: run it with FASTRAW_SHADOW_VDSO=1 (ctest does)\n");
		return 1;
	}
	return fr_run_suite(dynsym_suite());
}
