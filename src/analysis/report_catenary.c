/* The catenary report's numbers (analysis/report_catenary.h): picks the chains, projects each into
 * the vertical plane through its ends and chains the calls of analysis/catenary.h: the curve
 * through the ends, the discrete equilibrium, the fit, the point-by-point errors. */
#define _POSIX_C_SOURCE 200809L
#include "analysis/report_catenary.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/traj_read.h"

/* "LABEL: WHAT: message", the chain or option the problem is about in WHAT. */
static int report_error(struct catena_error *err, const struct report_catenary_options *o,
                        const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int report_error(struct catena_error *err, const struct report_catenary_options *o,
                        const char *what, const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_set(err, CATENA_EINPUT, "%s: %s: %s", o->label, what, msg);
}

/* For every point p, the structural link joining p and p + 1, or -1: chains are runs. */
static long *next_links(const struct model *m)
{
    long *next = malloc((m->npoints ? m->npoints : 1) * sizeof *next);
    if (!next)
        return NULL;
    for (size_t p = 0; p < m->npoints; p++)
        next[p] = -1;
    for (size_t l = m->nlinks; l-- > 0;) { /* backwards: the first such link wins */
        const struct link *k = &m->links[l];
        const uint32_t lo = k->a < k->b ? k->a : k->b, hi = k->a < k->b ? k->b : k->a;
        if (hi == lo + 1 && k->role == ROLE_STRUCTURAL)
            next[lo] = (long)l;
    }
    return next;
}

static int pinned(const struct model *m, size_t p)
{
    return m->inv_mass[p] == 0.0;
}

static int add_chain(struct report_catenary *r, const struct report_catenary_options *o,
                     const char *body, size_t first, size_t last, struct catena_error *err)
{
    struct report_chain *c = &r->chains[r->nchains];
    *c = (struct report_chain){.first = first, .last = last, .nlinks = last - first};
    if (body && !(c->body = strdup(body)))
        return error_set(err, CATENA_EFAIL, "%s: out of memory", o->label);
    r->nchains++;
    return CATENA_OK;
}

/* --body NAME: a rope with both ends pinned. */
static int select_body(struct report_catenary *r, const struct report_catenary_options *o,
                       struct catena_error *err)
{
    const struct model *m = r->m;
    char what[300], buf[64];
    snprintf(what, sizeof what, "--body %s", o->body);
    size_t i = 0;
    while (i < m->nbodies && strcmp(m->bodies[i].name, o->body) != 0)
        i++;
    if (i == m->nbodies)
        return report_error(err, o, what, "no such body (%s)",
                            m->nbodies ? "see `catena validate` for the bodies"
                                       : "the scenario has no bodies; choose --points I..J");
    const struct body *b = &m->bodies[i];
    if (b->type != BODY_ROPE || b->npoints < 3)
        return report_error(err, o, what,
                            "not a rope of at least 2 segments (choose the chain with --points "
                            "I..J)");
    for (int end = 0; end < 2; end++) {
        const size_t p = end ? b->first_point + b->npoints - 1 : b->first_point;
        if (!pinned(m, p))
            return report_error(err, o, what,
                                "its %s point %s is not pinned: a catenary hangs between two "
                                "pinned ends (choose them with --points I..J)",
                                end ? "last" : "first", model_point_label(m, p, buf, sizeof buf));
    }
    return add_chain(r, o, b->name, b->first_point, b->first_point + b->npoints - 1, err);
}

/* --points I..J: consecutive points joined by links, free inside. */
static int select_points(struct report_catenary *r, const struct report_catenary_options *o,
                         const long *next, struct catena_error *err)
{
    const struct model *m = r->m;
    char what[64], buf[64];
    snprintf(what, sizeof what, "--points %ld..%ld", o->first, o->last);
    if (o->last < 0 || (size_t)o->last >= m->npoints)
        return report_error(err, o, what, "point %ld does not exist (the scenario has %zu points)",
                            o->last, m->npoints);
    if (o->last - o->first < 2)
        return report_error(err, o, what,
                            "a chain needs at least 2 links: J must be at least I + 2");
    for (size_t p = (size_t)o->first; p < (size_t)o->last; p++) {
        if (next[p] < 0)
            return report_error(err, o, what, "no link joins points %zu and %zu", p, p + 1);
        if (p > (size_t)o->first && pinned(m, p))
            return report_error(err, o, what,
                                "point %s inside the chain is pinned (end the chain there)",
                                model_point_label(m, p, buf, sizeof buf));
    }
    return add_chain(r, o, NULL, (size_t)o->first, (size_t)o->last, err);
}

/* Every rope with both ends pinned. */
static int select_default(struct report_catenary *r, const struct report_catenary_options *o,
                          struct catena_error *err)
{
    const struct model *m = r->m;
    for (size_t i = 0; i < m->nbodies; i++) {
        const struct body *b = &m->bodies[i];
        if (model_body_hangs(m, b) &&
            add_chain(r, o, b->name, b->first_point, b->first_point + b->npoints - 1, err))
            return err->code;
    }
    if (r->nchains == 0)
        return error_set(err, CATENA_EINPUT,
                         "%s: no rope body has both ends pinned, so there is no chain to "
                         "report on (choose one with --points I..J, or --body NAME)",
                         o->label);
    return CATENA_OK;
}

/* Names the chain in a message: "body chain" or "points 3..40". */
static void chain_name(const struct report_chain *c, char *buf, size_t size)
{
    if (c->body)
        snprintf(buf, size, "body %s", c->body);
    else
        snprintf(buf, size, "points %zu..%zu", c->first, c->last);
}

static int select_chains(struct report_catenary *r, const struct report_catenary_options *o,
                         const long *next, struct catena_error *err)
{
    int rc = o->body         ? select_body(r, o, err)
             : o->first >= 0 ? select_points(r, o, next, err)
                             : select_default(r, o, err);
    /* A rope's links join its consecutive points unless the scenario broke the pattern. */
    for (size_t c = 0; rc == CATENA_OK && c < r->nchains; c++)
        for (size_t p = r->chains[c].first; rc == CATENA_OK && p < r->chains[c].last; p++)
            if (next[p] < 0) {
                char name[300];
                chain_name(&r->chains[c], name, sizeof name);
                rc = report_error(err, o, name, "no link joins points %zu and %zu", p, p + 1);
            }
    return rc;
}

/* The chain's data for analysis_catenary: rest lengths, compliances, interior masses. */
struct chain_data {
    double *rest, *compliance, *mass, *tension;
};

static void chain_data_free(struct chain_data *d)
{
    free(d->rest);
    free(d->compliance);
    free(d->mass);
    free(d->tension);
}

/* Links whose length follows their tension: XPBD's compliance. Other methods' stiffness is a
 * fraction per projection, not a material property, so their reference is rigid. */
static int gather(const struct model *m, const long *next, struct report_chain *c,
                  struct chain_data *d)
{
    const size_t n = c->nlinks;
    d->rest = malloc(n * sizeof *d->rest);
    d->compliance = malloc(n * sizeof *d->compliance);
    d->mass = malloc((n - 1) * sizeof *d->mass);
    d->tension = malloc(n * sizeof *d->tension);
    c->sim = malloc((n + 1) * sizeof *c->sim);
    c->ref = malloc((n + 1) * sizeof *c->ref);
    c->curve = malloc((n + 1) * sizeof *c->curve);
    if (!d->rest || !d->compliance || !d->mass || !d->tension || !c->sim || !c->ref || !c->curve)
        return CATENA_EFAIL;
    c->length = 0;
    for (size_t k = 0; k < n; k++) {
        const struct link *l = &m->links[next[c->first + k]];
        d->rest[k] = l->rest;
        d->compliance[k] = m->method == METHOD_XPBD ? l->compliance : 0.0;
        c->extensible |= d->compliance[k] > 0;
        c->length += l->rest;
        if (k > 0)
            d->mass[k - 1] = m->mass[c->first + k];
    }
    return CATENA_OK;
}

/* The weight per length at each interior point: its mass over half its two links. */
static void mass_profile(struct report_chain *c, const struct chain_data *d)
{
    struct report_mass *w = &c->mass;
    double mass = 0.0, length = 0.0;
    *w = (struct report_mass){.min = INFINITY, .max = -INFINITY, .heaviest = c->first + 1};
    for (size_t k = 1; k < c->nlinks; k++) {
        const double share = 0.5 * (d->rest[k - 1] + d->rest[k]), per = d->mass[k - 1] / share;
        mass += d->mass[k - 1];
        length += share;
        w->min = fmin(w->min, per);
        if (per > w->max) {
            w->max = per;
            w->heaviest = c->first + k;
        }
    }
    w->mean = mass / length;
    w->uniform = w->max - w->min <= 1e-9 * w->mean;
}

/* The largest vertical distance from the chord between the ends down to a joint, m. */
static double polyline_sag(const vec3 *p, size_t n)
{
    const double slope = (p[n - 1].y - p[0].y) / (p[n - 1].x - p[0].x);
    double sag = 0;
    for (size_t k = 1; k + 1 < n; k++)
        sag = fmax(sag, p[0].y + slope * (p[k].x - p[0].x) - p[k].y);
    return sag;
}

/* The analytic curve, the discrete equilibrium and the fit, then the errors. */
static int chain_compute(const struct model *m, const vec3 *x, struct report_chain *c,
                         struct chain_data *d, struct catena_error *err)
{
    const size_t n = c->nlinks + 1;
    for (size_t k = 0; k < n; k++)
        if (!v3_isfinite(x[c->first + k]))
            return error_set(err, CATENA_EINPUT, "point %zu is not finite in this frame",
                             c->first + k);
    if (catenary_plane_init(&c->plane, x[c->first], x[c->last], m->gravity, err))
        return err->code;
    for (size_t k = 0; k < n; k++)
        c->sim[k] = catenary_plane_to2d(&c->plane, x[c->first + k]);
    /* The ends exactly in the plane: z and the first point's coordinates are 0 to round-off. */
    const vec3 a = v3(0, 0, 0), b = v3(c->sim[n - 1].x, c->sim[n - 1].y, 0);
    c->span = b.x;
    c->chord = v3_dist(x[c->first], x[c->last]);
    if (catenary_through(a, b, c->length, &c->analytic, err))
        return err->code;
    c->analytic_sag = catenary_sag(&c->analytic, a.x, b.x, NULL);
    const struct catenary_chain ch = {
        .a = a,
        .b = b,
        .nlinks = c->nlinks,
        .rest = d->rest,
        .compliance = c->extensible ? d->compliance : NULL,
        .mass = d->mass,
        .g = v3_len(m->gravity),
    };
    if (catenary_chain_solve(&ch, c->ref, d->tension, &c->discrete, err))
        return err->code;
    c->discrete_sag = polyline_sag(c->ref, n);
    double s = 0;
    for (size_t k = 0; k < n; k++) {
        c->curve[k] = catenary_point_at_arclen(&c->analytic, a.x, s);
        s += k < c->nlinks ? d->rest[k] : 0;
    }
    if (catenary_fit(c->sim, n, &c->analytic, &c->fit, err))
        return err->code;
    catenary_stats_points(c->sim, c->curve, n, c->span, &c->total);
    catenary_stats_points(c->ref, c->curve, n, c->span, &c->discretisation);
    mass_profile(c, d);
    catenary_stats_points(c->sim, c->ref, n, c->span, &c->solver);
    c->sag = polyline_sag(c->sim, n);
    c->polyline = catenary_polyline_length(c->sim, n);
    catenary_link_stretch(c->sim, d->rest, c->nlinks, &c->stretch);
    c->out_of_plane = 0;
    for (size_t k = 0; k < n; k++)
        c->out_of_plane = fmax(c->out_of_plane, fabs(c->sim[k].z));
    return CATENA_OK;
}

int report_catenary_build(const struct model *m, const vec3 *x, long step, double time,
                          const struct report_catenary_options *o, struct report_catenary **out,
                          struct catena_error *err)
{
    struct report_catenary *r = calloc(1, sizeof *r);
    *out = NULL;
    error_clear(err);
    if (!r)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", o->label);
    *r = (struct report_catenary){.m = m, .scenario = o->scenario, .step = step, .time = time};
    long *next = next_links(m);
    r->chains = calloc(m->nbodies + 1, sizeof *r->chains);
    int rc = next && r->chains ? select_chains(r, o, next, err)
                               : error_set(err, CATENA_EFAIL, "%s: out of memory", o->label);
    for (size_t i = 0; rc == CATENA_OK && i < r->nchains; i++) {
        struct report_chain *c = &r->chains[i];
        struct chain_data d = {0};
        rc = gather(m, next, c, &d);
        if (rc != CATENA_OK)
            error_set(err, CATENA_EFAIL, "%s: out of memory", o->label);
        else if ((rc = chain_compute(m, x, c, &d, err)) != CATENA_OK) {
            char name[300], msg[sizeof err->msg];
            chain_name(c, name, sizeof name);
            snprintf(msg, sizeof msg, "%s", err->msg);
            error_set(err, rc, "%s: %s at step %ld: %s", o->label, name, step, msg);
        }
        chain_data_free(&d);
    }
    free(next);
    if (rc != CATENA_OK) {
        report_catenary_destroy(r);
        return rc;
    }
    *out = r;
    return CATENA_OK;
}

void report_catenary_destroy(struct report_catenary *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nchains; i++) {
        free(r->chains[i].body);
        free(r->chains[i].sim);
        free(r->chains[i].ref);
        free(r->chains[i].curve);
    }
    free(r->chains);
    free(r);
}

