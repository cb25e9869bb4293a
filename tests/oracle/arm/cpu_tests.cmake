# SPDX-License-Identifier: MIT
# What the 32-bit ARM test folder can build, for the generic .cmake files (tests/CMakeLists.txt includes it once).
# FRT_HAS_TRACE_PROBE: e2e/probe_trace.c decodes x86-64 instructions and registers only, so 32-bit ARM
# has no e2e_path trace; the architecture-neutral steps suite counts its instructions.
set(FRT_HAS_TRACE_PROBE OFF)
# FRT_HAS_CALLREGS: the register-level syscall() call and the register spy are not written in
# 32-bit ARM assembly yet: no e2e_syscall, no e2e_api here.
set(FRT_HAS_CALLREGS OFF)
