# SPDX-License-Identifier: MIT
# The fastraw launcher, and the install rules for the whole project (included last by tools/CMakeLists.txt).
include(GNUInstallDirs)

# The launcher looks for the library in the installed libdir, then at the same place relative
# to itself (an installed tree moved or staged elsewhere), then beside itself (a build tree).
file(RELATIVE_PATH fastraw_bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})

add_executable(fastraw-launcher
  ${CMAKE_CURRENT_LIST_DIR}/fastraw.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_elf.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_lib.c
  ${CMAKE_CURRENT_LIST_DIR}/launcher_target.c)
target_include_directories(fastraw-launcher PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(fastraw-launcher PRIVATE fastraw_warnings)
target_compile_definitions(fastraw-launcher PRIVATE
  FASTRAW_VERSION="${PROJECT_VERSION}"
  FASTRAW_INSTALL_LIBDIR="${CMAKE_INSTALL_FULL_LIBDIR}"
  FASTRAW_BIN_TO_LIB="${fastraw_bin_to_lib}")
set_target_properties(fastraw-launcher PROPERTIES
  OUTPUT_NAME fastraw
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
# The launcher is used from the build tree too: build the library along with it.
add_dependencies(fastraw-launcher fastraw)

install(TARGETS fastraw LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/fastraw.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS fastraw-launcher fastraw-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(tool fastraw-latency fastraw-check fastraw-info)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
