#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-builds libfastraw and its tests for aarch64 on an x86-64 Debian/Ubuntu machine
# (scripts/cross.sh, which says how):
#
#   scripts/aarch64.sh [BUILD_DIR] [extra cmake arguments...]
#   scripts/aarch64.sh --ctest BUILD_DIR [ctest arguments...]   (runs the cross build's CTest)
exec bash "$(dirname "${BASH_SOURCE[0]}")/cross.sh" aarch64 "$@"
