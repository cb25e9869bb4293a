#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds libfastraw with its tests, and runs the whole suite under ctest.
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
fr_setup -DFASTRAW_BUILD_TESTS=ON
ctest --test-dir "$FR_BUILD" --output-on-failure "$@"
