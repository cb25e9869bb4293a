# SPDX-License-Identifier: MIT
# Transcript tests of the fastraw launcher: options, the environment it passes, the programs it refuses, install.
include(GNUInstallDirs)
add_executable(launcher-probe tools/launcher_probe.c)
target_link_libraries(launcher-probe PRIVATE fastraw_warnings ${CMAKE_DL_LIBS})

# Statically linked programs to be refused, plain and static-pie, where this toolchain links them.
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_LINK_OPTIONS -static)
check_c_source_compiles("int main(void) { return 0; }" FASTRAW_CAN_LINK_STATIC)
set(CMAKE_REQUIRED_FLAGS -fPIE)
set(CMAKE_REQUIRED_LINK_OPTIONS -static-pie)
check_c_source_compiles("int main(void) { return 0; }" FASTRAW_CAN_LINK_STATIC_PIE)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
set(launcher_static "")
set(launcher_static_pie "")
if(FASTRAW_CAN_LINK_STATIC)
  add_executable(launcher-static tools/launcher_static.c)
  target_link_options(launcher-static PRIVATE -static)
  set(launcher_static $<TARGET_FILE:launcher-static>)
endif()
if(FASTRAW_CAN_LINK_STATIC_PIE)
  add_executable(launcher-static-pie tools/launcher_static.c)
  target_compile_options(launcher-static-pie PRIVATE -fPIE)
  target_link_options(launcher-static-pie PRIVATE -static-pie)
  set(launcher_static_pie $<TARGET_FILE:launcher-static-pie>)
endif()

# The tools an install must place in bin/, as tools/launcher/launcher.cmake installs them.
set(launcher_installed fastraw fastraw-bench)
foreach(tool fastraw-latency fastraw-check fastraw-info)
  if(TARGET ${tool})
    list(APPEND launcher_installed ${tool})
  endif()
endforeach()
string(REPLACE ";" " " launcher_installed "${launcher_installed}")

include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)
set(launcher_env
  ${FR_TOOL_TARGET_ENV}
  FASTRAW_LAUNCHER=$<TARGET_FILE:fastraw-launcher>
  FASTRAW_LIB=$<TARGET_FILE:fastraw>
  LAUNCHER_PROBE=$<TARGET_FILE:launcher-probe>
  LAUNCHER_STATIC=${launcher_static}
  LAUNCHER_STATIC_PIE=${launcher_static_pie}
  LAUNCHER_VERSION=${PROJECT_VERSION}
  LAUNCHER_INSTALL_LIBDIR=${CMAKE_INSTALL_FULL_LIBDIR}
  LAUNCHER_LIBDIR=${CMAKE_INSTALL_LIBDIR}
  LAUNCHER_BINDIR=${CMAKE_INSTALL_BINDIR}
  LAUNCHER_INSTALLED=${launcher_installed}
  LAUNCHER_BUILD_DIR=${PROJECT_BINARY_DIR}
  CMAKE_COMMAND=${CMAKE_COMMAND})
# With FASTRAW_SANITIZE the launcher puts libfastraw.so (itself linked with ASan) before the ASan
# runtime, which ASan's start-up check would reject.
if(FASTRAW_SANITIZE)
  list(APPEND launcher_env ASAN_OPTIONS=verify_asan_link_order=0)
endif()

# The program's width against the library's: decided before the execve, so qemu-user runs it too.
fr_add_script_test(launcher_width LABELS launcher SKIP TIMEOUT 120
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/launcher_width.sh
  ENV ${launcher_env})
foreach(case usage env refuse static stats clocks install unreadable)
  # system: the launcher execve()s target programs, which qemu-user cannot (tool_info.cmake).
  fr_add_script_test(launcher_${case} LABELS launcher system SKIP TIMEOUT 120
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/launcher_${case}.sh
    ENV ${launcher_env})
endforeach()
