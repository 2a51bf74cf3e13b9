/* Tests of the events timeline and the world's forces (run/events.c, model/pin_motion.c,
 * solver/wind.c, run/settle.c): breaks logged at the step they happen, cuts that keep the total
 * rest length, a sine-driven wave arriving at sqrt(T/mu), moving pins without false velocity, drag
 * and throw, reel, impulses, set, teleport, wind drag, run until settled and events.csv. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/distance.h"
#include "run/events.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/velocity.h"
#include "solver/state.h"
#include "testutil.h"
#include "testutil_check.h"
#include "testutil_models.h"

#define PI 3.14159265358979323846

/* Beside the models, states and directory of testutil_check.h (made only by a test that
 * logs). */
static struct events *ev, *ev2;

static void setup(void)
{
    tu_models_setup();
    ev = ev2 = NULL;
    dir = NULL;
}

static void teardown(void)
{
    events_destroy(ev);
    events_destroy(ev2);
    tu_models_teardown();
    if (dir)
        tu_rmtree(dir);
    free(dir);
}

static const char *const method_names[] = {"verlet", "pbd", "xpbd"};

/* The working copy of md with its state at boundary 0, logging into dir when log is set. */
static const struct model *start(struct model *md, struct events **e, struct state **st, int log)
{
    *e = events_create(md);
    ck_assert_ptr_nonnull(*e);
    if (log) {
        struct catena_error err;
        dir = tu_tmpdir();
        ck_assert_ptr_nonnull(dir);
        ck_assert_int_eq(events_log_open(*e, dir, &err), 0);
    }
    *st = state_create(events_model(*e));
    ck_assert_ptr_nonnull(*st);
    events_boundary(*e, *st);
    return events_model(*e);
}

static void step(const struct model *lm, struct events *e, struct state *st)
{
    solver_step(lm, st);
    events_boundary(e, st);
}

/* events.csv after committing the log (caller frees). */
static char *log_text(struct events *e)
{
    struct catena_error err;
    ck_assert_int_eq(events_log_commit(e, &err), 0);
    char *path = tu_path(dir, "events.csv");
    char *text = tu_read_file(path, NULL);
    free(path);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* ---- breaks ---- */

/* A 10 kg load below a light chain of 4 links: the last one stretches a little more every
 * step (2 iterations). break_stretch 1.1 (verlet) or break_force 60 N (xpbd, compliant links):
 * run beside an unbreakable copy, it breaks at the first step whose final stretch or tension
 * crosses the threshold, and events.csv logs it with that step, its ends, stretch and force. */
START_TEST(test_break_logged)
{
    const int by_force = _i == 1;
    struct model *c[2];
    for (int k = 0; k < 2; k++) {
        c[k] = model_create();
        c[k]->dt = 1.0 / 120.0;
        c[k]->iterations = 2;
        c[k]->method = by_force ? METHOD_XPBD : METHOD_VERLET;
        for (int i = 0; i < 5; i++)
            model_add_point(c[k], v3(0, -0.25 * i, 0), v3(0, 0, 0), i == 4 ? 10.0 : 0.01, 0.0,
                            NULL);
        for (uint32_t i = 0; i < 4; i++) {
            model_add_link(c[k], i, i + 1, 0.25);
            c[k]->links[i].compliance = by_force ? 2e-4 : 0.0;
        }
        model_add_pin(c[k], 0, c[k]->x0[0]);
    }
    m = c[0];
    m2 = c[1];
    if (by_force)
        m->links[3].break_force = 60.0;
    else
        m->links[3].break_stretch = 1.1;
    const struct model *lm = start(m, &ev, &s, 1);
    const struct model *lm2 = start(m2, &ev2, &s2, 0);
    long broke = -1;
    double at = 0.0;
    for (long k = 1; k <= 200 && broke < 0; k++) {
        step(lm, ev, s);
        step(lm2, ev2, s2);
        const double x = by_force ? distance_tension(lm2, s2, 3) : distance_stretch(lm2, s2, 3);
        if (x > (by_force ? 60.0 : 1.1)) {
            broke = k;
            at = x;
        }
        ck_assert_int_eq(s->alive[3], broke < 0);
    }
    /* Measured: step 18 (stretch) and step 4 (the weight, 98 N, is reached over a few steps
     * of the compliant links' stretch). */
    ck_assert_int_gt(broke, 1);
    char *text = log_text(ev);
    char t[64], x[64], f[64];
    snprintf(t, sizeof t, "%.17g", (double)broke * m->dt);
    snprintf(x, sizeof x, "%.17g", distance_stretch(lm2, s2, 3));
    snprintf(f, sizeof f, "%.17g", distance_tension(lm2, s2, 3));
    /* Rows print the shortest round-trip form; compare numbers by value instead. */
    long st = 0, link = 0, pa = 0, pb = 0;
    double tt = 0, stretch = 0, force = 0;
    const char *row = strchr(text, '\n') + 1;
    if (by_force)
        ck_assert_int_eq(sscanf(row, "%ld,%lf,break,%ld,%ld,%ld,%lf,%lf", &st, &tt, &link, &pa, &pb,
                                &stretch, &force),
                         7);
    else
        ck_assert_int_eq(
            sscanf(row, "%ld,%lf,break,%ld,%ld,%ld,%lf,", &st, &tt, &link, &pa, &pb, &stretch), 6);
    ck_assert_int_eq(st, broke);
    ck_assert(tt == strtod(t, NULL));
    ck_assert_int_eq(link, 3);
    ck_assert_int_eq(pa, 3);
    ck_assert_int_eq(pb, 4);
    /* The same positions as the copy's: the runs were identical until the break. */
    ck_assert(stretch == strtod(x, NULL));
    if (by_force) {
        ck_assert(force == strtod(f, NULL));
        ck_assert(force == at);
    } else {
        /* No tension without compliance: the force field is empty. */
        ck_assert_ptr_nonnull(strstr(row, ",\n"));
    }
    ck_assert_int_eq(events_count(ev, LOG_BREAK), 1);
    free(text);
}
END_TEST

/* ---- cuts ---- */

/* Sum of the rest lengths of live links. */
static double live_rest(const struct model *lm, const struct state *st)
{
    double sum = 0.0;
    for (size_t i = 0; i < lm->nlinks; i++)
        if (st->alive[i])
            sum += lm->links[i].rest;
    return sum;
}

/* Whether points a and b are joined by live links (breadth-first over all links). */
static int joined(const struct model *lm, const struct state *st, uint32_t a, uint32_t b)
{
    unsigned char *seen = calloc(lm->npoints, 1);
    seen[a] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < lm->nlinks; i++) {
            const struct link *l = &lm->links[i];
            if (st->alive[i] && seen[l->a] != seen[l->b]) {
                seen[l->a] = seen[l->b] = 1;
                changed = 1;
            }
        }
    }
    const int r = seen[b];
    free(seen);
    return r;
}

