/* SPDX-License-Identifier: MIT */
/* Runs one Check suite and turns its result into an exit status: every test module's main. */
#ifndef FR_TEST_RUN_SUITE_H
#define FR_TEST_RUN_SUITE_H

#include <check.h>
#include <stdlib.h>

static inline int fr_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
