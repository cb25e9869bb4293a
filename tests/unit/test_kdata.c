/* SPDX-License-Identifier: MIT */
/* Unit tests of kdata.c: the page checks, the era tables and the layout choice, on synthetic pages of every era. */
#include <check.h>

#include "run_suite.h"
#include "synth.h"

static Suite *kdata_suite(void)
{
	Suite *s = suite_create("kdata");

	suite_add_tcase(s, kdata_check_tcase());
	suite_add_tcase(s, kdata_release_tcase());
	suite_add_tcase(s, kdata_pick_tcase());
	return s;
}

int main(void)
{
	return fr_run_suite(kdata_suite());
}
