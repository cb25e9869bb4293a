# SPDX-License-Identifier: MIT
# The Debian package (`cpack -G DEB` in the build directory): everything `cmake --install` places,
# under /usr. No maintainer script: installing it never touches /etc/ld.so.preload.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fastraw)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The libfastraw authors")
set(CPACK_PACKAGE_CONTACT "The libfastraw authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "clock_gettime(CLOCK_MONOTONIC_RAW) from the CPU counter, bit-exact with the kernel")
set(CPACK_PACKAGE_DESCRIPTION
  "libfastraw is an LD_PRELOAD library for ${FR_ARCH} Linux that answers \
clock_gettime(CLOCK_MONOTONIC_RAW) in-process, with the kernel's own calibration from the vDSO \
data pages, and passes every other clock to the vDSO. The package holds the library, its header, \
pkg-config and CMake files, the fastraw launcher and the fastraw-latency, fastraw-check, \
fastraw-info and fastraw-bench tools, with their man pages.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${FR_ARCH_DEB})
# Depends from the binaries' own needs where dpkg-shlibdeps can compute them; otherwise the
# oldest glibc whose symbol versions they use (GLIBC_2.34 for the merged libpthread and libdl, on
# x86-64 and arm64 alike). A cross build has no dpkg database of the target's libc to ask.
find_program(FASTRAW_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(FASTRAW_DPKG_SHLIBDEPS AND NOT CMAKE_CROSSCOMPILING)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34)")
endif()
# A shlibs file for packages built against this one, and ldconfig run by dpkg's trigger.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
include(CPack)
