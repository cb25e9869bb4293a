/* SPDX-License-Identifier: MIT */
/* Takes early_fn's address in data: relocating this library makes ld.so run early_lib's resolver. */
int early_fn(void);

int (*early_dep_ptr)(void) = early_fn;

int early_dep_call(void)
{
	return early_dep_ptr();
}
