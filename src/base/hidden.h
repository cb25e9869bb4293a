/* SPDX-License-Identifier: MIT */
/* Why every header of src/ declares its names hidden: calls and addresses that need no relocation. */
#ifndef FR_BASE_HIDDEN_H
#define FR_BASE_HIDDEN_H

/*
 * -fvisibility=hidden hides what a file defines, not what it declares: a call from another
 * file to a function declared without it may be bound elsewhere, so under -fno-plt the compiler
 * reaches it through the GOT. The GOT holds the right address only once the loader has
 * relocated the library, and libfastraw's exports must work before that (an IFUNC resolver or
 * a constructor may call them first). x86-64's linker turns such GOT calls to a hidden
 * definition back into direct ones; arm64's does not. So each header of src/ wraps its own
 * declarations in
 *
 *     #pragma GCC visibility push(hidden)
 *     ...
 *     #pragma GCC visibility pop
 *
 * after its #include lines (system headers keep their visibility: libc's functions are
 * reached through the GOT, and never before relocation), and the compiler emits direct calls
 * (bl) and PC-relative addresses (adrp, add) to every function and object of the project.
 * tests/lint/check_tree.sh checks that every header does. This header holds no code: it is
 * where the rule is written down.
 */

#endif
