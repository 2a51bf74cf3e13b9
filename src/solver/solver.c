/* The position-based step. Per substep: integrate (Verlet, Jakobsen 2001: x' = x + (x - xprev)
 * damping + g h^2; or PBD's prediction, Mueller et al. 2007: v += g h, p* = x + v h), wind,
 * pins (placed by their motion), multipliers reset (XPBD, Macklin et al. 2016), iterations of
 * Gauss-Seidel projection over every constraint family (after which each free body gets back
 * the angular momentum it had: solver/momentum.h) with collisions on schedule, the
 * max-length pass, the contact response (velocities of touching points), then for pbd/xpbd
 * v = (p* - x) / h. Once per step, after every substep: breaks. Reads the model, writes only
 * the state. */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver/collide/collide.h"
#include "solver/constraint.h"
#include "solver/angle.h"
#include "solver/area.h"
#include "solver/attachment.h"
#include "solver/distance.h"
#include "solver/shape.h"
#include "model/pin_motion.h"
#include "solver/batch/batch.h"
#include "solver/breaks.h"
#include "solver/direct/direct.h"
#include "solver/momentum.h"
#include "solver/points.h"
#include "solver/tether.h"
#include "solver/velocity.h"
#include "solver/work.h"
#include "solver/wind.h"

/* Both x and xprev (pbd, xpbd: and v), from the pin's motion at the end and the start of the
 * substep: the point carries exactly the pin's velocity (none for a still pin) into
 * constraints, collisions and, once released, its own flight. */
static void hold_pins(const struct model *m, struct state *s, double t, double h)
{
    for (size_t p = 0; p < m->npins; p++) {
        const struct pin *pin = &m->pins[p];
        const vec3 x = pin_motion_at(m, pin, t), xprev = pin_motion_at(m, pin, t - h);
        s->x[pin->point] = x;
        s->xprev[pin->point] = xprev;
        if (m->method != METHOD_VERLET)
            s->v[pin->point] = v3_scale(v3_sub(x, xprev), 1.0 / h);
    }
}

/* XPBD's multipliers start from 0 every substep (Macklin et al. 2016, algorithm 1). */
static void reset_multipliers(const struct model *m, struct state *s)
{
    memset(s->link_lambda, 0, m->nlinks * sizeof *s->link_lambda);
    memset(s->angle_lambda, 0, m->nangles * sizeof *s->angle_lambda);
    memset(s->area_lambda, 0, m->nareas * sizeof *s->area_lambda);
    memset(s->attach_lambda, 0, m->nattachments * sizeof *s->attach_lambda);
}

/* The links in the model's order. Alternating the sweep direction spreads a correction both
 * ways along a chain instead of always favouring the end that is visited first; colour groups
 * make the result independent of how links and points are numbered (solver/color.c). */
static void relax_links(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                        int it)
{
    if (s->cache->batch) {
        batch_relax(m, s, it,
                    cx->w); /* the same projections from flat arrays (solver/batch/batch.c) */
        return;
    }
    if (m->order == ORDER_COLORED) {
        const struct solver_work *w = s->cache->work;
        for (size_t c = 0; c < w->ncolors; c++)
            distance_relax_list(cx, m, s, w->link_order + w->color_start[c],
                                w->color_start[c + 1] - w->color_start[c]);
    } else {
        distance_relax_range(cx, m, s, 0, s->nlinks, m->order == ORDER_ALTERNATE && it % 2 == 1);
    }
}

/* Sweeps over the angle limits in each iteration of the contact phase. With contact points
 * held, limits chain through them (a knee limit against a held foot moves the hip and knee
 * that the hip limit, projected just before, had placed), and one sweep leaves each limit
 * undone by the next: a ragdoll's fall ends its steps up to 1.6e-2 rad past a limit at 20
 * iterations of 1/60 s. Each further sweep shrinks that by ~0.5 (measured over
 * tests/check_ragdoll's falls: 3.9e-3, 2.1e-3, 1.3e-3, 6.7e-4 for 3, 4, 5, 6 sweeps, and no
 * better at 7), for the cost of projecting the limits, a few per body, again. 5 sweeps held
 * 5.5e-4 until Coulomb friction and free bodies that keep their angular momentum in flight
 * (issue 17) changed how the figures land. */
#define SHOCK_LIMIT_SWEEPS 6

/* The families after the links, in the order both solvers keep: welds, angles (limit_sweeps
 * times), areas, shapes. */
static void relax_families(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                           int limit_sweeps)
{
    attachment_relax(cx, m, s);
    for (int k = 0; k < limit_sweeps; k++)
        angle_relax(cx, m, s);
    area_relax(cx, m, s);
    shape_relax(cx, m, s);
}

