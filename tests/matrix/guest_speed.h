/* SPDX-License-Identifier: MIT */
/* How fast a kernel-matrix guest runs, against the same work in a guest on an idle host. */
#ifndef FR_MATRIX_GUEST_SPEED_H
#define FR_MATRIX_GUEST_SPEED_H

/*
 * How many times slower than the reference guest this one runs (at least 1), measured now; the
 * fastest round's fork and loop times, scaled to the whole work, in *fork_ms and *loop_ms.
 */
double fr_guest_speed(double *fork_ms, double *loop_ms);

#endif
