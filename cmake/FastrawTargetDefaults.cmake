# SPDX-License-Identifier: MIT
# What each of libfastraw's own targets is compiled with, set on the targets, never on the parent.
#
# fr_target_defaults(DIR...): every compiled target defined in DIR (a folder already added) is
# GNU C11, as the code is written (__atomic builtins, ifunc, asm): -std=gnu11 whatever the
# compiler's default. A parent project that adds libfastraw keeps its own C standard and its own
# build type; if it has none (a single-configuration build with CMAKE_BUILD_TYPE empty), these
# targets alone get RelWithDebInfo's flags, as a top-level build does: unoptimised, the library
# calls memcmp through the PLT, which a call before its relocation cannot survive.
function(fr_target_defaults)
  set(options "")
  if(NOT fr_top_level AND NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
    separate_arguments(options UNIX_COMMAND "${CMAKE_C_FLAGS_RELWITHDEBINFO}")
  endif()
  foreach(dir ${ARGN})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
        set_target_properties(${target} PROPERTIES
          C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS ON)
        if(options)
          target_compile_options(${target} PRIVATE ${options})
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()
