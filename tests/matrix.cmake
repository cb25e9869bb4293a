# SPDX-License-Identifier: MIT
# The kernel matrix: the end-to-end suites booted under QEMU on other kernels and clocksources
# (scripts/kernel-matrix.sh). This file builds the guest's init and writes the manifest that
# tells it which suites exist and what environment CTest gives them, and tells the script the
# guests' architecture and, for a cross build, where the target's shared libraries are.
if(FASTRAW_SANITIZE)
  # The guest has no sanitizer runtime to preload first, and timings are not the point there.
  return()
endif()

add_executable(matrix_init matrix/guest_init.c oracle/${FR_ARCH}/guest_machine.c matrix/guest_speed.c)
target_include_directories(matrix_init PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(matrix_init PRIVATE fastraw_warnings)
target_link_options(matrix_init PRIVATE -static)

set(fr_manifest "init $<TARGET_FILE:matrix_init>\narch ${FR_ARCH}\n")
# A cross build's programs cannot be asked (ldd) for their libraries: the script resolves their
# DT_NEEDED in these directories, the compiler's libc first, then the test sysroot's.
if(CMAKE_CROSSCOMPILING)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libc.so.6
    OUTPUT_VARIABLE fr_libc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(fr_libdirs)
  if(IS_ABSOLUTE "${fr_libc}")
    get_filename_component(fr_libc_dir "${fr_libc}" DIRECTORY)
    get_filename_component(fr_libc_dir "${fr_libc_dir}" REALPATH)
    list(APPEND fr_libdirs "${fr_libc_dir}")
  endif()
  foreach(root ${CMAKE_SYSROOT} ${FASTRAW_SYSROOT})
    foreach(sub lib usr/lib)
      list(APPEND fr_libdirs "${root}/${sub}/${CMAKE_LIBRARY_ARCHITECTURE}" "${root}/${sub}")
    endforeach()
  endforeach()
  foreach(d ${fr_libdirs})
    if(IS_DIRECTORY "${d}")
      string(APPEND fr_manifest "libdir ${d}\n")
    endif()
  endforeach()
endif()
# Every end-to-end Check suite and the oracle, with their environment (generator expressions
# included).
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
# fastraw-latency, for the guests that measure a call's cost with and without the library
# (FR_MATRIX_LATENCY): staged in the initramfs like every env path.
if(TARGET fastraw-latency)
  string(APPEND fr_manifest "env FR_TOOL_LATENCY=$<TARGET_FILE:fastraw-latency>\n")
endif()
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/matrix/manifest CONTENT "${fr_manifest}")

fr_add_script_test(kernel_matrix LABELS matrix SKIP TIMEOUT 3600 SERIAL
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/kernel-matrix.sh --no-build
          --build-dir ${CMAKE_BINARY_DIR})
