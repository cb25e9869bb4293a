# SPDX-License-Identifier: MIT
# Unit tests of the core, linked statically against fastraw_core: one Check suite and one
# CTest entry per module, on synthetic pages and counters (no LD_PRELOAD).

# fr_add_unit_test(NAME SOURCES...): a unit suite linked with the core, label unit, 60 s.
# ENV after the sources: variables the suite's process must start with.
function(fr_add_unit_test name)
  cmake_parse_arguments(T "" "" "ENV" ${ARGN})
  fr_add_check_test(${name} SOURCES ${T_UNPARSED_ARGUMENTS} LIBS fastraw_core ${CMAKE_DL_LIBS}
    ENV ${T_ENV} LABELS unit TIMEOUT 60)
endfunction()

# The synthetic pages, with the CPU's eras (tests/oracle/<cpu>/synth_eras.c).
set(fr_synth unit/synth.c oracle/${FR_ARCH}/synth_eras.c)

fr_add_unit_test(rawmath unit/test_rawmath.c)
fr_add_unit_test(wide unit/test_wide.c)
fr_add_unit_test(kdata unit/test_kdata.c unit/kdata_check.c unit/kdata_pick.c ${fr_synth})
fr_add_unit_test(fastpath unit/test_fastpath.c unit/fastpath_hv.c unit/fastpath_masked.c ${fr_synth})
fr_add_unit_test(env unit/test_env.c)
fr_add_unit_test(maps unit/test_maps.c)
fr_add_unit_test(memid unit/test_memid.c)
fr_add_unit_test(vdso_elf unit/test_vdso_elf.c)
# The shadow image is asked for in the environment the process starts with (read once).
fr_add_unit_test(dynsym unit/test_dynsym.c ENV FASTRAW_SHADOW_VDSO=1)
fr_add_unit_test(copies unit/test_copies.c)
fr_add_unit_test(passthru unit/test_passthru.c)
fr_add_unit_test(cpu unit/test_cpu.c)
fr_add_unit_test(decide unit/test_decide.c ${fr_synth})
fr_add_unit_test(claim unit/test_claim.c)
fr_add_unit_test(stats unit/test_stats.c)
fr_add_unit_test(convert unit/test_convert.c ${fr_synth})
fr_add_unit_test(calib_math unit/test_calib_math.c unit/calsim.c)
fr_add_unit_test(calib_slew unit/test_calib_slew.c unit/calsim.c)
fr_add_unit_test(calib_seed unit/test_calib_seed.c oracle/${FR_ARCH}/calib_seed_cpu.c)
fr_add_unit_test(calib_source unit/test_calib_source.c)
fr_add_unit_test(gtod unit/test_gtod.c unit/gtod_shape.c unit/gtod_pages.c unit/gtod_fixed.c)
fr_add_unit_test(armdata unit/test_armdata.c)

# The library's interface, checked on the built file: exports, TEXTREL, dependencies.
set(fr_allow_deps "")
if(FASTRAW_SANITIZE)
  # The sanitizer runtimes and what they pull in.
  set(fr_allow_deps "libasan.so.* libubsan.so.* libm.so.6 libgcc_s.so.1 libstdc++.so.6")
endif()
fr_add_script_test(exports LABELS unit
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/unit/check_exports.sh $<TARGET_FILE:fastraw>
  ENV "NM=${CMAKE_NM}" "READELF=${CMAKE_READELF}" "FR_ALLOW_DEPS=${fr_allow_deps}"
      "FR_EXPORTS_EXTRA=$<$<BOOL:${FR_TIME64}>:__clock_gettime64>")
# What the loader does for the library in every process: two imports, libc alone, no start
# files. Not with the sanitizers, whose runtimes add imports, dependencies and start files.
if(NOT FASTRAW_SANITIZE)
  fr_add_script_test(imports LABELS unit
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/unit/check_imports.sh $<TARGET_FILE:fastraw>
    ENV "NM=${CMAKE_NM}" "READELF=${CMAKE_READELF}")
endif()
