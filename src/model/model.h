/* The static description of a simulation (MuJoCo's mjModel): everything that does not
 * change while stepping, and physics only (what a run writes and where the scenario came
 * from are the scenario's: scenario/scenario.h). Flat arrays indexed by point or link; no
 * per-point allocation. Filled by the scenario loader (and the scenario/build/ generators),
 * read by the solver and writers. */
#ifndef CATENA_MODEL_H
#define CATENA_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/vec.h"
#include "model/obstacle.h"

struct model_capacity; /* model/model.c */

/* Positions beyond this many metres from the origin are not a simulation any more: a run
 * counts a point there as diverged (solver/state.h), and the loader refuses a scenario whose
 * points start there (scenario/check.c). */
#define MODEL_ABSURD 1e12

enum solver_method {
    METHOD_VERLET, /* Jakobsen: implicit velocity, per-substep damping, stiffness 0..1 */
    METHOD_PBD,    /* Mueller et al. 2007: explicit velocity, stiffness 0..1 */
    METHOD_XPBD,   /* Macklin et al. 2016: compliance and Lagrange multipliers */
};

enum solver_order {
    ORDER_FORWARD,   /* links 0..n-1 every iteration */
    ORDER_ALTERNATE, /* forward on even iterations, backward on odd ones */
    ORDER_COLORED,   /* colour groups: no two constraints of a group share a point */
};

/* How the links are relaxed (solver.kernel); both make the same projections in the same
 * order, so they give the same bits. */
/* solver.global_matrix: how solver.global iterates a body with loops. */
enum solver_matrix {
    MATRIX_NEWTON, /* Newton's method on the KKT system, its matrix renewed as it goes
                      (solver/direct/newton.c) */
    MATRIX_FIXED,  /* ADMM with one scalar matrix factored per topology (solver/direct/fixed.c) */
};

enum solver_kernel {
    KERNEL_BATCHED, /* gathered once a step into flat arrays; colours or independent runs
                       shared by solver.threads threads (solver/batch/batch.c) */
    KERNEL_SIMPLE,  /* one link at a time through solver/distance.c: the reference */
};

enum body_type {
    BODY_ROPE,
    BODY_CLOTH,
    BODY_RAGDOLL,
    BODY_SOFTBODY,
    BODY_HAIR,
};

enum link_kind {
    LINK_DISTANCE, /* equality: holds the rest length both ways */
    LINK_TETHER,   /* inequality: only stops stretching beyond rest (may go slack) */
};

enum link_role {
    ROLE_STRUCTURAL, /* drawn, counted as the body's fabric */
    ROLE_SHEAR,      /* cloth diagonals */
    ROLE_BEND,       /* distance to the point two ahead; not drawn */
};

struct link {
    uint32_t a, b;        /* point indices */
    double rest;          /* rest length, m */
    double stiffness;     /* verlet/pbd: 0..1, fraction of the correction per projection */
    double compliance;    /* xpbd: m/N (inverse stiffness; rest/EA); 0 = rigid */
    double break_stretch; /* breaks when length > break_stretch * rest; 0 = never */
    double break_force;   /* breaks when the tension exceeds it, N; 0 = never */
    uint8_t kind;         /* enum link_kind */
    uint8_t role;         /* enum link_role */
};

/* Angle limit at hinge b between the links b->a and b->c. 2D: the signed turn angle from
 * the direction a->b to b->c, in [-pi, pi], 0 = straight; 3D: the unsigned cone angle
 * between a->b and b->c (min is 0). Outside [min, max] it is pushed back to the limit. */
struct angle {
    uint32_t a, b, c;
    double min, max;   /* rad */
    double stiffness;  /* verlet/pbd: 0..1 */
    double compliance; /* xpbd: rad/(N m); 0 = rigid */
};

/* Area of a closed 2D polygon (points area_index[first..first+count), counter-clockwise
 * positive) or volume of a closed 3D triangle mesh (faces[first..first+count), outward
 * normals), held at pressure * rest. */
struct area {
    uint32_t first, count;
    uint8_t is_volume; /* 0: polygon area (m^2), 1: mesh volume (m^3) */
    double rest;       /* initial area or volume */
    double pressure;   /* target = pressure * rest; 1 keeps the shape's own size */
    double stiffness;  /* verlet/pbd: 0..1 */
    double compliance; /* xpbd: m^4/J (area) or m^6/J (volume); 0 = rigid */
};

