# SPDX-License-Identifier: MIT
# Bit-exactness oracle: the kernel's vDSO code, copied and fed chosen TSC values, against our math.
fr_add_check_test(oracle
  SOURCES oracle/test_oracle.c oracle/oracle_pv.c oracle/oracle_hv.c oracle/orun.c oracle/opages.c oracle/ogen.c
    oracle/vcopy.c oracle/vsites.c
  LIBS fastraw_core
  LABELS oracle
  TIMEOUT 120)
target_include_directories(test_oracle PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/oracle)
