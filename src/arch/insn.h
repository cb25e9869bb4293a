/* SPDX-License-Identifier: MIT */
/* The instruction encodings of this architecture that the tests look for (the library decodes none; its one operand scan is fr_arch_abs_refs, arch.h). */
#ifndef FR_ARCH_INSN_H
#define FR_ARCH_INSN_H

#if defined(__x86_64__)
#include "arch/x86_64/insn.h"
#elif defined(__aarch64__)
#include "arch/aarch64/insn.h"
#elif defined(__arm__)
#include "arch/arm/insn.h"
#else
#error "libfastraw: no src/arch/ folder for this architecture"
#endif

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

#pragma GCC visibility pop

#endif