/* Shape matching (Mueller et al. 2005) over points shape_index[first..first+count) with
 * rest offsets shape_rest[first..] from the rest centre of mass: goal = c + R * rest. */
struct shape {
    uint32_t first, count;
    double stiffness; /* 0..1; 1 makes the group rigid */
};

/* A weld: two points (usually of different bodies) held together. */
struct attachment {
    uint32_t a, b;
    double stiffness;  /* verlet/pbd: 0..1 */
    double compliance; /* xpbd: m/N; 0 = rigid */
};

/* A triangle of a cloth, soft body or mesh: drawn filled, and used by volumes. */
struct face {
    uint32_t v[3]; /* point indices, counter-clockwise seen from outside */
    uint32_t body; /* the body it belongs to */
};

/* How a pin moves (model/pin_motion.h); every motion is a function of time alone, so the solver
 * can place the point at each substep and give it the matching velocity. */
enum pin_motion_type {
    MOTION_NONE,      /* held at `at` */
    MOTION_LINEAR,    /* at + velocity (t - t0) */
    MOTION_SINE,      /* at + axis amplitude sin(2 pi frequency (t - t0) + phase) */
    MOTION_KEYFRAMES, /* piecewise linear from (t0, at) through the keys; held after the last */
};

struct pin {
    uint32_t point; /* the pinned point; its inverse mass is 0 */
    vec3 at;        /* where it is held, m */

    /* Kinematic motion (model/pin_motion.h); `at` is then its origin. */
    uint8_t motion;                     /* enum pin_motion_type */
    double t0;                          /* s: the motion's time origin */
    vec3 velocity;                      /* linear: m/s */
    vec3 axis;                          /* sine: unit direction */
    double amplitude, frequency, phase; /* sine: m, Hz, rad */
    uint32_t first_key, nkeys;          /* keyframes: key_t/key_x[first_key..+nkeys) */
};

/* Events (run/events.h): applied between steps, when `step` steps are done. */
enum event_kind {
    EVENT_CUT,      /* split a link, taking two reserved points and a reserved link */
    EVENT_RELEASE,  /* unpin a point */
    EVENT_PIN,      /* pin a point where it is (or at `v`) */
    EVENT_DRAG,     /* pin a point to a keyframed path; released at its end */
    EVENT_REEL,     /* change rest lengths at a rate until a bound */
    EVENT_VELOCITY, /* set the velocity of a point or of a body's points */
    EVENT_IMPULSE,  /* add an impulse to a point, or spread over a body's mass */
    EVENT_SET,      /* change gravity, wind or solver parameters from then on */
    EVENT_TELEPORT, /* move a point or a body (positions and previous positions together) */
};

enum event_target {
    TARGET_POINT,
    TARGET_BODY,
    TARGET_LINK,
    TARGET_NEAR, /* cut: the live link nearest the point v (of body `index`, or any) */
};

/* Which fields an EVENT_SET changes. */
enum {
    SET_GRAVITY = 1 << 0,
    SET_WIND = 1 << 1,
    SET_GUST = 1 << 2,
    SET_ITERATIONS = 1 << 3,
    SET_DAMPING = 1 << 4,
    SET_COLLIDE_EVERY = 1 << 5,
};

struct event {
    long step;         /* applied once this many steps are done (0: before the first) */
    uint8_t kind;      /* enum event_kind */
    uint8_t target;    /* enum event_target */
    uint8_t has_at;    /* pin: `v` is where; else the point stays where it is */
    uint8_t ends_drag; /* release: the end of a drag (logged as such) */
    uint32_t index;    /* point, body or link; TARGET_NEAR: body or UINT32_MAX */
    vec3 v;            /* cut near: point; pin: where; velocity m/s; impulse N s; teleport m */
    double a, b;       /* cut: fraction along the link; reel: rate m/s and bound m */
    struct pin pin;    /* drag: the moving pin it adds (at is taken when it starts) */
    uint32_t reserved_point; /* cut: the new ends are points reserved_point and +1 */
    uint32_t reserved_link;  /* cut: the link that takes the far half */
    unsigned set;            /* set: SET_* bits, values below */
    vec3 gravity, wind;
    double gust_amplitude, gust_frequency, damping;
    int iterations, collide_every;
};

