/* The static description of a simulation (MuJoCo's mjModel): everything that does not
 * change while stepping. Flat arrays indexed by point or link; no per-point allocation.
 * Filled by scenario.c (and the build_*.c generators), read by the solver and writers. */
#ifndef CATENA_MODEL_H
#define CATENA_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"

enum solver_method {
    METHOD_VERLET, /* Jakobsen: implicit velocity, per-substep damping, stiffness 0..1 */
};

enum solver_order {
    ORDER_FORWARD,   /* links 0..n-1 every iteration */
    ORDER_ALTERNATE, /* forward on even iterations, backward on odd ones */
};

enum output_format {
    FORMAT_CSV = 1 << 0,
    FORMAT_JSON = 1 << 1,
    FORMAT_NPY = 1 << 2,
};

enum body_type {
    BODY_ROPE,
};

struct link {
    uint32_t a, b;        /* point indices */
    double rest;          /* rest length, m */
    double stiffness;     /* 0..1: fraction of the correction applied per projection */
    double break_stretch; /* breaks when length > break_stretch * rest; 0 = never */
};

struct pin {
    uint32_t point; /* the pinned point; its inverse mass is 0 */
    vec3 at;        /* where it is held, m */
};

/* A generated body: a contiguous range of points and links, addressable by name. */
struct body {
    char *name;
    enum body_type type;
    uint32_t first_point, npoints;
    uint32_t first_link, nlinks;
};

struct model {
    char *name;        /* scenario name */
    char *source;      /* path of the scenario file (for messages) */
    char sha256[65];   /* hex SHA-256 of the scenario file's bytes */
    int dims;          /* 2 or 3; in 2D every z is 0 */

    double dt;         /* time step, s */
    long steps;        /* steps to run */
    int substeps;      /* substeps per step; gravity is applied per substep */

    enum solver_method method;
    int iterations;    /* constraint iterations per substep */
    enum solver_order order;
    double damping;    /* verlet: velocity multiplier per substep, 0..1 (1 = none) */

    vec3 gravity;      /* m/s^2 */

    size_t npoints;
    vec3 *x0;          /* [npoints] initial positions, m */
    vec3 *v0;          /* [npoints] initial velocities, m/s */
    double *inv_mass;  /* [npoints] 1/kg; 0 = pinned */
    double *mass;      /* [npoints] kg; 0 for a point given as pinned by mass 0 */
    double *radius;    /* [npoints] m */
    char **point_name; /* [npoints] NULL where unnamed */

    size_t nlinks;
    struct link *links;

    size_t npins;
    struct pin *pins;

    size_t nbodies;
    struct body *bodies;

    unsigned formats;  /* enum output_format bits */
    long every;        /* record every k-th step (step 0 is always recorded) */

    size_t point_cap, link_cap, pin_cap, body_cap; /* allocated lengths while building */
};

/* A model with the format's defaults (catena-scenario(5)) and no points: dims 2,
 * substeps 1, verlet, 10 iterations, alternate order, damping 1, gravity (0, -9.81, 0),
 * CSV every step. dt and steps are 0 until set. NULL on OOM. */
struct model *model_create(void);

/* Appends a point (mass 0 = pinned; name may be NULL and is copied). Returns its index,
 * or -1 on OOM. Arrays grow geometrically, so building is O(n). */
long model_add_point(struct model *m, vec3 x, vec3 v, double mass, double radius,
                     const char *name);

/* Appends a link with stiffness 1 and no break threshold. Returns its index or -1. */
long model_add_link(struct model *m, uint32_t a, uint32_t b, double rest);

/* Appends a static pin: sets the point's inverse mass to 0 and holds it at `at`. */
long model_add_pin(struct model *m, uint32_t point, vec3 at);

/* Appends a body record (name copied); the caller fills its ranges. Returns index or -1. */
long model_add_body(struct model *m, const char *name, enum body_type type);

/* Frees everything the model owns; NULL is a no-op. */
void model_destroy(struct model *m);

/* The display name of point i: its name, "body.k", or its index (buffer owned by caller). */
const char *model_point_label(const struct model *m, size_t i, char *buf, size_t size);

/* Human names for enums (for validate, summary.json and messages). */
const char *model_method_name(enum solver_method method);
const char *model_order_name(enum solver_order order);

#endif
