# SPDX-License-Identifier: MIT
# The x86-64 oracle's own sources, time limit and skip code, read by tests/oracle.cmake.
# Sources are named relative to this folder; the CPU-neutral ones of tests/oracle/ are added there.
# No skip code: this suite never exits 77.
set(FRT_ORACLE_SOURCES test_oracle.c regime_pvclock.c regime_hvclock.c compare.c pages.c values.c
  vdso_copy.c sites.c)
set(FRT_ORACLE_TIMEOUT 120)
# The oracle on the live pages (../live.c with live_cpu.h, ../live.h), which e2e_settime links:
# the comparison harness and the copy without the synthetic regimes.
set(FRT_LIVE_ORACLE_SOURCES compare.c pages.c values.c vdso_copy.c sites.c)
