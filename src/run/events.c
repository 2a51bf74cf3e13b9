/* Applying the events timeline to a run between steps (see run/events.h). Each kind is one
 * function. What events change lives in the run's live model, a deep copy of the scenario's
 * (model_clone: it shares no array with it); each change tells the solver's caches what
 * changed through solver_topology_changed, once per boundary. */
#include "run/events.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/event_log.h"
#include "solver/distance.h"
#include "solver/solver.h"
#include "solver/velocity.h"

const char *const events_log_names[] = {
    "break",    "cut",      "release", "pin", "drag",     "reel",
    "reel_end", "velocity", "impulse", "set", "teleport", NULL,
};

/* A cut is kept this fraction of the link away from either end, so both halves keep a rest
 * length that a projection can divide by. */
#define CUT_MARGIN 0.01

/* A piece shorter than this many ulps of its ends' coordinates is not cut off
 * (cut_leaves_pieces): its length would be mostly rounding. */
#define CUT_RESOLUTION 1024.0

/* A running reel: its event, its length when it started and the step it started at. */
struct reel {
    const struct event *ev;
    double start;
    long step;
};

struct events {
    const struct model *m; /* the scenario's model, never written */
    struct model *live;    /* the live model: a deep copy of m that events change; NULL when m
                              has no events (nothing changes it then) */
    unsigned changed;      /* enum solver_change bits since the last boundary's update */
    size_t next;           /* the next event of m->events to apply */
    struct reel *reels;    /* running reels, in the order they started */
    size_t nreels;
    uint32_t *parent; /* [npoints] union-find over structural links, for cuts */
    struct event_log log;
    long counts[LOG_KINDS];
};

struct events *events_create(const struct model *m)
{
    struct events *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->m = m;
    size_t pin_cap = m->npins, nreels = 0;
    for (size_t i = 0; i < m->nevents; i++) {
        pin_cap += m->events[i].kind == EVENT_PIN || m->events[i].kind == EVENT_DRAG;
        nreels += m->events[i].kind == EVENT_REEL;
    }
    if (m->nevents > 0) {
        e->live = model_clone(m);
        /* room for the pins that pin and drag events add */
        struct pin *pins =
            e->live ? realloc(e->live->pins, (pin_cap ? pin_cap : 1) * sizeof *pins) : NULL;
        if (!pins) {
            events_destroy(e);
            return NULL;
        }
        e->live->pins = pins;
    }
    e->reels = calloc(nreels ? nreels : 1, sizeof *e->reels);
    e->parent = calloc(m->npoints ? m->npoints : 1, sizeof *e->parent);
    if (!e->reels || !e->parent) {
        events_destroy(e);
        return NULL;
    }
    return e;
}

void events_destroy(struct events *e)
{
    if (!e)
        return;
    event_log_abort(&e->log);
    model_destroy(e->live);
    free(e->reels);
    free(e->parent);
    free(e);
}

const struct model *events_model(const struct events *e)
{
    return e->live ? e->live : e->m;
}

int events_log_open(struct events *e, const char *dir, struct catena_error *err)
{
    return event_log_open(&e->log, dir, err);
}

int events_log_commit(struct events *e, struct catena_error *err)
{
    return event_log_commit(&e->log, err);
}

int events_pending(const struct events *e)
{
    return e->next < e->m->nevents || e->nreels > 0;
}

long events_count(const struct events *e, enum event_log_kind kind)
{
    return e->counts[kind];
}

/* ---- logging ---- */

static void log_row(struct events *e, const struct state *s, enum event_log_kind kind, long link,
                    long a, long b, double stretch, double force)
{
    const struct event_row r = {.step = s->step,
                                .time = s->t,
                                .kind = events_log_names[kind],
                                .link = link,
                                .a = a,
                                .b = b,
                                .stretch = stretch,
                                .force = force};
    event_log_write(&e->log, &r);
    e->counts[kind]++;
}

static double stretch_of(const struct events *e, const struct state *s, size_t i)
{
    const struct link *l = &events_model(e)->links[i];
    return v3_dist(s->x[l->a], s->x[l->b]) / l->rest;
}

/* The links that broke in the step just done (the solver lists them in s->broke), with the
 * stretch and tension they broke at: positions have not moved since the check. */
