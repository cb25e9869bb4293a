# SPDX-License-Identifier: MIT
# What the tools share (included first by tools/CMakeLists.txt): where to find libfastraw.so, and
# the check that their standard output was written.
include(GNUInstallDirs)

# The tools look for the library in the installed libdir, then at the same place relative to
# themselves (an installed tree moved or staged elsewhere), then beside themselves (a build tree).
file(RELATIVE_PATH fastraw_bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})

add_library(fastraw_tool_common STATIC
  ${CMAKE_CURRENT_LIST_DIR}/tool_libpath.c
  ${CMAKE_CURRENT_LIST_DIR}/tool_output.c)
target_include_directories(fastraw_tool_common PUBLIC ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(fastraw_tool_common PRIVATE fastraw_warnings)
target_compile_definitions(fastraw_tool_common PRIVATE
  FASTRAW_INSTALL_LIBDIR="${CMAKE_INSTALL_FULL_LIBDIR}"
  FASTRAW_BIN_TO_LIB="${fastraw_bin_to_lib}")
# The CPU the tools' own text is for (common/tool_arch.h), for every target of tools/.
add_compile_definitions(TOOL_ARCH_${FR_ARCH})