/* Steps of the frames read so far, for the message when the wanted one is missing. */
struct frame_span {
    long first, last, n;
};

static int frame_missing(const char *path, long step, const struct frame_span *sp,
                         struct catena_error *err)
{
    if (sp->n == 0)
        return error_set(err, CATENA_EINPUT, "%s: the trajectory holds no frame", path);
    return error_set(err, CATENA_EINPUT,
                     "%s: --step %ld: no frame at that step (the trajectory holds %ld frames, "
                     "steps %ld..%ld)",
                     path, step, sp->n, sp->first, sp->last);
}

int report_catenary_read_frame(const char *path, const struct scenario *sc, long step, vec3 *x,
                               long *step_out, double *time_out, struct catena_error *err)
{
    const struct model *m = sc->model;
    /* in a run directory, the trajectory its summary.json lists (io/rundir.h) */
    struct traj_reader *rd = traj_read_open(path, err);
    if (!rd)
        return err->code;
    const struct traj_info *info = traj_read_info(rd);
    struct frame_span sp = {0, 0, 0};
    int rc = CATENA_OK;
    if (info->npoints != m->npoints || info->dims < m->dims) {
        rc = error_set(err, CATENA_EINPUT,
                       "%s: holds %zu points of %d coordinates, the scenario %s has %zu of %d: "
                       "not the run of this scenario",
                       info->path, info->npoints, info->dims, sc->provenance.source, m->npoints,
                       m->dims);
        goto done;
    }
    const struct traj_frame *fr;
    while ((rc = traj_read_next(rd, &fr, err)) == CATENA_OK && fr) {
        /* NPY keeps no steps: frames were recorded every `every` steps from step 0. */
        const long st = info->has_steps ? fr->step : fr->index * sc->output.every;
        if (sp.n++ == 0)
            sp.first = st;
        sp.last = st;
        if (step >= 0 && st != step)
            continue; /* on to the end, which the message names */
        memcpy(x, fr->x, m->npoints * sizeof *x);
        *step_out = st;
        *time_out = info->has_steps ? fr->time : (double)st * m->dt;
        if (step >= 0)
            goto done;
    }
    if (rc == CATENA_OK && (step >= 0 || sp.n == 0))
        rc = frame_missing(info->path, step, &sp, err);
done:
    traj_read_close(rd);
    return rc;
}