/* Every family once per iteration, links first and shapes last, so that a rigid shape
 * (stiffness 1) is exactly rigid when the iterations end, then collisions on their schedule
 * (always on the last iteration). A free body gets back, after the families, the angular
 * momentum it had before them (solver/momentum.h), so that a sweep does not spin it up. The
 * last shock_iterations are the contact phase: points that have touched an obstacle in this
 * substep are pins to the internal constraints (inverse mass 0), so a light limb lying on
 * the ground under a heavy body no longer trades corrections with it for many iterations; the
 * body converges onto the contacts as onto pins (shock propagation, Guendelman, Bridson and
 * Fedkiw 2003, sec. 7), and the angle limits are swept SHOCK_LIMIT_SWEEPS times. The earlier
 * iterations let contacts slide and respond normally. In the phase the held points take
 * reactions like pins, and angular momentum is not restored. */
static void relax(const struct constraint_ctx *cx0, const struct model *m, struct state *s)
{
    const int phase = m->iterations - m->shock_iterations;
    struct solver_momentum *mo = momentum_active(s->cache->momentum) ? s->cache->momentum : NULL;
    struct constraint_ctx shock = *cx0;
    for (int it = 0; it < m->iterations; it++) {
        if (it >= phase)
            shock.w = collide_frozen_masses(m, s); /* contacts found so far, now pins */
        const struct constraint_ctx *cx = it >= phase ? &shock : cx0;
        relax_links(cx, m, s, it);
        relax_families(cx, m, s, it >= phase ? SHOCK_LIMIT_SWEEPS : 1);
        if (mo && (it < phase || cx->w == m->inv_mass))
            momentum_restore(m, s, mo); /* to where momentum_begin or the last mark put it */
        if (collide_due(m, it)) {
            collide_pass(m, s);
            if (mo && s->cache->collide)
                momentum_mark(m, s, mo); /* what the contacts did is kept */
        }
    }
}

/* The collision pass inside a global iteration, and the contacts it shares with the solve of
 * bodies with loops (solver/direct/direct.h): before the pass, which contacts the solve holds
 * (their friction is the solve's); after it, every resting contact's tangent plane and
 * friction, rows of the next solves. */
static void collide_global(const struct model *m, struct state *s)
{
    struct direct *d = s->cache->direct;
    const uint32_t *touched;
    size_t n = collide_touched(s, &touched);
    for (size_t k = 0; k < n; k++)
        collide_contact_held(s, touched[k], direct_contact_held(d, touched[k]));
    collide_pass(m, s);
    n = collide_touched(s, &touched);
    for (size_t k = 0; k < n; k++) {
        const uint32_t i = touched[k];
        vec3 nrm;
        double off;
        struct friction f;
        if (collide_contact_plane(m, s, i, &nrm, &off, &f))
            direct_contact(d, i, nrm, off, s->xprev[i], f);
    }
}

/* solver.global: each iteration is one global solve of the links the direct projection owns
 * (solver/direct/direct.h), then one Gauss-Seidel pass over everything else in the order above: the
 * links it leaves (tethers, soft links under verlet/pbd) in link order, welds, angles, areas,
 * shapes, collisions on their schedule (whose contacts with bodies with loops become rows of
 * the next solves). Its multipliers then stand in for the links' XPBD ones (tension,
 * break_force). */
static void relax_global(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                         double h)
{
    size_t nleft;
    const uint32_t *left = direct_leftover(s->cache->direct, &nleft);
    const int others =
        nleft > 0 || m->nattachments || m->nangles || m->nareas || m->nshapes || s->cache->collide;
    direct_begin(s->cache->direct, s->x, s->xprev, others);
    for (int it = 0; it < m->iterations; it++) {
        direct_iterate(s->cache->direct, m, s->x, h, it == m->iterations - 1);
        distance_relax_list(cx, m, s, left, nleft);
        relax_families(cx, m, s, 1);
        if (collide_due(m, it))
            collide_global(m, s);
    }
    direct_multipliers(s->cache->direct, s->link_lambda);
}

/* Checked after all relaxation, so a transient stretch mid-sweep never breaks a link. */
static void break_links(const struct model *m, struct state *s)
{
    if (!s->cache->batch || !batch_breaks(m, s)) /* the team's check, when it shares the step */
        s->nbroke = breaks_check(m, s, 0, s->cache->work->nbreakable, s->broke);
    if (s->nbroke > 0) /* the live links changed: gathers, paths and bodies with them */
        solver_topology_changed(m, s, SOLVER_CHANGED_LINKS | SOLVER_CHANGED_FREE);
}

void solver_topology_changed(const struct model *m, struct state *s, unsigned what)
{
    solver_cache_changed(s->cache, m, s->alive, what);
}

