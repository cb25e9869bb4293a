# SPDX-License-Identifier: MIT
# The packages (`cpack -G DEB`, `cpack -G RPM` in the build directory), two of each, split as
# distributions split a library from its tools: fastraw (component runtime: the library with its
# SONAME links, header, pkg-config and CMake files, the launcher, libfastraw(7), fastraw(1), the
# copyright), built to the glibc floor, and fastraw-tools (component tools: fastraw-latency,
# -check, -info, -bench and their pages), built for the build machine's glibc, which needs
# fastraw of the same version. Everything under /usr. No maintainer script touches
# /etc/ld.so.preload; the RPM runs ldconfig, the .deb leaves it to dpkg's trigger.
#
# The header and the CMake and pkg-config files stay in fastraw (no -dev package): they are four
# small text files, and the library is one a program preloads, not one most programs link.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fastraw)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The libfastraw authors")
set(CPACK_PACKAGE_CONTACT "The libfastraw authors")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL runtime tools)
set(CPACK_COMPONENTS_GROUPING IGNORE)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)

set(fr_pkg_about "libfastraw is an LD_PRELOAD library for ${FR_ARCH} Linux that answers \
clock_gettime(CLOCK_MONOTONIC_RAW) in-process, with the kernel's own calibration from the vDSO \
data pages, and passes every other clock to the vDSO.")
# Each package's summary is the first line of its Debian description: no
# CPACK_PACKAGE_DESCRIPTION_SUMMARY, which CPack would put in front of both.
set(fr_pkg_runtime_summary
  "clock_gettime(CLOCK_MONOTONIC_RAW) from the CPU counter, bit-exact with the kernel")
set(fr_pkg_runtime_about "${fr_pkg_about} This package holds the library, its header, \
pkg-config and CMake files, and the fastraw launcher, with their man pages.")
set(fr_pkg_tools_summary "libfastraw's latency, check, info and bench tools")
set(fr_pkg_tools_about "${fr_pkg_about} This package holds the fastraw-latency, fastraw-check, \
fastraw-info and fastraw-bench tools, with their man pages.")

# Debian: fastraw_<version>_<arch>.deb and fastraw-tools_<version>_<arch>.deb, the library in
# Debian's multiarch libdir, /usr/lib/<triplet> (the compiler's library architecture:
# x86_64-linux-gnu, arm-linux-gnueabihf), whatever prefix and libdir this tree has. GNUInstallDirs
# picks it itself only for the prefix /usr on a Debian machine, and never for a cross build.
if(CMAKE_LIBRARY_ARCHITECTURE)
  set(fr_deb_libdir lib/${CMAKE_LIBRARY_ARCHITECTURE})
else()
  set(fr_deb_libdir lib)
endif()
set(FASTRAW_DEB_LIBDIR ${fr_deb_libdir} CACHE STRING "The .deb's libdir under /usr (Debian's multiarch one)")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${FR_ARCH_DEB})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME fastraw)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME fastraw-tools)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "${fr_pkg_runtime_summary}\n${fr_pkg_runtime_about}")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "${fr_pkg_tools_summary}\n${fr_pkg_tools_about}")
# fastraw-tools: Depends: fastraw (= <version>), from CPACK_COMPONENT_TOOLS_DEPENDS.
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
# Depends from the binaries' own needs where dpkg-shlibdeps can compute them; otherwise the
# oldest glibc whose symbol versions they use: 2.17 for the floor the library and the launcher
# keep (arm64's first glibc), 2.34 for the tools (the merged libpthread and libdl). A cross build
# has no dpkg database of the target's libc to ask.
find_program(FASTRAW_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(FASTRAW_DPKG_SHLIBDEPS AND NOT CMAKE_CROSSCOMPILING)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libc6 (>= 2.17)")
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "libc6 (>= 2.34)")
endif()
# A shlibs file for packages built against this one, and ldconfig run by dpkg's trigger.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

