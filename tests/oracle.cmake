# SPDX-License-Identifier: MIT
# Bit-exactness oracle: the kernel's vDSO code, copied and fed chosen counter values, against our math.
# Each architecture builds its own set: x86-64's in oracle/, arm64's in oracle/aarch64/.
if(FR_ARCH STREQUAL "aarch64")
  fr_add_check_test(oracle
    SOURCES oracle/aarch64/test_oracle.c oracle/aarch64/aregimes.c oracle/aarch64/aorun.c oracle/aarch64/apages.c
      oracle/aarch64/acopy.c oracle/aarch64/asites.c oracle/aarch64/atramp.c oracle/orng.c oracle/oentry.c oracle/oseq.c oracle/oimage.c oracle/oours.c
    LIBS fastraw_core
    LABELS oracle
    TIMEOUT 300)
  target_include_directories(test_oracle PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/oracle/aarch64)
  # Without a vDSO (qemu-user) there is nothing to copy: the suite exits 77.
  set_tests_properties(oracle PROPERTIES SKIP_RETURN_CODE 77)
else()
  fr_add_check_test(oracle
    SOURCES oracle/test_oracle.c oracle/oracle_pv.c oracle/oracle_hv.c oracle/orun.c oracle/opages.c oracle/ogen.c
      oracle/vcopy.c oracle/vsites.c oracle/orng.c oracle/oentry.c oracle/oseq.c oracle/oimage.c oracle/oours.c
    LIBS fastraw_core
    LABELS oracle
    TIMEOUT 120)
  target_include_directories(test_oracle PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/oracle)
endif()
