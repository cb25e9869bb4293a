/* SPDX-License-Identifier: MIT */
/* FR_EXPORT, the one mark of a definition the library exports: everything else is hidden (base/hidden.h). */
#ifndef FR_BASE_EXPORT_H
#define FR_BASE_EXPORT_H

/*
 * Default visibility on the definition makes a name a candidate export; the version script
 * (src/interpose/fastraw.map, fastraw-musl.map) then says which the library lists, and the
 * exports test checks the result.
 */
#define FR_EXPORT __attribute__((visibility("default")))

#endif
