# SPDX-License-Identifier: MIT
# The fastraw launcher (included by tools/CMakeLists.txt); it finds the library through common/.
add_executable(fastraw-launcher
  ${CMAKE_CURRENT_LIST_DIR}/fastraw.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_elf.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_file.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_lib.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_target.c)
# src/ for arch/arch.h's names of FASTRAW_TSC's values.
target_include_directories(fastraw-launcher PRIVATE ${PROJECT_SOURCE_DIR}/tools ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(fastraw-launcher PRIVATE fastraw_tool_common fastraw_warnings)
target_compile_definitions(fastraw-launcher PRIVATE FASTRAW_VERSION="${PROJECT_VERSION}")
set_target_properties(fastraw-launcher PROPERTIES
  OUTPUT_NAME fastraw
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
# The launcher is used from the build tree too: build the library along with it.
add_dependencies(fastraw-launcher fastraw)

# Linked statically, the launcher runs on any glibc (an executable linked dynamically here needs
# this machine's __libc_start_main@GLIBC_2.34) and goes with the library to the systems it serves
# (docs/install.md, "The glibc floor"). It calls nothing that a static glibc has to load at run time (no NSS,
# iconv or dlopen). A sanitizer build links its runtime dynamically, and a toolchain without libc.a
# cannot link statically: the launcher stays dynamic there, and tests/floor says why.
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_LINK_OPTIONS -static)
check_c_source_compiles("int main(void) { return 0; }" FASTRAW_LAUNCHER_CAN_LINK_STATIC)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(FASTRAW_LAUNCHER_CAN_LINK_STATIC AND NOT FASTRAW_SANITIZE)
  set_property(GLOBAL PROPERTY FASTRAW_LAUNCHER_STATIC ON)
  target_link_options(fastraw-launcher PRIVATE -static)
else()
  set_property(GLOBAL PROPERTY FASTRAW_LAUNCHER_STATIC OFF)
endif()
