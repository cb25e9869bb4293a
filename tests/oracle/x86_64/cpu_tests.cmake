# SPDX-License-Identifier: MIT
# What the x86-64 test folder can build, for the generic .cmake files (tests/CMakeLists.txt includes it once).
# FRT_HAS_TRACE_PROBE: e2e/probe_trace.c decodes this CPU's instructions and registers
# (PTRACE_GETREGS, rip, int3), so e2e_path's single-stepping trace exists here.
set(FRT_HAS_TRACE_PROBE ON)
# FRT_HAS_CALLREGS: callregs_asm.c and the register spy (spy_entry.h) exist here: the
# register-level syscall() probes and e2e_syscall, e2e_api are built.
set(FRT_HAS_CALLREGS ON)