/* A 20-link rope pinned at one end swings; at step 50 it is cut near a point beside the
 * middle of its 11th link. It becomes two pieces whose rest lengths add up to the original
 * (the 1e-12), each half keeping the stretch the link had, mass conserved, and the
 * free piece then falls with its centre of mass at g. */
START_TEST(test_cut)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 100}, 'solver': {'method': '%s',"
                "'iterations': 5}, 'bodies': [{'type': 'rope', 'name': 'rope', 'from': [0, 0],"
                "'to': [2, 0], 'segments': 20, 'mass': 2, 'pins': ['first']}],"
                "'events': [{'step': 50, 'cut': {'near': [1.2, -1.5]}}]}",
                method_names[_i]);
    const struct model *lm = start(m, &ev, &s, 1);
    const double rest0 = live_rest(lm, s);
    double mass0 = 0.0;
    for (size_t i = 0; i < lm->npoints; i++)
        mass0 += lm->mass[i];
    ck_assert_uint_eq(m->nreserved_points, 2);
    ck_assert_uint_eq(m->nreserved_links, 1);
    const uint32_t c = (uint32_t)m->first_reserved_point, r = (uint32_t)m->first_reserved_link;
    for (long k = 1; k < 50; k++)
        step(lm, ev, s);
    solver_step(lm, s); /* step 50, before its boundary applies the cut */
    /* The link nearest the point, found the way the cut will, and its stretch then. */
    long near = -1;
    double best = INFINITY, stretch = 0.0;
    for (size_t i = 0; i < 20; i++) {
        const struct link *l = &lm->links[i];
        const vec3 a = s->x[l->a], d = v3_sub(s->x[l->b], a);
        double t = v3_dot(v3_sub(v3(1.2, -1.5, 0), a), d) / v3_dot(d, d);
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const double dist = v3_dist(v3(1.2, -1.5, 0), v3_add(a, v3_scale(d, t)));
        if (dist < best) {
            best = dist;
            near = (long)i;
            stretch = distance_stretch(lm, s, i);
        }
    }
    const uint32_t a = lm->links[near].a, b = lm->links[near].b;
    events_boundary(ev, s); /* the cut */
    ck_assert_int_eq(events_count(ev, LOG_CUT), 1);
    ck_assert_double_eq_tol(live_rest(lm, s), rest0, 1e-12);
    ck_assert_uint_eq(lm->links[near].a, a);
    ck_assert_uint_eq(lm->links[near].b, c);
    ck_assert_uint_eq(lm->links[r].a, c + 1);
    ck_assert_uint_eq(lm->links[r].b, b);
    ck_assert(s->alive[r]);
    /* Both new ends start at the same place; each half has the stretch the link had (the
     * rest lengths are fractions of the old one, as the positions are): 1e-12 covers the
     * roundings of the split. */
    ck_assert_mem_eq(&s->x[c], &s->x[c + 1], sizeof(vec3));
    ck_assert_double_eq_tol(distance_stretch(lm, s, (size_t)near), stretch, 1e-12);
    ck_assert_double_eq_tol(distance_stretch(lm, s, r), stretch, 1e-12);
    ck_assert(!joined(lm, s, 0, 20));
    ck_assert(joined(lm, s, 0, c));
    ck_assert(joined(lm, s, c + 1, 20));
    double mass = 0.0;
    for (size_t i = 0; i < lm->npoints; i++)
        mass += lm->mass[i];
    ck_assert_double_eq_tol(mass, mass0, 1e-12);
    /* The free piece (b's side) falls: its centre of mass accelerates at g, as internal
     * projections move no centre of mass; second differences over 10 steps (round-off only,
     * measured ~1e-10 relative; the damping-free methods are exact up to it). */
    double cy[3] = {0, 0, 0}, piece = 0.0;
    for (int k = 0; k < 3; k++) {
        if (k > 0)
            step(lm, ev, s);
        double my = 0.0;
        piece = 0.0;
        for (uint32_t i = b; i <= 20; i++) {
            my += lm->mass[i] * s->x[i].y;
            piece += lm->mass[i];
        }
        my += lm->mass[c + 1] * s->x[c + 1].y;
        piece += lm->mass[c + 1];
        cy[k] = my / piece;
    }
    ck_assert_double_eq_tol((cy[2] - 2 * cy[1] + cy[0]) / (m->dt * m->dt), -9.81, 1e-6);
}
END_TEST