# RPM: fastraw-<version>-1.<arch>.rpm and fastraw-tools-<version>-1.<arch>.rpm, Requires from
# rpmbuild's own reading of the ELF files (libc.so.6(GLIBC_2.14)(64bit) and the like).
set(FASTRAW_RPM_LIBDIR lib64 CACHE STRING "The RPM's libdir under /usr (RHEL's: lib64)")
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_RELEASE 1)
set(CPACK_RPM_PACKAGE_LICENSE MIT)
set(CPACK_RPM_PACKAGE_ARCHITECTURE ${FR_ARCH})
set(CPACK_RPM_PACKAGE_AUTOREQPROV yes)
# No /usr/lib/.build-id links (the .deb has none either, and RHEL 7's rpm knows none), and no
# Requires /usr/bin/pkg-config for fastraw.pc: preloading the library needs no pkg-config.
set(CPACK_RPM_SPEC_MORE_DEFINE "%define _build_id_links none
%global __requires_exclude ^/usr/bin/pkg-config$")
# rpm -i --prefix=DIR works: the launcher, the tools, fastraw.pc and the CMake files find the
# library relative to themselves.
set(CPACK_RPM_PACKAGE_RELOCATABLE ON)
set(CPACK_RPM_RUNTIME_PACKAGE_NAME fastraw)
set(CPACK_RPM_TOOLS_PACKAGE_NAME fastraw-tools)
set(CPACK_RPM_RUNTIME_PACKAGE_SUMMARY "${fr_pkg_runtime_summary}")
set(CPACK_RPM_TOOLS_PACKAGE_SUMMARY "${fr_pkg_tools_summary}")
set(CPACK_RPM_RUNTIME_PACKAGE_DESCRIPTION "${fr_pkg_runtime_about}")
set(CPACK_RPM_TOOLS_PACKAGE_DESCRIPTION "${fr_pkg_tools_about}")
set(CPACK_RPM_RUNTIME_PACKAGE_GROUP "System Environment/Libraries")
set(CPACK_RPM_TOOLS_PACKAGE_GROUP "Development/Tools")
set(CPACK_RPM_TOOLS_PACKAGE_REQUIRES "fastraw = ${PROJECT_VERSION}")
set(CPACK_RPM_RUNTIME_POST_INSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm-ldconfig.sh)
set(CPACK_RPM_RUNTIME_POST_UNINSTALL_SCRIPT_FILE ${CMAKE_CURRENT_LIST_DIR}/rpm-ldconfig.sh)
# Folders the system's own packages (filesystem, man-db, pkgconf) own on RHEL: not ours.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
  /usr/${FASTRAW_RPM_LIBDIR}/pkgconfig /usr/${FASTRAW_RPM_LIBDIR}/cmake
  /usr/share/man /usr/share/man/man1 /usr/share/man/man7)
# RHEL's libdir is /usr/lib64 (x86_64 and aarch64), Debian's /usr/lib/<triplet>, and the
# launcher, the tools, fastraw.pc, the CMake files and the man pages carry the libdir they were
# configured with. So each format is made from a tree configured with its libdir: this one when
# it is (prefix /usr and that libdir: a build with -DCMAKE_INSTALL_PREFIX=/usr on RHEL, or on
# Debian natively), otherwise a second build of the library and the tools, without the tests,
# in package-rpm/ or package-deb/ here, made by `cpack -G RPM` or `-G DEB`
# (cmake/FastrawCPackProject.cmake).
set(CPACK_FASTRAW_RPM_LIBDIR ${FASTRAW_RPM_LIBDIR})
set(CPACK_FASTRAW_DEB_LIBDIR ${FASTRAW_DEB_LIBDIR})
foreach(fr_format RPM DEB)
  string(TOLOWER ${fr_format} fr_lower)
  set(CPACK_FASTRAW_${fr_format}_TREE "")
  if(NOT (CMAKE_INSTALL_PREFIX STREQUAL "/usr" AND CMAKE_INSTALL_LIBDIR STREQUAL FASTRAW_${fr_format}_LIBDIR))
    set(CPACK_FASTRAW_${fr_format}_TREE ${PROJECT_BINARY_DIR}/package-${fr_lower})
  endif()
endforeach()
set(CPACK_FASTRAW_SOURCE_DIR ${PROJECT_SOURCE_DIR})
set(CPACK_FASTRAW_CMAKE_COMMAND ${CMAKE_COMMAND})
set(CPACK_FASTRAW_TREE_ARGS
  -DCMAKE_INSTALL_PREFIX=/usr -DFASTRAW_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
  -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER})
foreach(var CMAKE_TOOLCHAIN_FILE FASTRAW_SYSROOT FASTRAW_SCDOC)
  if(${var})
    list(APPEND CPACK_FASTRAW_TREE_ARGS -D${var}=${${var}})
  endif()
endforeach()
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/FastrawCPackProject.cmake)
include(CPack)
