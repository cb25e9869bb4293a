# SPDX-License-Identifier: MIT
# Bit-exactness oracle: the kernel's vDSO code, copied and fed chosen counter values, against our math.
# Each architecture builds its own set from oracle/${FR_ARCH}/, with the CPU-neutral files of oracle/.
set(fr_oracle_shared oracle/rng.c oracle/vvar_entry.c oracle/seq_writer.c oracle/vdso_image.c oracle/our_reads.c)
if(FR_ARCH STREQUAL "aarch64")
  fr_add_check_test(oracle
    SOURCES oracle/aarch64/test_oracle.c oracle/aarch64/regimes.c oracle/aarch64/compare.c oracle/aarch64/pages.c
      oracle/aarch64/vdso_copy.c oracle/aarch64/sites.c oracle/aarch64/trampolines.c ${fr_oracle_shared}
    LIBS fastraw_core
    LABELS oracle
    TIMEOUT 300)
  # Without a vDSO (qemu-user) there is nothing to copy: the suite exits 77.
  set_tests_properties(oracle PROPERTIES SKIP_RETURN_CODE 77)
else()
  fr_add_check_test(oracle
    SOURCES oracle/x86_64/test_oracle.c oracle/x86_64/regime_pvclock.c oracle/x86_64/regime_hvclock.c
      oracle/x86_64/compare.c oracle/x86_64/pages.c oracle/x86_64/values.c oracle/x86_64/vdso_copy.c
      oracle/x86_64/sites.c ${fr_oracle_shared}
    LIBS fastraw_core
    LABELS oracle
    TIMEOUT 120)
endif()