/* A cut link's far half keeps its break_force (60 N): link 0, from pinned point 0 to point 1,
 * is cut at step 1; at step 3 point 1 is pinned 1 m aside, and the far half, dragging its new
 * free end along, breaks at the next step (about 3 kN) while the near half, whose new end
 * nothing pulls, holds. The far half is a link reserved at load time, which has no threshold
 * until the cut gives it the cut link's. */
START_TEST(test_cut_half_breaks)
{
    struct scenario *sc = tu_load_scenario(
        "{'catena': 1, 'name': 'half', 'time': {'dt': 0.01, 'steps': 5}, 'world': "
        "{'gravity': [0, 0]}, 'solver': {'method': 'xpbd', 'iterations': 10}, 'points': "
        "[{'p': [0, 0], 'mass': 1}, {'p': [0, -1], 'mass': 1}], 'links': [{'a': 0, 'b': "
        "1, 'compliance': 1e-6, 'break_force': 60}], 'pins': [{'point': 0}], 'events': "
        "[{'step': 1, 'cut': {'link': 0, 'at': 0.5}}, {'step': 3, 'pin': {'point': 1, "
        "'at': [1, -1]}}]}");
    dir = tu_tmpdir();
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(sc, &o, &r, &err), CATENA_OK);
    ck_assert_int_eq(r.events[LOG_CUT], 1);
    ck_assert_int_eq(r.events[LOG_BREAK], 1);
    char *path = tu_path(dir, "events.csv");
    char *text = tu_read_file(path, NULL);
    char want[64];
    snprintf(want, sizeof want, "\n4,0.04,break,%zu,", sc->model->first_reserved_link);
    ck_assert_msg(strstr(text, want), "no break of the far half in:\n%s", text);
    free(text);
    free(path);
    scenario_destroy(sc);
}
END_TEST

/* A rope with bend links (i, i+2): a cut of structural link 5 also removes the two bend links
 * across it, (4, 6) and (5, 7), which would otherwise still join the pieces. */
START_TEST(test_cut_removes_bridges)
{
    m = model_create();
    m->dt = 0.01;
    for (int i = 0; i <= 10; i++)
        model_add_point(m, v3(0.1 * i, 0, 0), v3(0, 0, 0), 0.1, 0.0, NULL);
    for (uint32_t i = 0; i < 10; i++)
        model_add_link(m, i, i + 1, 0.1);
    for (uint32_t i = 0; i + 2 <= 10; i++) {
        const long l = model_add_link(m, i, i + 2, 0.2);
        m->links[l].role = ROLE_BEND;
    }
    /* The loader's reservation, by hand: two points and a link. */
    struct event e = {.step = 1, .kind = EVENT_CUT, .target = TARGET_LINK, .index = 5, .a = 0.5};
    m->first_reserved_point = m->npoints;
    m->first_reserved_link = m->nlinks;
    e.reserved_point = (uint32_t)model_add_point(m, v3(0.55, 0, 0), v3(0, 0, 0), 0, 0, NULL);
    model_add_point(m, v3(0.55, 0, 0), v3(0, 0, 0), 0, 0, NULL);
    e.reserved_link = (uint32_t)model_add_link(m, e.reserved_point, e.reserved_point + 1, 1.0);
    m->nreserved_points = 2;
    m->nreserved_links = 1;
    model_add_event(m, &e);
    const struct model *lm = start(m, &ev, &s, 0);
    step(lm, ev, s);
    ck_assert(!joined(lm, s, 0, 10));
    for (size_t i = 10; i < 19; i++) {
        const struct link *l = &lm->links[i];
        const int across = l->a == 4 || l->a == 5; /* (4, 6) and (5, 7) */
        ck_assert_int_eq(s->alive[i], !across);
    }
}
END_TEST

/* ---- waves ---- */

