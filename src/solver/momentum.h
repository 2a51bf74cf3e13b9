/* Angular momentum of the internal constraints. Every internal constraint (links, welds,
 * angle limits, areas and volumes, shape matching) is rotation invariant, so its forces
 * conserve a free body's angular momentum; a Gauss-Seidel sweep does not quite, because each
 * projection moves points along gradients taken at the latest positions, not at those the
 * velocity is measured from. A prestressed body (rest lengths it cannot all meet, a pressure)
 * therefore spins up from rest, and rolls when it lies on the ground. After each sweep this
 * module gives every free body (a set of points joined by constraints, none of them pinned)
 * back the angular momentum it had before the sweep, by the small rotation about its centre
 * of mass that restores it, which keeps its linear momentum.
 *
 * With x_prev the positions at the substep's start (centre of mass c_prev), the angular
 * momentum at the end of the substep is L = sum m (x_prev - c_prev) x (x - x_prev) / h, so
 * a sweep changes it by sum m (x_prev - c_prev) x dx / h: the restoring rotation w x (x - c)
 * solves J w = -dL h with J = sum m ((a . r) I - r a^T), a = x_prev - c_prev, r = x - c
 * (in 2D a scalar, sum m a . r). */
#ifndef CATENA_SOLVER_MOMENTUM_H
#define CATENA_SOLVER_MOMENTUM_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct state;

/* The free bodies of a model and what a substep keeps about them. */
struct solver_momentum {
    uint32_t *parent; /* [npoints] union-find over the constraints: each point's root */
    uint32_t *body;   /* [npoints] a root's free body, while building */
    uint32_t *cursor; /* [npoints] where each body's next point goes, while building */
    uint32_t *start;  /* [npoints + 1] free body k is point[start[k] .. start[k + 1]) */
    uint32_t *point;  /* [npoints] */
    size_t n;         /* free bodies of at least two points */
    double *mass;     /* [npoints] each free body's mass, kg */
    double *inertia;  /* [npoints] its sum m |x_prev - c_prev|^2 this substep, kg m^2 */
    vec3 *before;     /* [npoints] its h L before the sweep, kg m^2 */
    vec3 *arm;        /* [npoints] for point[k]: m (x_prev - c_prev) this substep, kg m */
};

/* Allocates for m and finds its free bodies (alive[]: the live links). Returns 0, or -1 when
 * out of memory. */
int momentum_create(const struct model *m, const unsigned char *alive,
                    struct solver_momentum **out);

/* NULL is a no-op. */
void momentum_destroy(struct solver_momentum *mo);

/* Finds the free bodies again after links broke, pins changed or constraints were cut.
 * Allocates nothing. */
void momentum_changed(struct solver_momentum *mo, const struct model *m,
                      const unsigned char *alive);

/* Whether any free body is looked after (positions are then read between iterations). */
static inline int momentum_active(const struct solver_momentum *mo)
{
    return mo && mo->n > 0;
}

/* At a substep's start (x_prev set, x predicted): each free body's mass, centre of mass and
 * arms, and its angular momentum, as momentum_mark. */
void momentum_begin(const struct model *m, const struct state *s, struct solver_momentum *mo);

/* Each free body's angular momentum, which the next momentum_restore returns it to: after
 * whatever else than the internal constraints moved points (collisions). */
void momentum_mark(const struct model *m, const struct state *s, struct solver_momentum *mo);

/* After a sweep of the internal constraints: turns each free body back to the angular
 * momentum it had at the last mark (one pass over its points to measure, one to turn). */
void momentum_restore(const struct model *m, struct state *s, struct solver_momentum *mo);

#endif
