# SPDX-License-Identifier: MIT
# Warnings and sanitizer flags shared by every target, as one INTERFACE target.
add_library(fastraw_warnings INTERFACE)
target_compile_options(fastraw_warnings INTERFACE
  -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wno-unused-parameter -Wformat=2 -Wundef)
if(FASTRAW_SANITIZE)
  target_compile_options(fastraw_warnings INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(fastraw_warnings INTERFACE -fsanitize=address,undefined)
endif()
