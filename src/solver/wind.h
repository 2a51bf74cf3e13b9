/* Wind: air moving at world.wind (with an optional sinusoidal gust) drags on the links of
 * bodies with a `drag` coefficient. Each link feels the quadratic drag of the air velocity
 * relative to it, normal to the link: F = drag |L| |vn| vn, half to each end. */
#ifndef CATENA_WIND_H
#define CATENA_WIND_H

#include "model/model.h"
#include "solver/state.h"

/* The air velocity at time t, m/s. */
vec3 wind_at(const struct model *m, double t);

/* Adds the substep's drag displacement F w h^2 to every free end of a dragged link, after
 * integration (so the link's velocity is the predicted (x - xprev) / h). */
void wind_apply(const struct model *m, struct state *s, double h, double t);

#endif
