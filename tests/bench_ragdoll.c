/* The ragdoll falls of tests/check_ragdoll.c as a table: for each pose and method, the worst
 * excess of any joint angle over its limits (rad) after any step, per ground friction and
 * restitution, and the worst over all. Not a test: it measures what check_ragdoll bounds.
 * Usage: tests/bench_ragdoll [ITERATIONS [SUBSTEPS [SHOCK_ITERATIONS]]] (20 1 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/angle.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"

struct pose {
    const char *name, *pose;
    double angle; /* rad, the figure's tilt at the start */
};

static const struct pose poses[] = {{"flat", "stand", 1.5707963267948966},
                                    {"upright", "stand", 0.5},
                                    {"tpose", "t", 1.2},
                                    {"headfirst", "stand", 2.8}};
static const char *const methods[] = {"verlet", "pbd", "xpbd"};
static const double friction[] = {0, 0.5, 1}, restitution[] = {0, 0.5};

/* The worst joint excess over a 2.5 s fall at dt 1/60 onto a plane 1 m below the lowest
 * point, or -1 when the scenario does not load. */
static double fall(const struct pose *p, const char *method, double fr, double re, int iters,
                   int substeps, int shock)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"catena\": 1, \"time\": {\"dt\": 0.016666666666666666, \"steps\": 150, "
             "\"substeps\": %d}, \"solver\": {\"method\": \"%s\", \"iterations\": %d, "
             "\"damping\": 0.995, \"shock_iterations\": %d}, \"bodies\": [{\"name\": \"fig\", "
             "\"type\": \"ragdoll\", \"position\": [0, 0], \"mass\": 70, \"pose\": \"%s\", "
             "\"angle\": %.17g, \"radius\": 0.05}], \"obstacles\": [{\"type\": \"plane\", "
             "\"point\": [0, -1], \"normal\": [0, 1], \"friction\": %g, \"restitution\": %g}]}",
             substeps, method, iters, shock, p->pose, p->angle, fr, re);
    struct catena_error err;
    struct scenario *sc = scenario_parse("fall.json", json, strlen(json), NULL, 0, &err);
    if (!sc) {
        fprintf(stderr, "bench_ragdoll: %s\n", err.msg);
        return -1;
    }
    struct model *m = sc->model;
    double lowest = INFINITY;
    for (size_t i = 0; i < m->npoints; i++)
        lowest = fmin(lowest, m->x0[i].y - m->radius[i]);
    m->obstacles[0].p.y = lowest - 1.0;
    struct state *s = state_create(m);
    double worst = 0;
    for (long k = 0; s && k < m->steps; k++) {
        solver_step(m, s);
        for (size_t j = 0; j < m->nangles; j++) {
            const double a = angle_value(m, s, j);
            worst = fmax(worst, fmax(a - m->angles[j].max, m->angles[j].min - a));
        }
    }
    if (!s)
        worst = -1;
    state_destroy(s);
    scenario_destroy(sc);
    return worst;
}

int main(int argc, char **argv)
{
    const int iters = argc > 1 ? atoi(argv[1]) : 20;
    const int substeps = argc > 2 ? atoi(argv[2]) : 1;
    const int shock = argc > 3 ? atoi(argv[3]) : 0;
    double worst = 0;
    printf("iterations %d, substeps %d, shock_iterations %d\n", iters, substeps, shock);
    printf("%-9s %-6s   f0 e0    f0 e.5   f.5 e0   f.5 e.5  f1 e0    f1 e.5\n", "pose", "method");
    for (size_t p = 0; p < sizeof poses / sizeof *poses; p++)
        for (int mth = 0; mth < 3; mth++) {
            printf("%-9s %-6s", poses[p].name, methods[mth]);
            for (int f = 0; f < 3; f++)
                for (int r = 0; r < 2; r++) {
                    const double w = fall(&poses[p], methods[mth], friction[f], restitution[r],
                                          iters, substeps, shock);
                    if (w < 0)
                        return 2;
                    printf(" %8.1e", w);
                    worst = fmax(worst, w);
                }
            printf("\n");
        }
    printf("worst %.2e rad\n", worst);
    return 0;
}
