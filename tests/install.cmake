# SPDX-License-Identifier: MIT
# The install as a user meets it (label install): a relocated prefix used through pkg-config,
# find_package and LD_PRELOAD; the Debian package; the two packages in both formats; libfastraw
# built inside a parent project (add_subdirectory and FetchContent); the man pages rendered and
# in step with the code.
include(GNUInstallDirs)
include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)
get_property(fr_man_pages GLOBAL PROPERTY FASTRAW_MAN_PAGES)
string(REPLACE ";" " " fr_man_pages "${fr_man_pages}")
set(fr_install_env
  FR_BUILD_DIR=${PROJECT_BINARY_DIR}
  FR_SOURCE_DIR=${PROJECT_SOURCE_DIR}
  FR_VERSION=${PROJECT_VERSION}
  FR_LIBDIR=${CMAKE_INSTALL_LIBDIR}
  FR_BINDIR=${CMAKE_INSTALL_BINDIR}
  FR_INSTALL_FULL_LIBDIR=${CMAKE_INSTALL_FULL_LIBDIR}
  "FR_MAN_PAGES=${fr_man_pages}"
  CMAKE_COMMAND=${CMAKE_COMMAND}
  CPACK_COMMAND=${CMAKE_CPACK_COMMAND}
  CC=${CMAKE_C_COMPILER}
  FR_DEB_ARCH=${FR_ARCH_DEB}
  FR_RPM_LIBDIR=${FASTRAW_RPM_LIBDIR}
  FR_DEB_LIBDIR=${FASTRAW_DEB_LIBDIR}
  "FR_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}"
  ${FR_TOOL_TARGET_ENV})

# Preloading a sanitizer-built library into plain programs needs the sanitizer runtime first:
# the consumers and the package are checked in normal builds only.
set(fr_install_cases man_render)
if(NOT FASTRAW_SANITIZE)
  list(APPEND fr_install_cases consumers deb)
endif()
# install_deb may first build the .deb's tree (package-deb/, Debian's multiarch libdir).
foreach(case ${fr_install_cases})
  fr_add_script_test(install_${case} LABELS install SKIP TIMEOUT 400
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/${case}.sh
    ENV ${fr_install_env})
endforeach()
# Two parent projects, each building the library: about a minute on a busy 2-core machine.
if(NOT FASTRAW_SANITIZE)
  fr_add_script_test(install_subproject LABELS install SKIP TIMEOUT 300
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/subproject.sh
    ENV ${fr_install_env})
endif()
# Both formats of both packages; the first run also builds the RPM's tree (package-rpm/).
if(NOT FASTRAW_SANITIZE)
  fr_add_script_test(install_packages LABELS install SKIP TIMEOUT 400
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/packages.sh
    ENV ${fr_install_env})
endif()
# The oldest CMake and compilers the top CMakeLists.txt accepts build it (Debian 11's, fetched
# once into the matrix cache; skipped without the network).
fr_add_script_test(install_oldtools LABELS install SKIP TIMEOUT 600
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/oldtools.sh
  ENV ${fr_install_env})
# <fastraw.h> in a program of the build's time_t and, on a 32-bit ABI built with a 64-bit one
# (FR_TIME64), in one of a 32-bit time_t: each call fills exactly the program's struct timespec.
set(fr_header_widths native)
if(FR_TIME64)
  list(APPEND fr_header_widths time32)
endif()
foreach(width ${fr_header_widths})
  add_executable(header_width_${width} install/header_width.c)
  target_include_directories(header_width_${width} PRIVATE ${PROJECT_SOURCE_DIR}/include
    ${CMAKE_CURRENT_SOURCE_DIR}/support)
  target_link_libraries(header_width_${width} PRIVATE fastraw fastraw_warnings)
  fr_add_script_test(install_header_${width} LABELS install COMMAND header_width_${width})
endforeach()
if(FR_TIME64)
  # After the build's -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64: glibc's default, a 32-bit time_t.
  target_compile_options(header_width_time32 PRIVATE -U_TIME_BITS -U_FILE_OFFSET_BITS)
endif()
# Needs no build: the sources are compared. It first proves that each kind of drift fails.
fr_add_script_test(install_man_sync LABELS install
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/man_sync.sh --self-test ${PROJECT_SOURCE_DIR})
