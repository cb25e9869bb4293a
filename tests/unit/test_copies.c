/* SPDX-License-Identifier: MIT */
/* Unit tests of telling a copy of libfastraw from other objects, and of a program that is no later copy. */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdlib.h>

#include "ksys.h"
#include "run_suite.h"
#include "elf/nextsym.h"
#include "passthru/copies.h"
#include "elf/dynsym.h"

/* The built library is a copy by its tables; libc and this program, which links the core statically, are not. */
START_TEST(tells_copies)
{
	const char *path = getenv("FASTRAW_LIB");
	struct fr_elfsyms s;
	struct link_map *lm = NULL;
	void *h;

	ck_assert_ptr_nonnull(path);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(h != NULL, "%s", dlerror());
	ck_assert_int_eq(dlinfo(h, RTLD_DI_LINKMAP, &lm), 0);
	ck_assert_int_eq(fr_elfsyms_from_dynamic(lm->l_ld, lm->l_addr, fr_loader_relocated_dynamic(lm->l_addr, PF_W), &s), 0);
	ck_assert_int_eq(fr_copy_is(&s), 1);
	ck_assert_int_eq(fr_libc_tables(&s), 0);
	ck_assert_int_eq(fr_copy_is(&s), 0);
	lm = NULL;
	ck_assert_int_eq(dlinfo(dlopen(NULL, RTLD_NOW), RTLD_DI_LINKMAP, &lm), 0);
	ck_assert_int_eq(fr_elfsyms_from_dynamic(lm->l_ld, lm->l_addr, fr_loader_relocated_dynamic(lm->l_addr, PF_W), &s), 0);
	ck_assert_int_eq(fr_copy_is(&s), 0);
}
END_TEST

/* No copy before this program: nothing is sent anywhere, and the forwarder falls back on the chain (libc). */
START_TEST(first_of_its_kind)
{
	struct timespec a, m, b;

	ck_assert_int_eq(fr_copy_later(), 0);
	ck_assert_ptr_null(fr_copy_first_sym("clock_gettime"));
	ck_assert_ptr_null((void *)fr_copy_pass());
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	ck_assert_int_eq(fr_copy_clock_gettime(CLOCK_MONOTONIC_RAW, &m), 0);
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	ck_assert(ts_ns(&a) <= ts_ns(&m) && ts_ns(&m) <= ts_ns(&b));
}
END_TEST

static Suite *copies_suite(void)
{
	Suite *s = suite_create("copies");
	TCase *tc = tcase_create("copies");

	tcase_add_test(tc, tells_copies);
	tcase_add_test(tc, first_of_its_kind);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(copies_suite());
}
