# SPDX-License-Identifier: MIT
# musl, tested from the glibc build: scripts/musl.sh builds the library with musl-gcc in a
# sub-build (BUILD/musl) and the end-to-end probes with it, then runs this build's Check suites
# on them (the musl probes under the musl library). Check itself is not built for musl; the
# lookups musl has get a suite of their own here (tests/musl/), which only that script runs.
# The entry skips (77) with the reason when musl-gcc is missing and cannot be installed.
if(CMAKE_CROSSCOMPILING OR FASTRAW_SANITIZE OR NOT FR_LIBC STREQUAL "glibc")
  return()
endif()

add_executable(test_musl_lookup musl/test_musl_lookup.c e2e/harness.c)
target_include_directories(test_musl_lookup PRIVATE
  ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/support ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
target_link_libraries(test_musl_lookup PRIVATE PkgConfig::CHECK Threads::Threads fastraw_warnings)

# The suites the script runs, each with the probes it names (tests/e2e.cmake's pairs): exact RAW
# in every counter mode and a time namespace (bracket), the other clocks, NULL and bad ids
# (clocks), threads (causality), calibrated mode, forced and kept over fork, with handlers jumping
# out of it and in a time namespace before zero (calib), constructors, fork, signal handlers and
# racing first calls (lifecycle), syscall() and the API (api), syscall() by its registers, under
# seccomp and beside a later interposer (syscall), dlopen and dlclose (unload), the lookups
# (musl_lookup). e2e_env and e2e_vfork pass as well (50 s more):
# left out to keep the entry short.
set(fr_musl_suites
  e2e_bracket:bracket e2e_clocks:clocks e2e_causality:causality e2e_calib:calib,causality,calib_jump,calib_negative
  e2e_lifecycle:life,ctor,preinit e2e_api:sys,api e2e_syscall:efault,sys,regspy e2e_unload:unload
  musl_lookup:musl_lookup)
fr_add_script_test(musl_e2e LABELS musl SKIP TIMEOUT 600
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/musl.sh ${CMAKE_BINARY_DIR}/musl
          $<TARGET_FILE_DIR:test_e2e_bracket> ${FR_ARCH} ${fr_musl_suites}
  ENV "FR_GLIBC_LIB=$<TARGET_FILE:fastraw>")
