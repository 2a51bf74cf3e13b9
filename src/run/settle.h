/* Run until settled (time.until_settled): a run stops early once the largest speed of its
 * free points has stayed below a threshold for a while and nothing is scheduled any more. */
#ifndef CATENA_SETTLE_H
#define CATENA_SETTLE_H

#include "model/model.h"
#include "solver/state.h"

struct settle {
    long quiet_from; /* first step of the current quiet spell, or -1 while moving */
};

/* Largest speed of the points with inverse mass > 0, m/s (0 when there are none). */
double settle_max_speed(const struct model *m, const struct state *s);

/* After each step (and at step 0): whether m's settling rule holds, i.e. the largest speed
 * has been below m->settle_speed at the end of every step since quiet_from and that spell
 * lasts m->settle_for seconds. Never true when m->settle_speed is 0. */
int settle_update(struct settle *st, const struct model *m, const struct state *s);

#endif
