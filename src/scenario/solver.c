/* The scenario's "solver" section (catena-scenario(5)), every key of it: the method and its
 * iterations, order and damping (or damping_rate, the same meaning under every method);
 * max_length_pass; global, the direct projection of each body's distance links
 * (solver/direct/direct.h), global_limit, the most work one of its factorisations may
 * take, and global_matrix, how it iterates a body with loops; collide_every; shock_iterations, the
 * last iterations that hold contact points still (shock propagation, Guendelman, Bridson and Fedkiw
 * 2003); and threads and kernel, which change how the links are relaxed but never a result (every
 * combination gives the same bits: tests/check_batch.c). */
#include <limits.h>
#include <math.h>

#include "scenario/loader.h"
#include "scenario/scenario.h"

/* More threads than this would only wait on each other's barriers. */
#define SCENARIO_MAX_THREADS 64

// clang-format off
const struct sjson_key scenario_solver_keys[] = {
    {"method", 0},
    {"iterations", 0},
    {"order", 0},
    {"damping", 0},
    {"damping_rate", 0},
    {"max_length_pass", 0},
    {"global", 0},
    {"global_limit", 0},
    {"global_matrix", 0},
    {"collide_every", 0},
    {"shock_iterations", 0},
    {"threads", 0},
    {"kernel", 0},
    {NULL, 0},
};
// clang-format on

/* Enum values as the file writes them, indexed by the model's enums. */
const char *const scenario_method_names[] = {"verlet", "pbd", "xpbd", NULL};
const char *const scenario_order_names[] = {"forward", "alternate", "colored", NULL};
const char *const scenario_kernel_names[] = {"batched", "simple", NULL};
const char *const scenario_matrix_names[] = {"newton", "fixed", NULL};

/* Warns when solver.damping was written for a method whose damping means something else
 * (a factor per substep under verlet, a fraction per second under pbd and xpbd) and an
 * override switched the method without giving a damping of its own. */
static int check_damping_method(struct loader *ld)
{
    const struct model *m = ld->m;
    const int file_verlet = ld->file_method == METHOD_VERLET;
    if (ld->file_method < 0 || isnan(ld->file_damping) || m->damping != ld->file_damping ||
        m->damping == 1.0 || file_verlet == (m->method == METHOD_VERLET))
        return 0;
    /* the rate the file meant, under its own method */
    struct model as_written = *m;
    as_written.method = (enum solver_method)ld->file_method;
    const double meant = model_damping_rate(&as_written, m->damping);
    const double now = model_damping_rate(m, m->damping);
    if (warnings_add(&ld->sc->warnings, "damping-method",
                     "solver.damping %g was written for %s, which reads it as %s (%.4g /s "
                     "here), but %s reads it as %s (%.4g /s): replace it by solver.damping_rate "
                     "%.6g, which means the same under every method",
                     m->damping, model_method_name(as_written.method),
                     file_verlet ? "a factor per substep" : "the fraction kept per second", meant,
                     model_method_name(m->method),
                     file_verlet ? "the fraction kept per second" : "a factor per substep", now,
                     meant))
        return loader_oom(ld);
    return 0;
}

/* damping or damping_rate (*rate, left at -1 when not given), not both; null is the same as
 * leaving either out, so that --set solver.damping=null --set solver.damping_rate=R moves a
 * scenario onto the rate. */
static int read_damping(struct loader *ld, const cJSON *s, double *rate)
{
    const cJSON *d = sjson_child(s, "damping"), *r = sjson_child(s, "damping_rate");
    const int has_d = d && !cJSON_IsNull(d), has_r = r && !cJSON_IsNull(r);
    if (has_d && has_r)
        return sjson_error(&ld->cx, "solver.damping_rate",
                           "give either \"damping\" or \"damping_rate\", not both");
    if ((has_d &&
         sjson_get_number(&ld->cx, s, "solver", "damping", &SJSON_UNIT, &ld->m->damping)) ||
        (has_r && sjson_get_number(&ld->cx, s, "solver", "damping_rate", &SJSON_NONNEG, rate)))
        return CATENA_EINPUT;
    return 0;
}

/* method, iterations, order; damping, or damping_rate converted into the method's damping
 * (model_damping_of_rate: time.dt and time.substeps are read by then). */
static int read_method(struct loader *ld, const cJSON *s)
{
    struct model *m = ld->m;
    int method = (int)m->method, order = (int)m->order;
    long long iterations = m->iterations;
    double rate = -1;
    if (sjson_get_enum(&ld->cx, s, "solver", "method", scenario_method_names, &method) ||
        sjson_get_integer(&ld->cx, s, "solver", "iterations", 1, INT_MAX, &iterations) ||
        sjson_get_enum(&ld->cx, s, "solver", "order", scenario_order_names, &order) ||
        read_damping(ld, s, &rate))
        return CATENA_EINPUT;
    m->method = (enum solver_method)method;
    m->order = (enum solver_order)order;
    m->iterations = (int)iterations;
    if (rate >= 0)
        m->damping = model_damping_of_rate(m, rate);
    return check_damping_method(ld);
}

/* threads, kernel and global_matrix. */
static int read_perf(struct loader *ld, const cJSON *s)
{
    long long threads = ld->m->threads;
    int kernel = (int)ld->m->kernel, matrix = (int)ld->m->global_matrix;
    if (sjson_get_integer(&ld->cx, s, "solver", "threads", 1, SCENARIO_MAX_THREADS, &threads) ||
        sjson_get_enum(&ld->cx, s, "solver", "kernel", scenario_kernel_names, &kernel) ||
        sjson_get_enum(&ld->cx, s, "solver", "global_matrix", scenario_matrix_names, &matrix))
        return CATENA_EINPUT;
    ld->m->threads = (int)threads;
    ld->m->kernel = (enum solver_kernel)kernel;
    ld->m->global_matrix = (enum solver_matrix)matrix;
    return 0;
}

/* collide_every and shock_iterations, both measured against the iterations. */
static int read_contact(struct loader *ld, const cJSON *s)
{
    struct model *m = ld->m;
    long long every = m->collide_every, shock = m->shock_iterations;
    /* shock_iterations: up to every iteration, as the first has no contacts yet and so is
     * never held. */
    if (sjson_get_integer(&ld->cx, s, "solver", "collide_every", 1, SCENARIO_MAX_COUNT, &every) ||
        sjson_get_integer(&ld->cx, s, "solver", "shock_iterations", 0, m->iterations, &shock))
        return CATENA_EINPUT;
    /* Every k-th iteration with k past the count is just the first and the last. */
    m->collide_every = every > m->iterations ? m->iterations : (int)every;
    m->shock_iterations = (int)shock;
    return 0;
}

int scenario_read_solver(struct loader *ld)
{
    const cJSON *s;
    if (sjson_object(&ld->cx, ld->root, "", "solver", scenario_solver_keys, &s) ||
        read_method(ld, s) || read_perf(ld, s) || read_contact(ld, s) ||
        loader_get_bool(ld, s, "solver", "max_length_pass", &ld->m->max_length_pass) ||
        loader_get_bool(ld, s, "solver", "global", &ld->m->global) ||
        sjson_get_number(&ld->cx, s, "solver", "global_limit", &SJSON_POSITIVE,
                         &ld->m->global_limit))
        return CATENA_EINPUT;
    return 0;
}
