# SPDX-License-Identifier: MIT
# The fastraw launcher (included by tools/CMakeLists.txt); it finds the library through common/.
add_executable(fastraw-launcher
  ${CMAKE_CURRENT_LIST_DIR}/fastraw.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_elf.c
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