/* A string of 100 links of 10 cm between two pins, pre-stretched 1 % with EA = 1000 N
 * (tension T = 10 N) and 25 g/m (mu of the stretched string), no gravity, XPBD. One end is
 * driven by a sine pin (1 mm, 5 Hz, a wavelength of 4 m); the wave reaches the last free
 * point, 9.9 m away, after 9.9 / sqrt(T / mu) = 0.495 s plus the drive's rise to the
 * detection threshold. Gauss-Seidel carries a correction about one link per sweep against
 * the sweep's direction, so the sweeps must outrun the longitudinal wave (200 m/s here):
 * with 10 substeps of 10 iterations it arrives within 0.4 % (4 iterations: 3 %; 2: 15 %
 * late, as measured). */
START_TEST(test_wave_speed)
{
    const int n = 100;
    const double a = 0.1, rest = a / 1.01, ea = 1000.0, mu = 0.025, amp = 1e-3, f = 5.0;
    m = model_create();
    m->dt = 1.0 / 200.0;
    m->substeps = 10;
    m->iterations = 10;
    m->method = METHOD_XPBD;
    m->gravity = v3(0, 0, 0);
    for (int k = 0; k <= n; k++)
        model_add_point(m, v3(a * k, 0, 0), v3(0, 0, 0), 0 < k && k < n ? mu * a : 0.0, 0, NULL);
    for (uint32_t k = 0; k < (uint32_t)n; k++) {
        const long l = model_add_link(m, k, k + 1, rest);
        m->links[l].compliance = rest / ea;
    }
    model_add_pin(m, 0, m->x0[0]);
    model_add_pin(m, (uint32_t)n, m->x0[n]);
    m->pins[0].motion = MOTION_SINE;
    m->pins[0].axis = v3(0, 1, 0);
    m->pins[0].amplitude = amp;
    m->pins[0].frequency = f;
    const struct model *lm = start(m, &ev, &s, 0);
    const double tension = ea * (a - rest) / rest, c = sqrt(tension / mu);
    ck_assert_double_eq_tol(c, 20.0, 1e-9);
    /* Arrival: the probe's displacement first passes a tenth of the amplitude, which the
     * drive itself reaches asin(0.1) / (2 pi f) after it starts. */
    const double want = (n - 1) * a / c + asin(0.1) / (2.0 * PI * f);
    double arrived = -1.0;
    for (long k = 0; k < 200 && arrived < 0; k++) {
        step(lm, ev, s);
        if (fabs(s->x[n - 1].y) > 0.1 * amp)
            arrived = s->t;
    }
    /* The 5 %; frames every 5 ms add up to 1 % of it. */
    ck_assert_double_eq_tol(arrived, want, 0.05 * want);
}
END_TEST

/* ---- moving pins ---- */

/* A pin moves up 0.5 m by keyframes between t = 0.5 s and 1.5 s, then stops, with a bob
 * hanging 1 m below it on a rigid link (4 substeps). The pinned point carries exactly the
 * pin's velocity (0.5 m/s, then 0), and the bob moves with it: its vertical velocity equals
 * the pin's at every step, the stop included, with no kick after it. A pin placed once a step
 * would move in the first substep only, and the bob's velocity over the last substep (what
 * carries on) would read 0 while the pin moves. */
START_TEST(test_moving_pin_velocity)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 250, 'substeps': 4}, 'solver': "
                "{'method': '%s', 'iterations': 20}, 'points': [{'p': [0, 0], 'mass': 1}, {'p': "
                "[0, -1], 'mass': 1}], 'links': [{'a': 0, 'b': 1}], 'pins': [{'point': 0, "
                "'motion': {'type': 'keyframes', 'times': [0.5, 1.5], 'positions': [[0, 0], [0, "
                "0.5]]}}]}",
                method_names[_i]);
    const struct model *lm = start(m, &ev, &s, 0);
    for (long k = 1; k <= m->steps; k++) {
        step(lm, ev, s);
        const double t = s->t;
        const double vpin = t > 0.5 + 1e-9 && t < 1.5 + 1e-9 ? 0.5 : 0.0;
        const vec3 vp = velocity_get(lm, s, 0), vb = velocity_get(lm, s, 1);
        /* The pin: its motion's own velocity, up to rounding of (x - xprev) / h. */
        ck_assert_double_eq_tol(vp.y, vpin, 1e-9);
        ck_assert_double_eq_tol(vp.x, 0.0, 1e-12);
        /* The bob hangs straight below: a rigid link makes its vertical velocity the pin's
         * (20 iterations against one pinned end converge to round-off, ~1e-12; 1e-7 allows
         * the projection's last correction over h = 2.5 ms). */
        ck_assert_double_eq_tol(vb.y, vpin, 1e-7);
    }
}
END_TEST

/* A point on a pin moving at (1, 2) m/s is released at step 30: it flies on from where it
 * was with the pin's velocity, ballistically (no false velocity at the release). */
