# SPDX-License-Identifier: MIT
# Warnings and sanitizer flags shared by every target, as one INTERFACE target.
add_library(fastraw_warnings INTERFACE)
target_compile_options(fastraw_warnings INTERFACE
  -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wno-unused-parameter -Wformat=2 -Wundef)
# FASTRAW_WERROR=ON: any warning fails the build (the clang and musl builds of the suite use it).
option(FASTRAW_WERROR "Treat compiler warnings as errors" OFF)
if(FASTRAW_WERROR)
  target_compile_options(fastraw_warnings INTERFACE -Werror)
endif()
if(FASTRAW_SANITIZE)
  target_compile_options(fastraw_warnings INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(fastraw_warnings INTERFACE -fsanitize=address,undefined)
endif()
