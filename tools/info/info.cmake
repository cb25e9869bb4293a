# SPDX-License-Identifier: MIT
# fastraw-info: runs the library's start-up decision in-process (fastraw_core, linked statically)
# and reports it with the kernel's clock data; built next to libfastraw.so.
add_executable(fastraw-info
  ${CMAKE_CURRENT_LIST_DIR}/fastraw-info.c
  ${CMAKE_CURRENT_LIST_DIR}/info_agree.c
  ${CMAKE_CURRENT_LIST_DIR}/info_pages.c
  ${CMAKE_CURRENT_LIST_DIR}/info_print.c
  ${CMAKE_CURRENT_LIST_DIR}/info_sys.c)
target_include_directories(fastraw-info PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(fastraw-info PRIVATE fastraw_core fastraw_tool_common fastraw_warnings ${CMAKE_DL_LIBS})
set_target_properties(fastraw-info PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
