/* SPDX-License-Identifier: MIT */
/* The instruction encodings of this architecture that the tests look for (the library decodes none; its one operand scan is fr_arch_abs_refs, arch.h). */
#ifndef FR_ARCH_INSN_H
#define FR_ARCH_INSN_H

#include "arch/cpu_dir.h"
#include FR_CPU_FILE(insn.h)

#endif