static void log_breaks(struct events *e, const struct state *s)
{
    const struct model *lm = events_model(e);
    for (size_t k = 0; k < s->nbroke; k++) {
        const uint32_t i = s->broke[k];
        const struct link *l = &lm->links[i];
        log_row(e, s, LOG_BREAK, (long)i, l->a, l->b, stretch_of(e, s, i),
                distance_tension(lm, s, i));
    }
}

/* ---- pins ---- */

static long find_pin(const struct events *e, uint32_t point)
{
    for (size_t p = 0; p < e->live->npins; p++)
        if (e->live->pins[p].point == point)
            return (long)p;
    return -1;
}

/* Removes point's pin, keeping the others in order; returns 0 when it had none. */
static int unpin(struct events *e, uint32_t point)
{
    const long p = find_pin(e, point);
    if (p < 0)
        return 0;
    memmove(&e->live->pins[p], &e->live->pins[p + 1],
            (e->live->npins - (size_t)p - 1) * sizeof *e->live->pins);
    e->live->npins--;
    e->live->inv_mass[point] = e->live->mass[point] > 0.0 ? 1.0 / e->live->mass[point] : 0.0;
    return 1;
}

/* Replaces any pin of the point with pin (the loader reserved the room). */
static void add_pin(struct events *e, const struct pin *pin)
{
    unpin(e, pin->point);
    e->live->pins[e->live->npins++] = *pin;
    e->live->inv_mass[pin->point] = 0.0;
}

static void apply_release(struct events *e, struct state *s, const struct event *ev)
{
    if (!unpin(e, ev->index))
        return;
    /* Free from now on with the velocity the pin gave it over the last substep: the pin's
     * own, re-encoded so that Verlet carries it on without a g h / 2 error. */
    velocity_launch(e->live, s, ev->index, velocity_get(e->live, s, ev->index));
    e->changed |= SOLVER_CHANGED_LINKS | SOLVER_CHANGED_FREE;
    log_row(e, s, LOG_RELEASE, -1, ev->index, -1, NAN, NAN);
}

/* The point stops where it is (or is put at `at`) and stays. */
static void apply_pin(struct events *e, struct state *s, const struct event *ev)
{
    const struct pin pin = {.point = ev->index, .at = ev->has_at ? ev->v : s->x[ev->index]};
    add_pin(e, &pin);
    s->x[ev->index] = pin.at;
    velocity_set(e->live, s, ev->index, v3(0, 0, 0));
    e->changed |= SOLVER_CHANGED_LINKS | SOLVER_CHANGED_FREE;
    log_row(e, s, LOG_PIN, -1, ev->index, -1, NAN, NAN);
}

/* The path starts where the point is now; the loader scheduled the release at its end. */
static void apply_drag(struct events *e, struct state *s, const struct event *ev)
{
    struct pin pin = ev->pin;
    pin.at = s->x[pin.point];
    add_pin(e, &pin);
    e->changed |= SOLVER_CHANGED_LINKS | SOLVER_CHANGED_FREE;
    log_row(e, s, LOG_DRAG, -1, pin.point, -1, NAN, NAN);
}

/* ---- cuts ---- */

/* The live link nearest point q (within body `body`, or any when body is UINT32_MAX) and the
 * fraction along it of the point nearest q; -1 when no link is alive. Ties: lowest index. */
static long nearest_link(const struct events *e, const struct state *s, vec3 q, uint32_t body,
                         double *frac)
{
    size_t first = 0, end = s->nlinks;
    if (body != UINT32_MAX) {
        first = e->live->bodies[body].first_link;
        end = first + e->live->bodies[body].nlinks;
    }
    long best = -1;
    double best_d = INFINITY;
    for (size_t i = first; i < end; i++) {
        const struct link *l = &e->live->links[i];
        if (!s->alive[i] || l->role != ROLE_STRUCTURAL)
            continue;
        const vec3 a = s->x[l->a], d = v3_sub(s->x[l->b], a);
        const double dd = v3_dot(d, d);
        double t = dd > 0.0 ? v3_dot(v3_sub(q, a), d) / dd : 0.5;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        const double dist = v3_dist(q, v3_add(a, v3_scale(d, t)));
        if (dist < best_d) {
            best_d = dist;
            best = (long)i;
            *frac = t;
        }
    }
    return best;
}

