# SPDX-License-Identifier: MIT
# Unit tests of the core, linked statically against fastraw_core.
