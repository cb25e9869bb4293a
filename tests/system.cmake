# SPDX-License-Identifier: MIT
# Whole systems booted with libfastraw in /etc/ld.so.preload (label boot): Debian 12 and 11 on
# x86-64 and Debian 12 on arm64, each under QEMU (TCG) against a control boot without it
# (tests/system/boot.sh). The first run makes each disk image with mmdebstrap into the matrix
# cache (400-450 MB each; idle 0.6 min on x86-64, 3 min for arm64 under qemu-user, 17 min beside
# a CI run); a boot pair then takes 1.3-1.5 min idle, 2-5 min beside a CI run. Skipped (77) with the
# reason where root, mmdebstrap, QEMU, the archive or (arm64) qemu-user binfmt cannot be had.
if(CMAKE_CROSSCOMPILING OR FASTRAW_SANITIZE OR NOT FR_LIBC STREQUAL "glibc")
  return()
endif()

if(FR_ARCH STREQUAL "x86_64")
  foreach(suite bookworm bullseye)
    fr_add_script_test(boot_${suite}_amd64 LABELS boot SKIP TIMEOUT 3600
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/system/boot.sh ${suite} amd64
      ENV FR_SOURCE_DIR=${PROJECT_SOURCE_DIR} FASTRAW_LIB=$<TARGET_FILE:fastraw>)
  endforeach()
  # The arm64 library is the cross build's (tests/aarch64.cmake's aarch64_build).
  fr_add_script_test(boot_bookworm_arm64 LABELS boot aarch64 SKIP TIMEOUT 3600
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/system/boot.sh bookworm arm64
    ENV FR_SOURCE_DIR=${PROJECT_SOURCE_DIR} FASTRAW_LIB=${CMAKE_BINARY_DIR}/aarch64/libfastraw.so)
  set_tests_properties(boot_bookworm_arm64 PROPERTIES DEPENDS aarch64_build)
elseif(FR_ARCH STREQUAL "aarch64")
  fr_add_script_test(boot_bookworm_arm64 LABELS boot SKIP TIMEOUT 3600
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/system/boot.sh bookworm arm64
    ENV FR_SOURCE_DIR=${PROJECT_SOURCE_DIR} FASTRAW_LIB=$<TARGET_FILE:fastraw>)
endif()