static uint32_t find_root(uint32_t *parent, uint32_t p)
{
    while (parent[p] != p) {
        parent[p] = parent[parent[p]]; /* path halving */
        p = parent[p];
    }
    return p;
}

/* After a cut, the live bend and shear links whose ends now lie in different pieces (joined
 * by no path of live structural links) would still hold the pieces together: they go too. */
static void unbridge(struct events *e, struct state *s)
{
    const struct model *lm = e->live;
    for (uint32_t p = 0; p < lm->npoints; p++)
        e->parent[p] = p;
    for (size_t i = 0; i < lm->nlinks; i++)
        if (s->alive[i] && lm->links[i].role == ROLE_STRUCTURAL) {
            const uint32_t ra = find_root(e->parent, lm->links[i].a),
                           rb = find_root(e->parent, lm->links[i].b);
            /* The smaller root wins, so the forest does not depend on link order. */
            if (ra != rb)
                e->parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
        }
    for (size_t i = 0; i < lm->nlinks; i++)
        if (s->alive[i] && lm->links[i].role != ROLE_STRUCTURAL &&
            find_root(e->parent, lm->links[i].a) != find_root(e->parent, lm->links[i].b))
            s->alive[i] = 0;
}

/* Half the lighter end's mass (ignoring massless ends) goes to each new end, taken from the
 * end it stays linked to: mass is conserved, and a heavy end (a lamp) loses little. */
static double cut_share(const struct events *e, uint32_t a, uint32_t b)
{
    const double ma = e->live->mass[a], mb = e->live->mass[b];
    if (ma > 0.0 && (mb <= 0.0 || ma <= mb))
        return 0.5 * ma;
    return mb > 0.0 ? 0.5 * mb : 0.0;
}

/* New end c, split off old end a: mass, radius, position p and velocity v. */
static void new_end(struct events *e, struct state *s, uint32_t c, uint32_t a, double share, vec3 p,
                    vec3 v)
{
    struct model *lm = e->live;
    const double mc = lm->mass[a] > 0.0 ? share : 0.0;
    lm->mass[a] -= mc;
    if (lm->inv_mass[a] != 0.0)
        lm->inv_mass[a] = 1.0 / lm->mass[a];
    lm->mass[c] = mc;
    lm->inv_mass[c] = mc > 0.0 ? 1.0 / mc : 0.0;
    lm->radius[c] = lm->radius[a];
    s->x[c] = p;
    velocity_set(lm, s, c, v);
}

/* Whether cutting a link of rest length rest between a and b, at fraction f, share of mass
 * going to each new end, leaves pieces the solver can work with: each piece longer than
 * the rounding of its ends' positions (CUT_RESOLUTION ulps of the largest coordinate) and
 * each new end's mass with a finite inverse. The same cut repeated halves both each time:
 * 1100 of them reached a mass of 0 and NaN positions. */
static int cut_leaves_pieces(const struct state *s, uint32_t a, uint32_t b, double f, double rest,
                             double share)
{
    const vec3 xa = s->x[a], xb = s->x[b];
    const double scale = fmax(fmax(fmax(fabs(xa.x), fabs(xa.y)), fmax(fabs(xa.z), fabs(xb.x))),
                              fmax(fabs(xb.y), fabs(xb.z)));
    const double shortest = fmin(f, 1.0 - f) * rest;
    return shortest > CUT_RESOLUTION * DBL_EPSILON * scale && shortest > 0.0 &&
           (share == 0.0 || isfinite(1.0 / share));
}

/* Splits link i at fraction f of the way from a to b: a keeps link i up to the new end c,
 * the reserved link runs from the new end d to b. Each half's rest length is its fraction
 * of the old one, so each keeps the stretch it had and neither jumps. A cut that would
 * leave a piece too short or an end too light for the solver (cut_leaves_pieces) is not
 * made. */
