# SPDX-License-Identifier: MIT
# The 32-bit ARM oracle's sources, time limit and skip code, read by tests/oracle.cmake.
# The ARM family's harness, copy and regimes are ../armfam/'s (shared with arm64); 32-bit ARM's own
# are its A32 instructions: the finder of the sites, the trampolines and their handler. No live
# oracle (no FRT_LIVE_ORACLE_SOURCES): e2e_settime has no entry here.
set(FRT_ORACLE_SOURCES ../armfam/test_oracle.c ../armfam/regimes.c ../armfam/compare.c ../armfam/pages.c
  ../armfam/vdso_copy.c ../armfam/vdso_elf.c ../armfam/trampoline_page.c sites.c trampolines.c copy_cpu.c)
set(FRT_ORACLE_TIMEOUT 300)
# Without a vDSO (qemu-user, where the cross build's suites run) there is nothing to copy: the
# suite exits 77.
set(FRT_ORACLE_SKIP_CODE 77)