void solver_step(const struct model *m, struct state *s)
{
    const double h = m->dt / m->substeps;
    const struct constraint_ctx cx = constraint_ctx_make(m);
    const double keep = m->method == METHOD_VERLET ? m->damping : pow(m->damping, h);
    s->nbroke = 0;
    if (s->cache->batch)
        batch_gather(m, s); /* links: the live ones, as the model now has them */
    const int whole = s->cache->batch && batch_substep_ready(m, s);
    for (int k = 0; k < m->substeps; k++) {
        const double t = (double)s->step * m->dt + (k + 1) * h; /* the substep's end */
        if (whole) {
            /* pins first: their points (inverse mass 0) are not advanced, so the order of
             * the two does not matter; then advance, links and velocities, band by band */
            hold_pins(m, s, t, h);
            if (m->method == METHOD_XPBD)
                reset_multipliers(m, s);
            batch_substep(m, s, h, keep);
            continue;
        }
        points_advance(m, s, h, 0, s->npoints); /* integrate, or predict p* = x + v h */
        wind_apply(m, s, h, t);                 /* wind: drag on the links of bodies that have it */
        hold_pins(m, s, t, h);                  /* pins: where their motion puts them */
        if (m->method == METHOD_XPBD)
            reset_multipliers(m, s); /* multipliers: from 0 every substep */
        collide_begin(m, s);         /* contacts: forget the last substep's */
        if (momentum_active(s->cache->momentum))
            momentum_begin(m, s, s->cache->momentum); /* free bodies: where they start */
        if (s->cache->direct)
            relax_global(&cx, m, s, h); /* constraints: global solves, Gauss-Seidel for the rest */
        else
            relax(&cx, m, s); /* constraints: Gauss-Seidel over every family */
        if (m->max_length_pass)
            tether_pass(m, s); /* max length: nothing beyond its reach of an anchor */
        collide_respond(m, s); /* contacts: their velocities (friction, bounces) */
        points_velocities(m, s, h, keep, 0, s->npoints); /* pbd, xpbd: from the projections */
    }
    break_links(m, s); /* breaks: once per step, after every substep */
    s->step++;         /* time: multiplied, not summed, so it does not drift */
    s->t = (double)s->step * m->dt;
}

/* The rate the estimate's time assumes, operations per second: about what the up-looking
 * factorisation reaches here (solver/direct/graph.c). */
#define FACTOR_RATE 1e9

/* "body 'NAME'" for body b of m, in out; `none` when b < 0. */
static const char *body_label(const struct model *m, long b, const char *none, char out[96])
{
    if (b < 0)
        return none;
    snprintf(out, 96, "body '%.64s'", m->bodies[b].name);
    return out;
}

/* Why the direct projection's set-up failed, in err. */
static int setup_failed(const struct model *m, enum direct_status status, long body,
                        struct catena_error *err)
{
    if (status == DIRECT_TOO_LARGE)
        return error_set(err, CATENA_EINPUT,
                         "solver.global: %zu points and %zu links are past what SuiteSparse's AMD "
                         "ordering indexes (2^31 - 1 points, 2^30 links); solve them by "
                         "Gauss-Seidel (solver.global: false)",
                         m->npoints, m->nlinks);
    char label[96];
    if (status == DIRECT_ORDER_INVALID)
        return error_set(err, CATENA_EFAIL,
                         "solver.global: internal error: SuiteSparse's AMD ordering refused the "
                         "links of %s as invalid input (AMD_INVALID); this is a bug in catena, "
                         "please report it with the scenario",
                         body_label(m, body, "the model", label));
    return error_set(err, CATENA_EFAIL,
                     "solver.global: out of memory ordering and estimating the direct projection "
                     "of %zu points and %zu links (SuiteSparse's AMD or its arrays); solve them "
                     "by Gauss-Seidel (solver.global: false) or free memory",
                     m->npoints, m->nlinks);
}

int solver_check(const struct model *m, struct catena_error *err)
{
    if (!m->global)
        return CATENA_OK;
    struct direct_estimate e;
    const enum direct_status status = direct_estimate(m, &e);
    if (status != DIRECT_OK)
        return setup_failed(m, status, e.body, err);
    if (e.flops <= m->global_limit)
        return CATENA_OK;
    char label[96];
    return error_set(err, CATENA_EINPUT,
                     "solver.global: %s: one factorisation of its links would take %.2g "
                     "operations (about %.2g s) and %.0f MB, past solver.global_limit (%.2g); "
                     "solve it by Gauss-Seidel (solver.global: false) or raise the limit",
                     body_label(m, e.body, "the points outside bodies", label), e.flops,
                     e.flops / FACTOR_RATE, e.entries * 12.0 / 1e6, m->global_limit);
}

long solver_find_diverged(const struct state *s)
{
    if (s->cache->batch && batch_find_diverged(s)) /* the team's scan, when it shares the step */
        return s->cache->batch->diverged;
    return points_find_diverged(s, 0, s->npoints);
}

double solver_max_stretch(const struct model *m, const struct state *s)
{
    double max = 0.0;
    for (size_t i = 0; i < s->nlinks; i++)
        if (s->alive[i]) {
            const double r = distance_stretch(m, s, i);
            if (r > max)
                max = r;
        }
    return max;
}
