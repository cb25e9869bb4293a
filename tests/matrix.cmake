# SPDX-License-Identifier: MIT
# The kernel matrix: the end-to-end suites booted under QEMU on other kernels and clocksources
# (scripts/kernel-matrix.sh). This file builds the guest's init and writes the manifest that
# tells it which suites exist and what environment CTest gives them.
if(FASTRAW_SANITIZE)
  # The guest has no sanitizer runtime to preload first, and timings are not the point there.
  return()
endif()

add_executable(matrix_init matrix/guest_init.c matrix/guest_speed.c)
target_include_directories(matrix_init PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(matrix_init PRIVATE fastraw_warnings)
target_link_options(matrix_init PRIVATE -static)

# Every end-to-end Check suite and the oracle, with their environment (generator expressions
# included).
set(fr_manifest "init $<TARGET_FILE:matrix_init>\n")
get_property(fr_all_tests DIRECTORY PROPERTY TESTS)
foreach(t ${fr_all_tests})
  get_test_property(${t} LABELS labels)
  if(NOT TARGET test_${t} OR NOT ("e2e" IN_LIST labels OR "oracle" IN_LIST labels))
    continue()
  endif()
  string(APPEND fr_manifest "suite ${t} $<TARGET_FILE:test_${t}>\n")
  get_test_property(${t} ENVIRONMENT env)
  foreach(e ${env})
    string(APPEND fr_manifest "env ${e}\n")
  endforeach()
endforeach()
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/matrix/manifest CONTENT "${fr_manifest}")

fr_add_script_test(kernel_matrix LABELS matrix SKIP TIMEOUT 3600 SERIAL
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/kernel-matrix.sh --no-build
          --build-dir ${CMAKE_BINARY_DIR})
