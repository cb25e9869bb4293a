# SPDX-License-Identifier: MIT
# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE): the RPM comes from a tree
# configured with RHEL's libdir (cmake/FastrawPackage.cmake says why), built here first when the
# build directory's own layout is not RHEL's.
if(CPACK_GENERATOR STREQUAL "RPM" AND CPACK_FASTRAW_RPM_TREE)
  message(STATUS "fastraw: building the RPM's tree (libdir /usr/${CPACK_FASTRAW_RPM_LIBDIR}) in ${CPACK_FASTRAW_RPM_TREE}")
  execute_process(COMMAND ${CPACK_FASTRAW_CMAKE_COMMAND} -S ${CPACK_FASTRAW_SOURCE_DIR}
      -B ${CPACK_FASTRAW_RPM_TREE} ${CPACK_FASTRAW_RPM_TREE_ARGS}
    OUTPUT_VARIABLE fr_out ERROR_VARIABLE fr_out RESULT_VARIABLE fr_status)
  if(fr_status EQUAL 0)
    execute_process(COMMAND ${CPACK_FASTRAW_CMAKE_COMMAND} --build ${CPACK_FASTRAW_RPM_TREE}
      OUTPUT_VARIABLE fr_out ERROR_VARIABLE fr_out RESULT_VARIABLE fr_status)
  endif()
  if(NOT fr_status EQUAL 0)
    message(FATAL_ERROR "fastraw: the RPM's tree in ${CPACK_FASTRAW_RPM_TREE} did not build:\n${fr_out}")
  endif()
  set(CPACK_INSTALL_CMAKE_PROJECTS "${CPACK_FASTRAW_RPM_TREE};fastraw;ALL;/")
endif()