/* A generated body: a contiguous range of points and links, addressable by name. */
struct body {
    char *name;
    enum body_type type;
    uint32_t first_point, npoints;
    uint32_t first_link, nlinks;
    uint32_t color;     /* display colour from bodies[].color: 0xRRGGBB | BODY_COLOR_SET; 0 = the
                           palette's colour for the body's index */
    uint32_t grid_cols; /* cloth, hair: points per row (strand), so that "name.R.C" is point
                           R * grid_cols + C of the body; 0 = not a grid */
    double drag;        /* wind drag, kg/m^2: force drag * length * |vn| vn on each link */
    double self_radius; /* self-collision radius, m; 0 = none */
    struct friction self_friction; /* Coulomb friction between its colliding parts */
};

#define BODY_COLOR_SET 0x1000000u

struct model {
    int dims; /* 2 or 3; in 2D every z is 0 */

    double dt;    /* time step, s */
    long steps;   /* steps to run */
    int substeps; /* substeps per step; gravity is applied per substep */

    enum solver_method method;
    int iterations; /* constraint iterations per substep */
    enum solver_order order;
    double damping; /* verlet: velocity multiplier per substep, 0..1 (1 = none); pbd, xpbd:
                       see below. solver.damping_rate (1/s) is converted into it
                       (model_damping_of_rate) */
    int global;     /* 1: distance links of each body solved at once (solver/direct/direct.h) */
    double global_limit;              /* solver.global_limit: the most floating-point operations one
                                         factorisation of a body with loops may take; past it the run is
                                         refused before it starts (solver_check) */
    enum solver_matrix global_matrix; /* solver.global_matrix */

    /* pbd and xpbd read damping as the fraction of velocity kept per second: v *= damping^h
     * every substep of h seconds, so it does not change with dt. */
    int max_length_pass;       /* 1: after the iterations, pull each point back within its path
                                  length (sum of rest lengths) from the nearest pinned point */
    enum solver_kernel kernel; /* solver.kernel */
    int threads;               /* solver.threads: threads sharing the links, >= 1 */

    vec3 gravity; /* m/s^2 */

    size_t npoints;
    vec3 *x0;          /* [npoints] initial positions, m */
    vec3 *v0;          /* [npoints] initial velocities, m/s */
    double *inv_mass;  /* [npoints] 1/kg; 0 = pinned */
    double *mass;      /* [npoints] kg; 0 for a point given as pinned by mass 0 */
    double *radius;    /* [npoints] m */
    char **point_name; /* [npoints] NULL where unnamed */

    size_t nlinks;
    struct link *links;

    /* Constraint families beyond links (issue 3). */
    size_t nangles;
    struct angle *angles;
    size_t nareas;
    struct area *areas;
    size_t narea_index;
    uint32_t *area_index; /* polygon vertex lists of the 2D areas */
    size_t nshapes;
    struct shape *shapes;
    size_t nshape_index;
    uint32_t *shape_index; /* [nshape_index] the points of the shape groups */
    vec3 *shape_rest;      /* [nshape_index] their rest offsets from the group's centre */
    size_t nattachments;
    struct attachment *attachments;
    size_t nfaces;
    struct face *faces;

    size_t npins;
    struct pin *pins;

    size_t nbodies;
    struct body *bodies;

    /* World (issue 4): obstacles, pin keyframes, events, wind, settling. */
    size_t nobstacles;
    struct obstacle *obstacles;
    int collide_every;    /* collisions on iterations 0, k, 2k, ... and the last */
    int shock_iterations; /* the last k iterations hold contact points still (0: none) */
    size_t nkeys;
    double *key_t; /* [nkeys] keyframe times, s */
    vec3 *key_x;   /* [nkeys] keyframe positions, m */
    size_t nevents;
    struct event *events;                          /* sorted by step, then by order in the file */
    size_t first_reserved_point, nreserved_points; /* new ends for cuts, idle until then */
    size_t first_reserved_link, nreserved_links;   /* far halves of cuts, dead until then */
    vec3 wind;                                     /* air velocity, m/s */
    double gust_amplitude; /* wind(t) = wind (1 + amplitude sin(2 pi frequency t)) */
    double gust_frequency; /* Hz */
    double settle_speed;   /* m/s; 0 = run all steps */
    double settle_for;     /* s the largest speed must stay below settle_speed */

    /* The room in the arrays while model_add_* grows them: bookkeeping private to
     * model/model.c, made by the first append; NULL for a model no append has grown (a
     * clone), whose next append makes room anew. */
    struct model_capacity *capacity;
};

