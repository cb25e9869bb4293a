# SPDX-License-Identifier: MIT
# The userlands libfastraw serves (label userland): the glibc floor of the library and the launcher
# (GLIBC_2.17), the glibc matrix: probes built for glibc 2.17, 2.31, 2.41 and this machine's,
# run under each one's loader with the library preloaded, and sudo and su in a Debian 11 root
# with the library in its /etc/ld.so.preload.
get_property(fr_launcher_static GLOBAL PROPERTY FASTRAW_LAUNCHER_STATIC)
if(NOT CMAKE_OBJDUMP)
  set(CMAKE_OBJDUMP objdump)
endif()
if(NOT CMAKE_READELF)
  set(CMAKE_READELF readelf)
endif()

# Both are about glibc's symbol versions: not for a build against another C library. A sanitizer
# build links its runtime into everything: the floor is a property of a plain build.
# FR_LIBC: the C library src/CMakeLists.txt found (glibc or musl).
if(FR_LIBC STREQUAL "glibc" AND NOT FASTRAW_SANITIZE)
  fr_add_script_test(floor_symbols LABELS userland SKIP TIMEOUT 60
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/floor/symbols.sh
            $<TARGET_FILE:fastraw> $<TARGET_FILE:fastraw-launcher> ${fr_launcher_static}
    ENV CC=${CMAKE_C_COMPILER} OBJDUMP=${CMAKE_OBJDUMP} READELF=${CMAKE_READELF})
  # The glibc matrix (tests/floor/glibc_matrix.sh): the probes built here for each glibc, with
  # -lrt and without, and run on this machine under that glibc's loader: a native build only.
  # The first runs fetch glibc 2.17's toolchain from the npm registry (48 MB, unpacked once into
  # the matrix cache) and Debian 11's and 13's libc6, libc6-dev and linux-libc-dev (about 7 MB
  # each); "host" is this machine's own glibc.
  if(NOT CMAKE_CROSSCOMPILING)
    foreach(glibc 2.17 2.31 2.41 host)
      fr_add_script_test(glibc_${glibc} LABELS userland SKIP TIMEOUT 300
        COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/floor/glibc_matrix.sh ${glibc}
        ENV FR_SOURCE_DIR=${PROJECT_SOURCE_DIR}
            FASTRAW_LIB=$<TARGET_FILE:fastraw>
            FR_LAUNCHER=$<TARGET_FILE:fastraw-launcher>
            CC=${CMAKE_C_COMPILER}
            FR_DEB_ARCH=${FR_ARCH_DEB}
            FR_ARCH=${FR_ARCH}
            OBJDUMP=${CMAKE_OBJDUMP}
            READELF=${CMAKE_READELF}
            FR_SUITE_BRACKET=$<TARGET_FILE:test_e2e_bracket>
            FR_SUITE_CLOCKS=$<TARGET_FILE:test_e2e_clocks>
            FR_SUITE_LOOKUP=$<TARGET_FILE:test_e2e_lookup>)
    endforeach()
    # sudo and su through PAM in a Debian 11 root with the library in its /etc/ld.so.preload. The
    # first run makes the root with debootstrap into the matrix cache (under 2 min, 210 MB).
    add_executable(pty_answer floor/pty_answer.c)
    target_link_libraries(pty_answer PRIVATE fastraw_warnings)
    fr_add_script_test(pam_sudo LABELS userland SKIP TIMEOUT 900
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/floor/pam_sudo.sh
      ENV FR_SOURCE_DIR=${PROJECT_SOURCE_DIR}
          FASTRAW_LIB=$<TARGET_FILE:fastraw>
          FR_PTY_ANSWER=$<TARGET_FILE:pty_answer>
          CC=${CMAKE_C_COMPILER}
          FR_DEB_ARCH=${FR_ARCH_DEB})
  endif()
endif()