START_TEST(test_release_keeps_velocity)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 90, 'substeps': 2}, 'solver': "
                "{'method': '%s'}, 'points': [{'p': [0, 0], 'mass': 1}], 'pins': [{'point': 0, "
                "'motion': {'type': 'linear', 'velocity': [1, 2]}}], 'events': [{'time': 0.3, "
                "'release': {'point': 0}}]}",
                method_names[_i]);
    const struct model *lm = start(m, &ev, &s, 0);
    for (long k = 1; k <= 30; k++)
        step(lm, ev, s);
    ck_assert_int_eq(events_count(ev, LOG_RELEASE), 1);
    const vec3 x0 = s->x[0];
    /* The pin's last position: 0.3 s at (1, 2) m/s. */
    ck_assert_double_eq_tol(x0.x, 0.3, 1e-12);
    ck_assert_double_eq_tol(x0.y, 0.6, 1e-12);
    for (long k = 1; k <= 60; k++) {
        step(lm, ev, s);
        const double t = 0.01 * (double)k;
        /* Verlet is exact for constant acceleration (the release re-encodes the velocity as
         * an initial one); symplectic Euler (pbd, xpbd) falls ahead by g h t / 2 = 1.5e-3 m
         * after 0.6 s (h = 5 ms). Either way the launch velocity is the pin's: a point
         * released at rest would be 0.6 m behind in x. */
        ck_assert_double_eq_tol(s->x[0].x, x0.x + t, 1e-12);
        ck_assert_double_eq_tol(s->x[0].y, x0.y + 2.0 * t - 0.5 * 9.81 * t * t,
                                _i == 0 ? 1e-11 : 0.5 * 9.81 * 0.005 * t + 1e-11);
    }
}
END_TEST

/* A drag moves a free point from where it is through (1, 0) and (2, 0) over 1 s (0.5 s a
 * leg), then lets go: it leaves at the last leg's 2 m/s, a throw. */
START_TEST(test_drag_and_throw)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 150}, 'world': {'gravity': [0, 0]},"
                "'solver': {'method': '%s'}, 'points': [{'p': [0, 0], 'mass': 1}], 'events': "
                "[{'time': 0.2, 'drag': {'point': 0, 'path': [[1, 0], [2, 0]], 'duration': 1}}]}",
                method_names[_i]);
    ck_assert_uint_eq(m->nevents, 2); /* the drag and its release */
    ck_assert_int_eq(m->events[1].kind, EVENT_RELEASE);
    ck_assert_int_eq(m->events[1].step, 120);
    const struct model *lm = start(m, &ev, &s, 0);
    for (long k = 1; k <= 70; k++)
        step(lm, ev, s);
    /* Halfway: at the first key. */
    ck_assert_double_eq_tol(s->x[0].x, 1.0, 1e-12);
    for (long k = 71; k <= 120; k++)
        step(lm, ev, s);
    ck_assert_double_eq_tol(s->x[0].x, 2.0, 1e-12);
    ck_assert_int_eq(events_count(ev, LOG_RELEASE), 1);
    for (long k = 121; k <= 150; k++) {
        step(lm, ev, s);
        ck_assert_double_eq_tol(s->x[0].x, 2.0 + 2.0 * 0.01 * (double)(k - 120), 1e-12);
    }
}
END_TEST

/* ---- reel, impulses, set, teleport ---- */

/* A 2 m rope of 10 links reeled in at 0.5 m/s to 1 m: after 200 increments of 5 mm (the
 * first at step 0) the reel ends at step 199 with every link at exactly 0.1 m. */
START_TEST(test_reel)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 300}, 'bodies': [{'type': 'rope',"
                "'name': 'rope', 'from': [0, 0], 'to': [2, 0], 'segments': 10, 'mass': 1,"
                "'pins': ['first']}], 'events': [{'time': 0, 'reel': {'body': 'rope',"
                "'rate': -0.5, 'to': 1}}]}");
    const struct model *lm = start(m, &ev, &s, 1);
    for (long k = 1; k <= 300; k++)
        step(lm, ev, s);
    char *text = log_text(ev);
    ck_assert_str_eq(text, "step,time,kind,link,point_a,point_b,stretch,force\n"
                           "0,0,reel,,,,,\n"
                           "199,1.99,reel_end,,,,,\n");
    free(text);
    /* Each link was scaled by the same factors, ending at 1 m / 10 (round-off of 200
     * rescalings, ~1e-15). */
    for (size_t i = 0; i < 10; i++)
        ck_assert_double_eq_tol(lm->links[i].rest, 0.1, 1e-13);
}
END_TEST

/* A free rope with no gravity: an impulse on the body adds exactly J to its momentum; a
 * velocity event on one point sets it. */
