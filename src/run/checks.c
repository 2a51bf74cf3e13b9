/* Judging a run's checks (see run/checks.h). One tracker per check follows its value over
 * its window: the first step that broke the limit and the worst value seen; the energy
 * check keeps the energy at its window's first step as the baseline. */
#include "run/checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/metrics.h"

struct tracker {
    const struct check *c;
    int failed;         /* the limit was broken at first_step */
    long first_step;    /* -1 until it fails */
    double first_value; /* the value there */
    long worst_step;    /* -1 until the window has begun */
    double worst_value; /* the largest value seen in the window */
    double base;        /* energy: the total energy at the window's first step, J */
    long link;          /* no_break: the first link that broke */
    vec3 at;            /* inside: the point where it was judged */
    long end_step;      /* the run's last step, once it has ended */
};

struct checks {
    size_t n;
    struct tracker *t; /* [n] */
    int need_metrics;  /* some check reads the metrics of each step */
};

const char *checks_result_name(enum check_result r)
{
    return r == CHECK_PASSED ? "passed" : r == CHECK_FAILED ? "failed" : "undecided";
}

struct checks *checks_create(const struct scenario *sc)
{
    struct checks *c = calloc(1, sizeof *c);
    const size_t n = sc->checks.n;
    if (!c || !(c->t = calloc(n ? n : 1, sizeof *c->t))) {
        free(c);
        return NULL;
    }
    c->n = n;
    for (size_t i = 0; i < n; i++) {
        const struct check *k = &sc->checks.list[i];
        c->t[i] = (struct tracker){.c = k, .first_step = -1, .worst_step = -1, .link = -1};
        c->need_metrics |= k->type != CHECK_NO_BREAK && k->type != CHECK_INSIDE && !k->at_end;
    }
    return c;
}

void checks_destroy(struct checks *c)
{
    if (!c)
        return;
    free(c->t);
    free(c);
}

/* A value of t's window at step: the worst so far, and the first that breaks the limit. */
static void observe(struct tracker *t, long step, double v)
{
    if (t->worst_step < 0 || v > t->worst_value) {
        t->worst_step = step;
        t->worst_value = v;
    }
    if (!t->failed && v > t->c->limit) {
        t->failed = 1;
        t->first_step = step;
        t->first_value = v;
    }
}

/* How far p lies outside the box [lo, hi], m; 0 inside or on its faces. */
static double box_distance(vec3 p, vec3 lo, vec3 hi, int dims)
{
    const double x[3] = {p.x, p.y, p.z}, a[3] = {lo.x, lo.y, lo.z}, b[3] = {hi.x, hi.y, hi.z};
    double d2 = 0;
    for (int k = 0; k < dims; k++) {
        const double d = x[k] < a[k] ? a[k] - x[k] : x[k] > b[k] ? x[k] - b[k] : 0.0;
        d2 += d * d;
    }
    return sqrt(d2);
}

static void judge_inside(struct tracker *t, const struct model *m, const struct state *s)
{
    t->at = s->x[t->c->point];
    t->worst_step = s->step;
    t->worst_value = box_distance(t->at, t->c->min, t->c->max, m->dims);
    /* NaN (a diverged point) is outside too */
    t->failed = !(t->worst_value == 0.0);
    t->first_step = t->failed ? s->step : -1;
    t->first_value = t->worst_value;
}

void checks_step(struct checks *c, const struct model *m, const struct state *s)
{
    struct metrics mt = {0};
    if (c->need_metrics)
        metrics_compute(m, s, &mt);
    for (size_t i = 0; i < c->n; i++) {
        struct tracker *t = &c->t[i];
        const struct check *k = t->c;
        if (k->at_end || s->step < k->step)
            continue;
        switch (k->type) {
        case CHECK_MAX_STRETCH:
            observe(t, s->step, mt.max_stretch);
            break;
        case CHECK_NO_BREAK:
            if (s->nbroke > 0 && !t->failed) {
                const struct link *l = &m->links[s->broke[0]];
                t->failed = 1;
                t->first_step = s->step;
                t->link = (long)s->broke[0];
                t->first_value = v3_dist(s->x[l->a], s->x[l->b]) / l->rest;
            }
            break;
        case CHECK_SETTLED:
            observe(t, s->step, mt.max_speed);
            break;
        case CHECK_ENERGY:
            if (t->worst_step < 0)
                t->base = mt.kinetic + mt.potential;
            observe(t, s->step, mt.kinetic + mt.potential - t->base);
            break;
        case CHECK_INSIDE:
            if (s->step == k->step)
                judge_inside(t, m, s);
            break;
        case CHECK_TYPES:
            break;
        }
    }
}

/* ---- the end ---- */

/* "(x, y)" or "(x, y, z)". */
static const char *show_point(char *buf, size_t size, vec3 p, int dims)
{
    if (dims == 3)
        snprintf(buf, size, "(%g, %g, %g)", p.x, p.y, p.z);
    else
        snprintf(buf, size, "(%g, %g)", p.x, p.y);
    return buf;
}

/* Whether t's check still waits for a state when the run ends at s: a check of the final
 * state, an inside check whose step never came, a window that never began (a run that
 * stopped early). */
static int still_due(const struct tracker *t, const struct state *s)
{
    const struct check *k = t->c;
    if (k->at_end)
        return 1;
    return k->type == CHECK_INSIDE ? t->worst_step < 0 : s->step < k->step;
}

