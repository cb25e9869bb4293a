# SPDX-License-Identifier: MIT
# The 32-bit ARM oracle's sources, time limit and skip code, read by tests/oracle.cmake.
# Not ported yet: test_oracle.c skips (77) with the reason. No live oracle (no FRT_LIVE_ORACLE_SOURCES):
# e2e_settime has no entry here.
set(FRT_ORACLE_SOURCES test_oracle.c)
set(FRT_ORACLE_TIMEOUT 300)
set(FRT_ORACLE_SKIP_CODE 77)