START_TEST(test_impulse_and_velocity)
{
    m = tu_load("{'catena': 1, 'dimensions': 3, 'time': {'dt': 0.01, 'steps': 20}, 'world': "
                "{'gravity': [0, 0, 0]}, 'solver': {'method': '%s'}, 'bodies': [{'type': 'rope', "
                "'name': 'rope', 'from': [0, 0, 0], 'to': [1, 0, 0], 'segments': 5, 'mass': 3}],"
                "'events': [{'step': 5, 'impulse': {'body': 'rope', 'j': [1.5, -3, 6]}},"
                "{'step': 10, 'velocity': {'point': 'rope.2', 'v': [0, 0, 7]}}]}",
                method_names[_i]);
    const struct model *lm = start(m, &ev, &s, 0);
    for (long k = 1; k <= 5; k++)
        step(lm, ev, s);
    vec3 p = v3(0, 0, 0);
    for (size_t i = 0; i < lm->npoints; i++)
        p = v3_add(p, v3_scale(velocity_get(lm, s, i), lm->mass[i]));
    /* Momentum J = (1.5, -3, 6) N s from rest; round-off only. */
    ck_assert_double_eq_tol(p.x, 1.5, 1e-12);
    ck_assert_double_eq_tol(p.y, -3.0, 1e-12);
    ck_assert_double_eq_tol(p.z, 6.0, 1e-12);
    for (long k = 6; k <= 10; k++)
        step(lm, ev, s);
    ck_assert_double_eq_tol(velocity_get(lm, s, 2).z, 7.0, 1e-12);
    ck_assert_int_eq(events_count(ev, LOG_IMPULSE), 1);
    ck_assert_int_eq(events_count(ev, LOG_VELOCITY), 1);
}
END_TEST

/* A free point falls at g; from step 20 `set` turns gravity sideways, and its second
 * differences follow the new gravity; from step 30 the other settable values change. */
START_TEST(test_set)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 40}, 'points': [{'p': [0, 0], "
                "'mass': 1}], 'events': [{'step': 20, 'set': {'gravity': [3, 0]}}, {'step': 30, "
                "'set': {'iterations': 4, 'damping': 0.5, 'wind': [1, 2], 'gust': {'amplitude': "
                "0.5, 'frequency': 2}, 'collide_every': 2}}]}");
    const struct model *lm = start(m, &ev, &s, 0);
    vec3 x[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    for (long k = 1; k <= 29; k++) {
        step(lm, ev, s);
        x[0] = x[1];
        x[1] = x[2];
        x[2] = s->x[0];
        if (k >= 23) {
            /* Verlet: exact but for round-off of positions ~1 m over dt^2 = 1e-4: 1e-10. */
            const vec3 a = v3_scale(v3_add(v3_sub(x[2], v3_scale(x[1], 2)), x[0]), 1e4);
            ck_assert_double_eq_tol(a.x, 3.0, 1e-9);
            ck_assert_double_eq_tol(a.y, 0.0, 1e-9);
        }
    }
    step(lm, ev, s);
    ck_assert_int_eq(lm->iterations, 4);
    ck_assert_double_eq(lm->damping, 0.5);
    ck_assert_int_eq(lm->collide_every, 2);
    ck_assert_double_eq(lm->wind.y, 2.0);
    ck_assert_double_eq(lm->gust_frequency, 2.0);
    ck_assert_double_eq(m->gravity.y, -9.81); /* the scenario's model is untouched */
    ck_assert_int_eq(events_count(ev, LOG_SET), 2);
}
END_TEST

/* A rope hanging from a pin, teleported by (5, 1): every point moves by exactly that, its
 * velocity is kept, and the pin goes along, so the rope does not snap back. */
START_TEST(test_teleport)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 40}, 'solver': {'method': '%s'},"
                "'bodies': [{'type': 'rope', 'name': 'rope', 'from': [0, 0], 'to': [1, 0], "
                "'segments': 4, 'mass': 1, 'pins': ['first']}], 'events': [{'step': 20, "
                "'teleport': {'body': 'rope', 'by': [5, 1]}}]}",
                method_names[_i]);
    const struct model *lm = start(m, &ev, &s, 0);
    for (long k = 1; k < 20; k++)
        step(lm, ev, s);
    vec3 x[5], v[5];
    solver_step(lm, s);
    for (size_t i = 0; i < 5; i++) {
        x[i] = s->x[i];
        v[i] = velocity_get(lm, s, i);
    }
    events_boundary(ev, s);
    for (size_t i = 0; i < 5; i++) {
        /* x + by: one rounding. */
        ck_assert_double_eq_tol(s->x[i].x, x[i].x + 5.0, 1e-14);
        ck_assert_double_eq_tol(s->x[i].y, x[i].y + 1.0, 1e-14);
        /* (x + by) - (xprev + by) differs from x - xprev by roundings of ~1e-15 m over
         * h = 0.01 s. */
        ck_assert_double_eq_tol(velocity_get(lm, s, i).x, v[i].x, 1e-12);
        ck_assert_double_eq_tol(velocity_get(lm, s, i).y, v[i].y, 1e-12);
    }
    step(lm, ev, s);
    ck_assert_double_eq(s->x[0].x, 5.0);
    ck_assert_double_eq(s->x[0].y, 1.0);
}
END_TEST

/* ---- wind ---- */

/* A link of 1 m across a 10 m/s wind (two free 0.5 kg points, no gravity, at rest) feels
 * drag * L * |v| v = 0.01 * 1 * 100 = 1 N, half on each end: both ends move a h^2 with
 * a = 0.5 N / 0.5 kg in the first substep. A link along the wind feels nothing. */
