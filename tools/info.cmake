# SPDX-License-Identifier: MIT
# fastraw-info: runs the library's start-up decision in-process (fastraw_core, linked statically)
# and reports it with the kernel's clock data; built next to libfastraw.so.
add_executable(fastraw-info
  fastraw-info.c
  info_agree.c
  info_pages.c
  info_print.c
  info_sys.c)
target_link_libraries(fastraw-info PRIVATE fastraw_core fastraw_warnings ${CMAKE_DL_LIBS})
set_target_properties(fastraw-info PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