static void apply_cut(struct events *e, struct state *s, const struct event *ev)
{
    double f = ev->a;
    long i = ev->target == TARGET_LINK ? (long)ev->index : nearest_link(e, s, ev->v, ev->index, &f);
    if (i < 0 || !s->alive[i])
        return; /* nothing left to cut there: the link broke or no link is alive */
    f = f < CUT_MARGIN ? CUT_MARGIN : f > 1.0 - CUT_MARGIN ? 1.0 - CUT_MARGIN : f;
    struct link *l = &e->live->links[i];
    const uint32_t a = l->a, b = l->b, c = ev->reserved_point, d = ev->reserved_point + 1;
    const double stretch = stretch_of(e, s, (size_t)i), rest = l->rest;
    const vec3 p = v3_add(s->x[a], v3_scale(v3_sub(s->x[b], s->x[a]), f));
    const vec3 va = velocity_get(e->live, s, a), vb = velocity_get(e->live, s, b);
    const vec3 v = v3_add(va, v3_scale(v3_sub(vb, va), f));
    const double share = cut_share(e, a, b);
    if (!cut_leaves_pieces(s, a, b, f, rest, share))
        return;
    new_end(e, s, c, a, share, p, v);
    new_end(e, s, d, b, share, p, v);
    struct link *far = &e->live->links[ev->reserved_link];
    *far = *l;
    far->a = d;
    far->rest = (1.0 - f) * rest;
    l->b = c;
    l->rest = f * rest;
    s->alive[ev->reserved_link] = 1;
    unbridge(e, s);
    e->changed |= SOLVER_CHANGED_LINKS | SOLVER_CHANGED_ENDS | SOLVER_CHANGED_FREE;
    log_row(e, s, LOG_CUT, i, a, b, stretch, NAN);
}

/* ---- reels ---- */

/* Sum of the rest lengths a reel changes: the link's, or the body's structural links'. */
static double reel_length(const struct events *e, const struct event *ev)
{
    if (ev->target == TARGET_LINK)
        return e->live->links[ev->index].rest;
    const struct body *bd = &e->live->bodies[ev->index];
    double sum = 0.0;
    for (uint32_t k = 0; k < bd->nlinks; k++)
        if (e->live->links[bd->first_link + k].role == ROLE_STRUCTURAL)
            sum += e->live->links[bd->first_link + k].rest;
    return sum;
}

/* A reel's length at the boundary after `step`: the length it started with plus rate dt for
 * each boundary from its own (computed from the start, so that no error accumulates),
 * stopped at the bound: reached within a millionth of an increment it counts as reached. A
 * body scales all its links (shear and bend too) by the same factor, keeping its shape.
 * Returns 1 when done. */
static int reel_step(struct events *e, const struct reel *r, long step)
{
    const struct event *ev = r->ev;
    const double rate = ev->a, bound = ev->b, inc = rate * e->m->dt, len = reel_length(e, ev);
    if (rate < 0.0 ? r->start <= bound : r->start >= bound)
        return 1; /* started at or past its bound: nothing to do */
    double next = r->start + inc * (double)(step - r->step + 1);
    const double slack = 1e-6 * fabs(inc);
    const int done = rate < 0.0 ? next <= bound + slack : next >= bound - slack;
    if (done)
        next = bound;
    if (ev->target == TARGET_LINK) {
        e->live->links[ev->index].rest = next;
    } else {
        const struct body *bd = &e->live->bodies[ev->index];
        const double k = next / len;
        for (uint32_t j = 0; j < bd->nlinks; j++)
            e->live->links[bd->first_link + j].rest *= k;
    }
    return done;
}

static void advance_reels(struct events *e, struct state *s)
{
    size_t kept = 0;
    for (size_t r = 0; r < e->nreels; r++) {
        const struct event *ev = e->reels[r].ev;
        if (reel_step(e, &e->reels[r], s->step))
            log_row(e, s, LOG_REEL_END, ev->target == TARGET_LINK ? (long)ev->index : -1, -1, -1,
                    NAN, NAN);
        else
            e->reels[kept++] = e->reels[r];
    }
    if (e->nreels > 0) /* rest lengths */
        e->changed |= SOLVER_CHANGED_LINKS;
    e->nreels = kept;
}

static void apply_reel(struct events *e, struct state *s, const struct event *ev)
{
    e->reels[e->nreels++] = (struct reel){.ev = ev, .start = reel_length(e, ev), .step = s->step};
    log_row(e, s, LOG_REEL, ev->target == TARGET_LINK ? (long)ev->index : -1, -1, -1, NAN, NAN);
}

/* ---- velocities and moves ---- */

