# SPDX-License-Identifier: MIT
# Bit-exactness oracle: the kernel's vDSO code, copied and fed chosen counter values, against our math.
# Each architecture builds its own set from oracle/${FR_ARCH}/, with the CPU-neutral files of oracle/.
# The CPU's folder names its sources, time limit and skip code in oracle/<cpu>/oracle.cmake
# (FRT_ORACLE_SOURCES, FRT_ORACLE_TIMEOUT, FRT_ORACLE_SKIP_CODE if it can skip): nothing here names a CPU.
set(fr_oracle_shared oracle/rng.c oracle/vvar_entry.c oracle/seq_writer.c oracle/vdso_image.c oracle/our_reads.c)
# The oracle on the live pages, one file for every CPU: the CPU's names behind oracle/<cpu>/live_cpu.h.
set(fr_oracle_live oracle/live.c)
set(fr_oracle_cpu ${CMAKE_CURRENT_SOURCE_DIR}/oracle/${FR_ARCH}/oracle.cmake)
if(NOT EXISTS ${fr_oracle_cpu})
  message(FATAL_ERROR "tests/oracle/${FR_ARCH}/ has no oracle.cmake: a port's test folder names "
    "its oracle's sources there (docs/design.md, \"Adding an architecture\")")
endif()
include(${fr_oracle_cpu})
list(TRANSFORM FRT_ORACLE_SOURCES PREPEND oracle/${FR_ARCH}/)
fr_add_check_test(oracle
  SOURCES ${FRT_ORACLE_SOURCES} ${fr_oracle_shared}
  LIBS fastraw_core
  LABELS oracle
  TIMEOUT ${FRT_ORACLE_TIMEOUT})
if(DEFINED FRT_ORACLE_SKIP_CODE)
  set_tests_properties(oracle PROPERTIES SKIP_RETURN_CODE ${FRT_ORACLE_SKIP_CODE})
endif()
