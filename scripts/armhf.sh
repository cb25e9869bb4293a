#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-builds libfastraw and its tests for 32-bit ARM (armhf) on an x86-64 Debian/Ubuntu machine
# (scripts/cross.sh, which says how):
#
#   scripts/armhf.sh [BUILD_DIR] [extra cmake arguments...]
#   scripts/armhf.sh --ctest BUILD_DIR [ctest arguments...]   (runs the cross build's CTest)
exec bash "$(dirname "${BASH_SOURCE[0]}")/cross.sh" armhf "$@"
