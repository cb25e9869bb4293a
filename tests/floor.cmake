# SPDX-License-Identifier: MIT
# The userlands libfastraw serves (label userland): the glibc floor of the library and the launcher
# (GLIBC_2.17), and the e2e probes built against Debian 11's glibc 2.31 and run under its loader.
get_property(fr_launcher_static GLOBAL PROPERTY FASTRAW_LAUNCHER_STATIC)
if(NOT CMAKE_OBJDUMP)
  set(CMAKE_OBJDUMP objdump)
endif()
if(NOT CMAKE_READELF)
  set(CMAKE_READELF readelf)
endif()
# A sanitizer build links its runtime into everything: the floor is a property of a plain build.
if(NOT FASTRAW_SANITIZE)
  fr_add_script_test(floor_symbols LABELS userland SKIP TIMEOUT 60
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/floor/symbols.sh
            $<TARGET_FILE:fastraw> $<TARGET_FILE:fastraw-launcher> ${fr_launcher_static}
    ENV CC=${CMAKE_C_COMPILER} OBJDUMP=${CMAKE_OBJDUMP} READELF=${CMAKE_READELF})
endif()
