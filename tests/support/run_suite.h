/* SPDX-License-Identifier: MIT */
/* Runs one Check suite and turns its result into an exit status: every test module's main. */
#ifndef FR_TEST_RUN_SUITE_H
#define FR_TEST_RUN_SUITE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * A run asked for one case or suite by name (CK_RUN_CASE, CK_RUN_SUITE: the kernel matrix's
 * NAME:CASE) fails when that name ran nothing: a misspelt case would otherwise pass unseen.
 */
static inline int fr_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	const char *named = getenv("CK_RUN_CASE");
	int failed, ran;

	if (!named || !*named)
		named = getenv("CK_RUN_SUITE");
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	ran = srunner_ntests_run(sr);
	srunner_free(sr);
	if (named && *named && ran == 0) {
		fprintf(stderr, "no test ran: %s names no case of this suite\n", named);
		return EXIT_FAILURE;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
