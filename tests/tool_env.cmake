# SPDX-License-Identifier: MIT
# What every tool test is told of its target (tests/tools/arch_facts.sh): the architecture
# (FR_ARCH), and in a cross build the emulator that runs its programs
# (CMAKE_CROSSCOMPILING_EMULATOR, as one string).
include_guard(GLOBAL)
string(REPLACE ";" " " fr_tool_emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
set(FR_TOOL_TARGET_ENV "FR_TARGET_ARCH=${FR_ARCH}")
if(CMAKE_CROSSCOMPILING AND fr_tool_emulator)
  list(APPEND FR_TOOL_TARGET_ENV "FR_EMULATOR=${fr_tool_emulator}")
endif()
