/* Kinematic pins: where a pin holds its point at time t. Linear (constant velocity), sine
 * (oscillation along an axis) and keyframes (piecewise linear through timed positions).
 * The solver places a pinned point at its position for the end of each substep and the
 * previous position for its start, so the point carries exactly the pin's velocity and
 * nothing else: no false velocity when it is released or when the motion stops. */
#ifndef CATENA_PIN_MOTION_H
#define CATENA_PIN_MOTION_H

#include "model/model.h"

/* The position of pin p at time t, m. */
vec3 pin_motion_at(const struct model *m, const struct pin *p, double t);

/* Names as scenarios write them, indexed by enum pin_motion_type ("none" is never written). */
extern const char *const pin_motion_names[];

#endif