/* A model with the format's defaults (catena-scenario(5)) and no points: dims 2,
 * substeps 1, verlet, 10 iterations, alternate order, damping 1, gravity (0, -9.81, 0).
 * dt and steps are 0 until set. NULL on OOM. */
struct model *model_create(void);

/* Appends a point (mass 0 = pinned; name may be NULL and is copied). Returns its index,
 * or -1 on OOM. Arrays grow geometrically, so building is O(n). */
long model_add_point(struct model *m, vec3 x, vec3 v, double mass, double radius, const char *name);

/* Appends a distance link (structural, stiffness 1, compliance 0, no break threshold).
 * Returns its index or -1. */
long model_add_link(struct model *m, uint32_t a, uint32_t b, double rest);

/* Appends an angle limit at hinge b (stiffness 1, compliance 0). Returns its index or -1. */
long model_add_angle(struct model *m, uint32_t a, uint32_t b, uint32_t c, double min, double max);

/* Appends a 2D polygon area over n points (copied), rest = its current signed area from x0,
 * pressure 1, stiffness 1. Returns its index or -1. */
long model_add_area(struct model *m, const uint32_t *points, size_t n);

/* Appends a volume over the faces [first_face, first_face + nfaces) already added, rest =
 * their enclosed volume from x0. Returns its index or -1. */
long model_add_volume(struct model *m, uint32_t first_face, uint32_t nfaces);

/* The signed area (2D polygon, counter-clockwise positive) or volume (3D mesh, outward normals
 * positive) of area i measured on the positions x[npoints]: x0 gives the rest, the state's
 * positions the current value. */
double model_area_value(const struct model *m, const vec3 *x, size_t i);

/* Appends a shape-matching group over n points (copied); rest offsets from x0 and masses.
 * Returns its index or -1. */
long model_add_shape(struct model *m, const uint32_t *points, size_t n, double stiffness);

/* Appends a weld between a and b (stiffness 1, compliance 0). Returns its index or -1. */
long model_add_attachment(struct model *m, uint32_t a, uint32_t b);

/* Appends a triangle of body. Returns its index or -1. */
long model_add_face(struct model *m, uint32_t a, uint32_t b, uint32_t c, uint32_t body);

/* Appends a static pin: sets the point's inverse mass to 0 and holds it at `at`. */
long model_add_pin(struct model *m, uint32_t point, vec3 at);

/* Appends a body record (name copied); the caller fills its ranges. Returns index or -1. */
long model_add_body(struct model *m, const char *name, enum body_type type);

/* Appends an obstacle (copied) and returns its index, or -1 on OOM. */
long model_add_obstacle(struct model *m, const struct obstacle *o);

/* Appends a keyframe (time t, position x) and returns its index, or -1 on OOM. */
long model_add_key(struct model *m, double t, vec3 x);

/* Appends an event (copied) and returns its index, or -1 on OOM. */
long model_add_event(struct model *m, const struct event *e);

/* A deep copy of m: no array or string is shared with it (model/clone.c). NULL on OOM. */
struct model *model_clone(const struct model *m);

/* Frees everything the model owns; NULL is a no-op. */
void model_destroy(struct model *m);

/* The display name of point i: its name, "body.k", or its index (buffer owned by caller). */
const char *model_point_label(const struct model *m, size_t i, char *buf, size_t size);

/* 1 for a body that hangs between two pins: a rope of at least 2 segments whose first and
 * last points are pinned (inverse mass 0). The catenary report takes such ropes. */
int model_body_hangs(const struct model *m, const struct body *b);

/* Human names for enums (for validate, summary.json and messages). */
const char *model_method_name(enum solver_method method);
const char *model_order_name(enum solver_order order);

/* Damping as a rate (solver.damping_rate, 1/s, the same meaning under every method): each
 * substep of h seconds keeps exp(-rate h) of the velocity, so it decays as exp(-rate t).
 * model_damping_of_rate gives the damping that means rate under m's method, dt and substeps
 * (verlet: exp(-rate h), a factor per substep; pbd and xpbd: exp(-rate), the fraction kept
 * per second); model_damping_rate the rate that damping means there, its inverse. */
double model_damping_of_rate(const struct model *m, double rate);
double model_damping_rate(const struct model *m, double damping);

#endif
