# SPDX-License-Identifier: MIT
# The RPM's %post and %postun (cmake/FastrawPackage.cmake): the loader's cache learns of the library.
/sbin/ldconfig
