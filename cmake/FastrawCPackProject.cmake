# SPDX-License-Identifier: MIT
# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE): the RPM comes from a tree
# configured with RHEL's libdir, the .deb from one configured with Debian's multiarch libdir
# (cmake/FastrawPackage.cmake says why), built here first when the build directory's own layout
# is not that format's.
if(CPACK_GENERATOR MATCHES "^(RPM|DEB)$" AND CPACK_FASTRAW_${CPACK_GENERATOR}_TREE)
  set(fr_tree ${CPACK_FASTRAW_${CPACK_GENERATOR}_TREE})
  set(fr_libdir ${CPACK_FASTRAW_${CPACK_GENERATOR}_LIBDIR})
  message(STATUS "fastraw: building the ${CPACK_GENERATOR}'s tree (libdir /usr/${fr_libdir}) in ${fr_tree}")
  execute_process(COMMAND ${CPACK_FASTRAW_CMAKE_COMMAND} -S ${CPACK_FASTRAW_SOURCE_DIR}
      -B ${fr_tree} ${CPACK_FASTRAW_TREE_ARGS} -DCMAKE_INSTALL_LIBDIR=${fr_libdir}
    OUTPUT_VARIABLE fr_out ERROR_VARIABLE fr_out RESULT_VARIABLE fr_status)
  if(fr_status EQUAL 0)
    execute_process(COMMAND ${CPACK_FASTRAW_CMAKE_COMMAND} --build ${fr_tree}
      OUTPUT_VARIABLE fr_out ERROR_VARIABLE fr_out RESULT_VARIABLE fr_status)
  endif()
  if(NOT fr_status EQUAL 0)
    message(FATAL_ERROR "fastraw: the ${CPACK_GENERATOR}'s tree in ${fr_tree} did not build:\n${fr_out}")
  endif()
  set(CPACK_INSTALL_CMAKE_PROJECTS "${fr_tree};fastraw;ALL;/")
endif()
