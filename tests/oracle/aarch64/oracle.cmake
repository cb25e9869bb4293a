# SPDX-License-Identifier: MIT
# The arm64 oracle's sources, time limit and skip code, read by tests/oracle.cmake.
# Sources are named relative to this folder; the CPU-neutral ones of tests/oracle/ are added there.
# The ARM family's harness, copy and regimes are ../armfam/'s (shared with 32-bit ARM); arm64's
# own are its instructions: the finder of the sites, the trampolines and their handler.
set(FRT_ARMFAM_SOURCES ../armfam/compare.c ../armfam/pages.c ../armfam/vdso_copy.c ../armfam/vdso_elf.c
  ../armfam/trampoline_page.c)
set(FRT_ORACLE_SOURCES ../armfam/test_oracle.c ../armfam/regimes.c ${FRT_ARMFAM_SOURCES} sites.c trampolines.c
  copy_cpu.c)
set(FRT_ORACLE_TIMEOUT 300)
# Without a vDSO (qemu-user, where the cross build's suites run) there is nothing to copy: the
# suite exits 77.
set(FRT_ORACLE_SKIP_CODE 77)
# The oracle on the live pages (../live.c with live_cpu.h, ../live.h), which e2e_settime links:
# the comparison harness and the copy without the synthetic regimes.
set(FRT_LIVE_ORACLE_SOURCES ${FRT_ARMFAM_SOURCES} sites.c trampolines.c copy_cpu.c)