/* The points an event acts on: one point, or a body's range. */
static void event_points(const struct events *e, const struct event *ev, uint32_t *first,
                         uint32_t *count)
{
    if (ev->target == TARGET_BODY) {
        *first = e->live->bodies[ev->index].first_point;
        *count = e->live->bodies[ev->index].npoints;
    } else {
        *first = ev->index;
        *count = 1;
    }
}

static long point_column(const struct event *ev)
{
    return ev->target == TARGET_POINT ? (long)ev->index : -1;
}

/* Sets (velocity: as an initial velocity is set) or adds to (impulse / mass) the velocity of
 * the free points; an impulse changes the momentum by exactly J. */
static void apply_velocity(struct events *e, struct state *s, const struct event *ev)
{
    uint32_t first, count;
    event_points(e, ev, &first, &count);
    double mass = 0.0;
    for (uint32_t k = first; k < first + count; k++)
        if (e->live->inv_mass[k] != 0.0)
            mass += e->live->mass[k];
    for (uint32_t k = first; k < first + count; k++) {
        if (e->live->inv_mass[k] == 0.0)
            continue;
        if (ev->kind == EVENT_IMPULSE)
            velocity_set(e->live, s, k,
                         v3_add(velocity_get(e->live, s, k), v3_scale(ev->v, 1.0 / mass)));
        else
            velocity_launch(e->live, s, k, ev->v);
    }
    log_row(e, s, ev->kind == EVENT_IMPULSE ? LOG_IMPULSE : LOG_VELOCITY, -1, point_column(ev), -1,
            NAN, NAN);
}

/* Positions and previous positions move together, so velocities are kept; the pins of the
 * moved points go along (those on a keyframed path keep to it). */
static void apply_teleport(struct events *e, struct state *s, const struct event *ev)
{
    uint32_t first, count;
    event_points(e, ev, &first, &count);
    for (uint32_t k = first; k < first + count; k++) {
        s->x[k] = v3_add(s->x[k], ev->v);
        s->xprev[k] = v3_add(s->xprev[k], ev->v);
    }
    for (size_t p = 0; p < e->live->npins; p++) {
        struct pin *pin = &e->live->pins[p];
        if (pin->point >= first && pin->point < first + count && pin->motion != MOTION_KEYFRAMES)
            pin->at = v3_add(pin->at, ev->v);
    }
    e->changed |= SOLVER_CHANGED_MOVED;
    log_row(e, s, LOG_TELEPORT, -1, point_column(ev), -1, NAN, NAN);
}

static void apply_set(struct events *e, struct state *s, const struct event *ev)
{
    struct model *lm = e->live;
    if (ev->set & SET_GRAVITY)
        lm->gravity = ev->gravity;
    if (ev->set & SET_WIND)
        lm->wind = ev->wind;
    if (ev->set & SET_GUST) {
        lm->gust_amplitude = ev->gust_amplitude;
        lm->gust_frequency = ev->gust_frequency;
    }
    if (ev->set & SET_ITERATIONS)
        lm->iterations = ev->iterations;
    if (ev->set & SET_DAMPING)
        lm->damping = ev->damping;
    if (ev->set & SET_COLLIDE_EVERY)
        lm->collide_every = ev->collide_every;
    log_row(e, s, LOG_SET, -1, -1, -1, NAN, NAN);
}

static void apply(struct events *e, struct state *s, const struct event *ev)
{
    switch ((enum event_kind)ev->kind) {
    case EVENT_CUT:
        apply_cut(e, s, ev);
        break;
    case EVENT_RELEASE:
        apply_release(e, s, ev);
        break;
    case EVENT_PIN:
        apply_pin(e, s, ev);
        break;
    case EVENT_DRAG:
        apply_drag(e, s, ev);
        break;
    case EVENT_REEL:
        apply_reel(e, s, ev);
        break;
    case EVENT_VELOCITY:
    case EVENT_IMPULSE:
        apply_velocity(e, s, ev);
        break;
    case EVENT_SET:
        apply_set(e, s, ev);
        break;
    case EVENT_TELEPORT:
        apply_teleport(e, s, ev);
        break;
    }
}

void events_boundary(struct events *e, struct state *s)
{
    log_breaks(e, s);
    while (e->next < e->m->nevents && e->m->events[e->next].step <= s->step)
        apply(e, s, &e->m->events[e->next++]);
    advance_reels(e, s);
    if (e->changed)
        solver_topology_changed(e->live, s, e->changed);
    e->changed = 0;
}
