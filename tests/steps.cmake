# SPDX-License-Identifier: MIT
# Instructions per call, counted: one warm CLOCK_MONOTONIC_RAW call single-stepped (ptrace) in the
# kernel's vDSO and in libfastraw's ordered and unordered reads. Label e2e, so the kernel matrix
# runs it in every guest. Included after e2e.cmake (its fr_add_e2e_probe) and before matrix.cmake
# (which lists the e2e suites). Not with the sanitizers: an instrumented library, single-stepped,
# retries every seqcount window until the call passes through (as e2e_path).
if(FASTRAW_SANITIZE)
  return()
endif()

fr_add_e2e_probe(steps steps/probe_steps.c steps/stepper.c steps/warm.c e2e/elfwalk.c)
# The vDSO's names and the instruction encodings come from src/arch/, fastraw_info's struct from include/.
target_include_directories(e2e_probe_steps PRIVATE
  ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/steps)
# 32-bit ARM's kernel has no PTRACE_SINGLESTEP: its steps are breakpoints (steps_cpu.h's STEP_SOFTWARE),
# whose decoding softstep_arm's unit test checks on assembled code (under qemu-arm-static: no ptrace).
if(FR_ARCH STREQUAL "arm")
  target_sources(e2e_probe_steps PRIVATE steps/softstep_arm.c)
  fr_add_check_test(softstep_arm SOURCES steps/test_softstep_arm.c steps/softstep_arm.c LABELS unit)
  target_include_directories(test_softstep_arm PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/steps)
endif()

fr_add_check_test(e2e_steps
  SOURCES steps/test_e2e_steps.c e2e/harness.c
  ENV "FR_PRELOAD_FIRST=${FR_SANITIZER_RUNTIME}" "FR_PROBE_STEPS=$<TARGET_FILE:e2e_probe_steps>"
  LABELS e2e
  TIMEOUT 900)
target_include_directories(test_e2e_steps PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
add_dependencies(test_e2e_steps e2e_probe_steps)

# e2e_path's x86-64 trace probe (e2e.cmake) maps, waits for a tick and warms up with the same code.
if(TARGET e2e_probe_trace)
  target_sources(e2e_probe_trace PRIVATE steps/stepper.c steps/warm.c)
  target_include_directories(e2e_probe_trace PRIVATE
    ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/steps)
endif()
