/* The scenario's "solver" section (catena-scenario(5)), every key of it: the method and its
 * iterations, order and damping; max_length_pass; global, the direct projection of each
 * body's distance links (solver/direct/direct.h), and global_limit, the most work one of its
 * factorisations may take; collide_every; shock_iterations, the last
 * iterations that hold contact points still (shock propagation, Guendelman, Bridson and
 * Fedkiw 2003); and threads and kernel, which change how the links are relaxed but never a
 * result (every combination gives the same bits: tests/check_batch.c). */
#include <limits.h>

#include "scenario/loader.h"

/* More threads than this would only wait on each other's barriers. */
#define SCENARIO_MAX_THREADS 64

// clang-format off
static const struct sjson_key solver_keys[] = {
    {"method", 0},
    {"iterations", 0},
    {"order", 0},
    {"damping", 0},
    {"max_length_pass", 0},
    {"global", 0},
    {"global_limit", 0},
    {"collide_every", 0},
    {"shock_iterations", 0},
    {"threads", 0},
    {"kernel", 0},
    {NULL, 0},
};
// clang-format on

/* Enum values as the file writes them, indexed by the model's enums. */
static const char *const method_names[] = {"verlet", "pbd", "xpbd", NULL};
static const char *const order_names[] = {"forward", "alternate", "colored", NULL};
static const char *const kernel_names[] = {"batched", "simple", NULL};

/* method, iterations, order, damping. */
static int read_method(struct loader *ld, const cJSON *s)
{
    struct model *m = ld->m;
    int method = (int)m->method, order = (int)m->order;
    long long iterations = m->iterations;
    if (sjson_get_enum(&ld->cx, s, "solver", "method", method_names, &method) ||
        sjson_get_integer(&ld->cx, s, "solver", "iterations", 1, INT_MAX, &iterations) ||
        sjson_get_enum(&ld->cx, s, "solver", "order", order_names, &order) ||
        sjson_get_number(&ld->cx, s, "solver", "damping", &SJSON_UNIT, &m->damping))
        return CATENA_EINPUT;
    m->method = (enum solver_method)method;
    m->order = (enum solver_order)order;
    m->iterations = (int)iterations;
    return 0;
}

/* threads and kernel. */
static int read_perf(struct loader *ld, const cJSON *s)
{
    long long threads = ld->m->threads;
    int kernel = (int)ld->m->kernel;
    if (sjson_get_integer(&ld->cx, s, "solver", "threads", 1, SCENARIO_MAX_THREADS, &threads) ||
        sjson_get_enum(&ld->cx, s, "solver", "kernel", kernel_names, &kernel))
        return CATENA_EINPUT;
    ld->m->threads = (int)threads;
    ld->m->kernel = (enum solver_kernel)kernel;
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
    if (sjson_object(&ld->cx, ld->root, "", "solver", solver_keys, &s) || read_method(ld, s) ||
        read_perf(ld, s) || read_contact(ld, s) ||
        loader_get_bool(ld, s, "solver", "max_length_pass", &ld->m->max_length_pass) ||
        loader_get_bool(ld, s, "solver", "global", &ld->m->global) ||
        sjson_get_number(&ld->cx, s, "solver", "global_limit", &SJSON_POSITIVE,
                         &ld->m->global_limit))
        return CATENA_EINPUT;
    return 0;
}
