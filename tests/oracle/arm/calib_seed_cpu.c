/* SPDX-License-Identifier: MIT */
/* The calib_seed suite's 32-bit ARM cases: the ARM family's, one file for both ports (tests/unit.cmake names this one). */
#include "../armfam/calib_seed_cpu.c"