/* What is left to judge once the run has ended at s; returns the result. */
static enum check_result settle_tracker(struct tracker *t, const struct model *m,
                                        const struct state *s, enum checks_end end)
{
    const struct check *k = t->c;
    if (t->failed)
        return CHECK_FAILED;
    if (!still_due(t, s)) /* a window cut short by a divergence is undecided */
        return end == CHECKS_END_CUT && k->type != CHECK_INSIDE ? CHECK_UNDECIDED : CHECK_PASSED;
    /* The final state stands for what is due: at the end of a run, or later in one that
     * stopped because it settled (nothing would have moved any more); not for what is due
     * after the last step of a complete run. */
    if (end == CHECKS_END_CUT || (!k->at_end && end != CHECKS_END_SETTLED))
        return CHECK_UNDECIDED;
    struct metrics mt;
    metrics_compute(m, s, &mt);
    switch (k->type) {
    case CHECK_MAX_STRETCH:
        observe(t, s->step, mt.max_stretch);
        break;
    case CHECK_SETTLED:
        observe(t, s->step, mt.max_speed);
        break;
    case CHECK_ENERGY: /* its window begins at the final state: no gain */
        t->base = mt.kinetic + mt.potential;
        observe(t, s->step, 0.0);
        break;
    case CHECK_INSIDE:
        judge_inside(t, m, s);
        break;
    case CHECK_NO_BREAK:
    case CHECK_TYPES:
        break;
    }
    return t->failed ? CHECK_FAILED : CHECK_PASSED;
}

/* The message of a check that measures a value over its window (or at the end): what was
 * measured where, against the limit, and for a failure also the worst of the window. */
static void describe_value(const struct tracker *t, const struct model *m, int failed,
                           const char *what, const char *unit, const char *qualifier, char *msg,
                           size_t size)
{
    const long step = failed ? t->first_step : t->worst_step;
    const double v = failed ? t->first_value : t->worst_value;
    int n =
        snprintf(msg, size, "%s %g%s at step %ld (t = %g s), %s %g%s%s", what, v, unit, step,
                 (double)step * m->dt, failed ? "above" : "within", t->c->limit, unit, qualifier);
    if (failed && !t->c->at_end && n > 0 && (size_t)n < size)
        snprintf(msg + n, size - (size_t)n, "; largest %g%s at step %ld", t->worst_value, unit,
                 t->worst_step);
}

/* Why a check was not judged: its window lies after the run's last step (a run made shorter
 * than the check assumes), or the run stopped (diverged, interrupted) before it was done. */
static void describe_undecided(const struct tracker *t, const struct model *m, char *msg,
                               size_t size)
{
    const struct check *k = t->c;
    if (!k->at_end && t->end_step < k->step)
        snprintf(msg, size,
                 "not judged: the run ended at step %ld (t = %g s), before the check's step %ld "
                 "(t = %g s)",
                 t->end_step, (double)t->end_step * m->dt, k->step, (double)k->step * m->dt);
    else
        snprintf(msg, size, "not judged: the run stopped at step %ld (t = %g s), before %s",
                 t->end_step, (double)t->end_step * m->dt,
                 k->at_end ? "its end" : "the end of the check's window");
}

static void describe(const struct tracker *t, const struct model *m, struct check_outcome *o)
{
    const struct check *k = t->c;
    const int failed = o->result == CHECK_FAILED;
    const long step = failed ? t->first_step : t->worst_step;
    char *msg = o->message, p[64], q[64], r[64], label[128], qual[128];
    const size_t size = sizeof o->message;
    o->step = step;
    o->value = failed ? t->first_value : t->worst_value;
    const int window = !k->at_end && k->type != CHECK_NO_BREAK && k->type != CHECK_INSIDE;
    o->largest_step = window ? t->worst_step : -1;
    o->largest = window ? t->worst_value : 0.0;
    if (o->result == CHECK_UNDECIDED) {
        describe_undecided(t, m, msg, size);
        return;
    }
    switch (k->type) {
    case CHECK_MAX_STRETCH:
        describe_value(t, m, failed,
                       k->at_end ? "final stretch"
                       : failed  ? "stretch"
                                 : "largest stretch",
                       "", "", msg, size);
        break;
    case CHECK_NO_BREAK:
        if (failed)
            snprintf(msg, size, "link %ld broke at step %ld (t = %g s), stretched %g", t->link,
                     step, (double)step * m->dt, o->value);
        else
            snprintf(msg, size, "no link broke");
        break;
    case CHECK_SETTLED:
        snprintf(qual, sizeof qual, " from %g s on", (double)k->step * m->dt);
        describe_value(t, m, failed, failed ? "speed" : "largest speed", " m/s", qual, msg, size);
        break;
    case CHECK_ENERGY:
        snprintf(qual, sizeof qual, " over the %g J of t = %g s", t->base, (double)k->step * m->dt);
        describe_value(t, m, failed, failed ? "energy gain" : "largest energy gain", " J", qual,
                       msg, size);
        break;
    case CHECK_INSIDE:
        snprintf(msg, size, "point \"%s\" at %s at step %ld (t = %g s), %s the box %s to %s",
                 model_point_label(m, k->point, label, sizeof label),
                 show_point(p, sizeof p, t->at, m->dims), step, (double)step * m->dt,
                 failed ? "outside" : "inside", show_point(q, sizeof q, k->min, m->dims),
                 show_point(r, sizeof r, k->max, m->dims));
        break;
    case CHECK_TYPES:
        break;
    }
}

struct check_outcome *checks_finish(struct checks *c, const struct model *m, const struct state *s,
                                    enum checks_end end, size_t *n)
{
    *n = 0;
    if (c->n == 0)
        return NULL;
    struct check_outcome *out = calloc(c->n, sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = 0; i < c->n; i++) {
        out[i].check = c->t[i].c;
        c->t[i].end_step = s->step;
        out[i].result = settle_tracker(&c->t[i], m, s, end);
        describe(&c->t[i], m, &out[i]);
    }
    *n = c->n;
    return out;
}