START_TEST(test_wind_drag)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 1}, 'world': {'gravity': [0, 0],"
                "'wind': [10, 0]}, 'solver': {'method': '%s'}, 'bodies': [{'type': 'rope', 'name': "
                "'across', 'from': [0, 0], 'to': [0, 1], 'segments': 1, 'mass': 1, 'drag': 0.01},"
                "{'type': 'rope', 'name': 'along', 'from': [0, 5], 'to': [1, 5], 'segments': 1,"
                "'mass': 1, 'drag': 0.01}]}",
                method_names[_i]);
    const struct model *lm = start(m, &ev, &s, 0);
    step(lm, ev, s);
    const double h = 0.01, a = 1.0;
    for (size_t i = 0; i < 2; i++) {
        /* The displacement a h^2 = 1e-4 m exactly but for one rounding. */
        ck_assert_double_eq_tol(s->x[i].x, a * h * h, 1e-18);
        ck_assert_double_eq(s->x[2 + i].x, (double)i);
    }
}
END_TEST

/* ---- settling and the run ---- */

/* A damped pendulum (xpbd) with until_settled {speed 0.01, for 0.5}: the run stops 0.5 s
 * (60 steps) after the first step whose speeds are all below 1 cm/s, long before its 20 s,
 * and summary.json says where. With a release scheduled at 15 s it waits for it. */
START_TEST(test_until_settled)
{
    const char *fmt = "{'catena': 1, 'name': 'settle', 'time': {'dt': %.17g, 'steps': 2400, "
                      "'until_settled': {'speed': 0.01, 'for': 0.5}}, 'solver': {'method': "
                      "'xpbd', 'damping': 0.05}, 'points': [{'p': [0, 0], 'mass': 0}, {'p': "
                      "[1, 0], 'mass': 1}, {'p': [0, 1], 'mass': 1}], 'links': [{'a': 0, 'b': "
                      "1}], 'pins': [{'point': 2}]%s}";
    struct scenario *sc = tu_load_scenario(fmt, 1.0 / 120.0, "");
    dir = tu_tmpdir();
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(sc, &o, &r, &err), CATENA_OK);
    ck_assert_int_ge(r.settled_step, 1);
    ck_assert_int_eq(r.steps_done, r.settled_step + 60);
    ck_assert_int_lt(r.steps_done, 600);
    char *path = tu_path(dir, "summary.json");
    char *text = tu_read_file(path, NULL);
    char want[64];
    snprintf(want, sizeof want, "\"settled_step\":\t%ld", r.settled_step);
    ck_assert_ptr_nonnull(strstr(text, want));
    free(text);
    free(path);
    scenario_destroy(sc);
    sc = tu_load_scenario(fmt, 1.0 / 120.0, ", 'events': [{'time': 15, 'release': {'point': 2}}]");
    ck_assert_int_eq(run_simulation(sc, &o, &r, &err), CATENA_OK);
    /* Released at step 1800, the second point falls for good: it never settles again. */
    ck_assert_int_eq(r.settled_step, -1);
    ck_assert_int_eq(r.steps_done, 2400);
    scenario_destroy(sc);
}
END_TEST

/* A run's events.csv: each kind's row and its fields, in time order (file order within a
 * step), and the counts in summary.json. */
START_TEST(test_events_csv)
{
    struct scenario *sc = tu_load_scenario(
        "{'catena': 1, 'name': 'ev', 'time': {'dt': 0.5, 'steps': 4}, 'points': [{'p': "
        "[0, 0], 'mass': 1}, {'p': [1, 0], 'mass': 1}, {'p': [5, 5], 'mass': 1}], 'links': "
        "[{'a': 0, 'b': 1}], 'pins': [{'point': 0}], 'events': [{'time': 1, 'release': "
        "{'point': 0}}, {'time': 0.9, 'pin': {'point': 2, 'at': [1, 1]}}, {'step': 1, "
        "'set': {'gravity': [0, 0]}}, {'step': 3, 'teleport': {'point': 2, 'by': [1, 0]}},"
        " {'step': 3, 'cut': {'link': 0, 'at': 0.25}}]}");
    const struct event *evs = sc->model->events;
    ck_assert_int_eq(evs[0].step, 1); /* the set: step 1 */
    ck_assert_int_eq(evs[1].kind, EVENT_RELEASE);
    ck_assert_int_eq(evs[2].kind, EVENT_PIN); /* 0.9 s: the boundary at 1 s, 2nd in file */
    ck_assert_int_eq(evs[2].step, 2);
    dir = tu_tmpdir();
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(sc, &o, &r, &err), CATENA_OK);
    char *path = tu_path(dir, "events.csv");
    char *text = tu_read_file(path, NULL);
    const char *head = "step,time,kind,link,point_a,point_b,stretch,force\n"
                       "1,0.5,set,,,,,\n"
                       "2,1,release,,0,,,\n"
                       "2,1,pin,,2,,,\n"
                       "3,1.5,teleport,,2,,,\n"
                       "3,1.5,cut,0,0,1,";
    ck_assert_int_eq(strncmp(text, head, strlen(head)), 0);
    /* The link swung one step under gravity from a pinned end, then flew free: its
     * projection keeps it at its length but for round-off. */
    char *end = NULL;
    ck_assert_double_eq_tol(strtod(text + strlen(head), &end), 1.0, 1e-12);
    ck_assert_str_eq(end, ",\n");
    free(text);
    free(path);
    ck_assert_int_eq(r.events[LOG_CUT], 1);
    ck_assert_int_eq(r.events[LOG_PIN], 1);
    ck_assert_int_eq(r.events[LOG_RELEASE], 1);
    ck_assert_int_eq(r.events[LOG_BREAK], 0);
    scenario_destroy(sc);
}
END_TEST

