# SPDX-License-Identifier: MIT
# Unit tests of the core, linked statically against fastraw_core: one Check suite and one
# CTest entry per module, on synthetic pages and counters (no LD_PRELOAD).
fr_add_check_test(rawmath SOURCES unit/test_rawmath.c LIBS fastraw_core)
fr_add_check_test(kdata SOURCES unit/test_kdata.c unit/kdata_check.c unit/kdata_pick.c unit/kdata_hv.c
  unit/synth.c LIBS fastraw_core)
fr_add_check_test(env SOURCES unit/test_env.c LIBS fastraw_core)
fr_add_check_test(maps SOURCES unit/test_maps.c LIBS fastraw_core)
fr_add_check_test(memid SOURCES unit/test_memid.c LIBS fastraw_core)
fr_add_check_test(vdso_elf SOURCES unit/test_vdso_elf.c LIBS fastraw_core ${CMAKE_DL_LIBS})
fr_add_check_test(dynsym SOURCES unit/test_dynsym.c LIBS fastraw_core ${CMAKE_DL_LIBS})
fr_add_check_test(copies SOURCES unit/test_copies.c LIBS fastraw_core ${CMAKE_DL_LIBS})
fr_add_check_test(counter SOURCES unit/test_counter.c LIBS fastraw_core)
fr_add_check_test(decide SOURCES unit/test_decide.c unit/synth.c LIBS fastraw_core)
fr_add_check_test(stats SOURCES unit/test_stats.c LIBS fastraw_core)
fr_add_check_test(convert SOURCES unit/test_convert.c unit/synth.c LIBS fastraw_core)
fr_add_check_test(calib SOURCES unit/test_calib.c unit/calsim.c LIBS fastraw_core)
fr_add_check_test(calslew SOURCES unit/test_calslew.c unit/calsim.c LIBS fastraw_core)
fr_add_check_test(seed SOURCES unit/test_seed.c LIBS fastraw_core)
fr_add_check_test(gtod SOURCES unit/test_gtod.c LIBS fastraw_core)
foreach(t rawmath kdata env maps memid vdso_elf dynsym copies counter decide stats convert calib calslew seed gtod)
  set_tests_properties(${t} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()

# The library's interface, checked on the built file: exports, TEXTREL, dependencies.
add_test(NAME exports
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/unit/check_exports.sh $<TARGET_FILE:fastraw>)
set(fr_allow_deps "")
if(FASTRAW_SANITIZE)
  # The sanitizer runtimes and what they pull in.
  set(fr_allow_deps "libasan.so.* libubsan.so.* libm.so.6 libgcc_s.so.1 libstdc++.so.6")
endif()
set_tests_properties(exports PROPERTIES
  LABELS unit
  ENVIRONMENT "NM=${CMAKE_NM};READELF=${CMAKE_READELF};FR_ALLOW_DEPS=${fr_allow_deps}")
