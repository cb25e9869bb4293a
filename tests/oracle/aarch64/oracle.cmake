# SPDX-License-Identifier: MIT
# The arm64 oracle's own sources, time limit and skip code, read by tests/oracle.cmake.
# Sources are named relative to this folder; the CPU-neutral ones of tests/oracle/ are added there.
set(FRT_ORACLE_SOURCES test_oracle.c regimes.c compare.c pages.c vdso_copy.c sites.c trampolines.c)
set(FRT_ORACLE_TIMEOUT 300)
# Without a vDSO (qemu-user, where the cross build's suites run) there is nothing to copy: the
# suite exits 77.
set(FRT_ORACLE_SKIP_CODE 77)
# The oracle on the live pages (../live.c with live_cpu.h, ../live.h), which e2e_settime links:
# the comparison harness and the copy without the synthetic regimes.
set(FRT_LIVE_ORACLE_SOURCES compare.c pages.c vdso_copy.c sites.c trampolines.c)