/* Every array of the live model is its own (model_clone), and a run with every kind of event
 * that changes the model (cut, release, pin, drag, reel, impulse, set, teleport) leaves the
 * scenario's model byte for byte as it was: what events change lives in the live model. */
#define SAME_ARRAY(field, n)                                                                       \
    do {                                                                                           \
        ck_assert_ptr_ne(lm->field, m->field);                                                     \
        ck_assert_int_eq(memcmp(m->field, before->field, (n) * sizeof *m->field), 0);              \
    } while (0)
START_TEST(test_live_model_is_a_copy)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 80}, 'bodies': [{'type': 'rope',"
                "'name': 'rope', 'from': [0, 0], 'to': [2, 0], 'segments': 8, 'mass': 1,"
                "'pins': ['first', 'last']}], 'events': [{'step': 5, 'cut': {'link': 'rope.3'}},"
                "{'step': 6, 'release': {'point': 'rope.last'}}, {'step': 8, 'pin': {'point':"
                "'rope.4'}}, {'step': 10, 'drag': {'point': 'rope.6', 'path': [[1, 1]], 'duration':"
                "0.2}}, {'step': 12, 'reel': {'link': 'rope.1', 'rate': -0.1, 'to': 0.1}},"
                "{'step': 14, 'impulse': {'point': 'rope.7', 'j': [0, 1]}}, {'step': 15, 'set':"
                "{'gravity': [1, -3], 'iterations': 3}}, {'step': 16, 'teleport': {'body': 'rope',"
                "'by': [0.5, 0]}}]}");
    struct model *before = model_clone(m);
    ck_assert_ptr_nonnull(before);
    const struct model *lm = start(m, &ev, &s, 0);
    ck_assert_ptr_ne(lm, m);
    for (long k = 1; k <= 80; k++)
        step(lm, ev, s);
    ck_assert_int_eq(events_count(ev, LOG_CUT), 1);
    ck_assert_int_eq(events_count(ev, LOG_TELEPORT), 1);
    /* the run changed its copy ... */
    ck_assert_int_ne(memcmp(lm->links, m->links, m->nlinks * sizeof *m->links), 0);
    ck_assert_int_ne(memcmp(lm->inv_mass, m->inv_mass, m->npoints * sizeof *m->inv_mass), 0);
    ck_assert_double_eq(lm->gravity.x, 1.0);
    /* ... and nothing of the scenario's model */
    SAME_ARRAY(x0, m->npoints);
    SAME_ARRAY(v0, m->npoints);
    SAME_ARRAY(inv_mass, m->npoints);
    SAME_ARRAY(mass, m->npoints);
    SAME_ARRAY(radius, m->npoints);
    SAME_ARRAY(links, m->nlinks);
    SAME_ARRAY(pins, m->npins);
    SAME_ARRAY(bodies, 0);
    SAME_ARRAY(events, m->nevents);
    ck_assert_uint_eq(m->npins, before->npins);
    ck_assert_double_eq(m->gravity.x, before->gravity.x);
    ck_assert_double_eq(m->gravity.y, before->gravity.y);
    ck_assert_int_eq(m->iterations, before->iterations);
    for (size_t i = 0; i < m->nbodies; i++) {
        ck_assert_ptr_ne(lm->bodies[i].name, m->bodies[i].name);
        ck_assert_str_eq(lm->bodies[i].name, m->bodies[i].name);
    }
    for (size_t i = 0; i < m->npoints; i++)
        if (m->point_name[i])
            ck_assert_ptr_ne(lm->point_name[i], m->point_name[i]);
    model_destroy(before);
}
END_TEST

static Suite *events_suite(void)
{
    Suite *su = suite_create("events");
    TCase *tc = tu_tcase(su, "events", setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_break_logged, 0, 2);
    tcase_add_loop_test(tc, test_cut, 0, 3);
    tcase_add_test(tc, test_cut_removes_bridges);
    tcase_add_test(tc, test_cut_half_breaks);
    tcase_add_test(tc, test_wave_speed);
    tcase_add_loop_test(tc, test_moving_pin_velocity, 0, 3);
    tcase_add_loop_test(tc, test_release_keeps_velocity, 0, 3);
    tcase_add_loop_test(tc, test_drag_and_throw, 0, 3);
    tcase_add_test(tc, test_reel);
    tcase_add_loop_test(tc, test_impulse_and_velocity, 0, 3);
    tcase_add_test(tc, test_set);
    tcase_add_loop_test(tc, test_teleport, 0, 3);
    tcase_add_loop_test(tc, test_wind_drag, 0, 3);
    tcase_add_test(tc, test_until_settled);
    tcase_add_test(tc, test_events_csv);
    tcase_add_test(tc, test_live_model_is_a_copy);
    return su;
}

int main(void)
{
    return tu_run(events_suite());
}
