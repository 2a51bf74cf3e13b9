/* Link breaks, checked once a step after every substep (solver/solver.c): a live link breaks when
 * stretched beyond break_stretch times its rest length or pulled harder than break_force.
 * A link's check reads only its own ends and multiplier and writes only its own alive flag,
 * so ranges of links may be checked at the same time (the batched kernel's team does,
 * solver/batch/batch.c) and their lists joined in order. */
#ifndef CATENA_SOLVER_BREAKS_H
#define CATENA_SOLVER_BREAKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct state;

struct solver_work;

/* w->breakable: the links that have a break_stretch or a break_force, and those a cut may
 * give them to (the model's reserved links), ascending, so that a step checks only those.
 * Returns 0, or -1 when out of memory. */
int breaks_prepare(const struct model *m, struct solver_work *w);

/* Checks the live links among w->breakable[begin, end), marks those that break dead and lists
 * them, ascending, in out (room for end - begin); returns how many broke. */
size_t breaks_check(const struct model *m, struct state *s, size_t begin, size_t end,
                    uint32_t *out);

#endif
