# SPDX-License-Identifier: MIT
# What the 32-bit ARM test folder can build, for the generic .cmake files (tests/CMakeLists.txt includes it once).
# FRT_HAS_TRACE_PROBE: e2e/probe_trace.c decodes x86-64 instructions and registers only, so 32-bit ARM
# has no e2e_path trace; the architecture-neutral steps suite counts its instructions.
set(FRT_HAS_TRACE_PROBE OFF)
# FRT_HAS_CALLREGS: callregs_asm.c and the register spy (spy_entry.h) exist here, in Thumb-2:
# the register-level syscall() probes and e2e_syscall, e2e_api are built.
set(FRT_HAS_CALLREGS ON)
