# SPDX-License-Identifier: MIT
# What `cmake --install` places: the library with its SONAME links, the header, fastraw.pc, the
# CMake package (fastraw::fastraw), the tools, the man pages and the copyright; all relocatable.
# Each rule names its component, the package it goes into (cmake/FastrawPackage.cmake): runtime
# (package fastraw: what a preloading host needs, built to the glibc floor) or tools (package
# fastraw-tools: the programs built for the build machine's glibc). man/CMakeLists.txt does the same.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS fastraw EXPORT fastrawTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/fastraw.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT runtime)
# The launcher and the tools when they are built (FASTRAW_BUILD_TOOLS).
if(TARGET fastraw-launcher)
  install(TARGETS fastraw-launcher RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()
foreach(tool fastraw-bench fastraw-latency fastraw-check fastraw-info)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  endif()
endforeach()

# pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}), so a tree
# installed with --prefix, staged with DESTDIR or unpacked from the .deb needs no editing.
set(fastraw_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH fastraw_pc_to_prefix ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" fastraw_pc_to_prefix "${fastraw_pc_to_prefix}")
# An absolute libdir or includedir given at configure time stays absolute (and not relocatable).
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(fastraw_pc_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(fastraw_pc_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/fastraw.pc.in ${PROJECT_BINARY_DIR}/fastraw.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/fastraw.pc DESTINATION ${fastraw_pcdir} COMPONENT runtime)

# CMake package: find_package(fastraw) gives the imported target fastraw::fastraw. Versions
# with the same major are compatible, as the SONAME promises (docs/install.md, "ABI").
set(fastraw_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/fastraw)
install(EXPORT fastrawTargets NAMESPACE fastraw:: DESTINATION ${fastraw_cmakedir} COMPONENT runtime)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/fastrawConfig.cmake.in
  ${PROJECT_BINARY_DIR}/fastrawConfig.cmake INSTALL_DESTINATION ${fastraw_cmakedir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/fastrawConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fastrawConfig.cmake ${PROJECT_BINARY_DIR}/fastrawConfigVersion.cmake
  DESTINATION ${fastraw_cmakedir} COMPONENT runtime)

# The license in Debian's machine-readable format, where packages keep it: each package has its
# own copy in its own doc folder (Debian policy 12.5; RHEL keeps /usr/share/doc/<package> too).
file(READ ${PROJECT_SOURCE_DIR}/LICENSE fastraw_license)
string(REGEX MATCH "Copyright \\(c\\) [^\n]*" fastraw_copyright_line "${fastraw_license}")
string(REGEX REPLACE "^Copyright \\(c\\) " "" fastraw_copyright_line "${fastraw_copyright_line}")
string(REGEX REPLACE "^MIT License\n\nCopyright [^\n]*\n\n" "" fastraw_license "${fastraw_license}")
string(REGEX REPLACE "\n\n" "\n.\n" fastraw_license "${fastraw_license}")
string(REGEX REPLACE "\n$" "" fastraw_license "${fastraw_license}")
string(REPLACE "\n" "\n " fastraw_license "${fastraw_license}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/copyright.in ${PROJECT_BINARY_DIR}/copyright @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(FILES ${PROJECT_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/fastraw-tools
  COMPONENT tools)
