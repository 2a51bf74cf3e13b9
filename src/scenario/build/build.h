/* Body generators: each expands a body described in a scenario into a contiguous range
 * of the model's points and links (plus its angles, areas, shapes and faces), and a body
 * record that names the range. Definitions are filled from their build_*_def() defaults
 * (Box2D-style), then by the scenario; the scenario loader checks them, so a generator
 * fails only when out of memory. Pins are the loader's: a generator pins nothing. Each type's
 * file (build/TYPE.c) also holds the type's reader, which fills the definition from the
 * scenario's JSON (scenario/bodies.h): the keys, checks and generator of a body type are read
 * in one place, while the generators below take a definition and know no JSON, so models
 * built in code (bench, tests) call them directly. */
#ifndef CATENA_BUILD_H
#define CATENA_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "core/vec.h"

/* A family of constraints a body may have, switched on or off, with its parameters. */
struct build_set {
    int on;               /* 0: the body has none of them */
    double stiffness;     /* verlet/pbd: 0..1 */
    double compliance;    /* xpbd: m/N for links, rad/(N m) for angles, m^4/J or m^6/J for areas */
    double break_stretch; /* links only: breaks past break_stretch * rest; 0 = never */
};

/* The initial shape of a rope longer than its chord. */
enum rope_shape {
    ROPE_CATENARY, /* the discrete catenary: the rope's static shape under gravity */
    ROPE_SAG,      /* a circular arc: bowed, but out of equilibrium */
    ROPE_STRAIGHT, /* the chord itself; the length must be the chord's */
};

/* A rope: segments + 1 points of equal mass from `from` to `to`, joined by segments
 * links of rest length length / segments. */
struct rope_def {
    const char *name;     /* body name (copied into the model) */
    vec3 from, to;        /* end points, m; distinct */
    uint32_t segments;    /* links, >= 1 */
    double length;        /* total rest length, m; >= |to - from|; 0 = the chord */
    double mass;          /* total mass, kg, spread evenly over the points */
    double stiffness;     /* 0..1 for every link */
    double compliance;    /* xpbd: m/N for every link */
    double break_stretch; /* for every link; 0 = never breaks */
    double radius;        /* of every point, m */
    enum rope_shape shape;
    struct build_set bend; /* links from each point to the point two ahead */
};

/* The defaults: 1 segment, length = chord, mass 1 kg, stiffness 1, compliance 0,
 * unbreakable, radius 0, catenary, no bend links. */
struct rope_def build_rope_def(void);

/* Appends the rope's points and links to m and a body record covering them, shaped by
 * build_rope_shape (or build_rope_arc for ROPE_SAG). Structural links come first, point k
 * to k + 1, then the bend links k to k + 2 at their initial distance. Requires segments >= 2
 * when length exceeds the chord. Returns the body index, or -1 when out of memory (m then
 * holds a partial rope). */
long build_rope(struct model *m, const struct rope_def *def, vec3 gravity);

/* The initial shape of a rope: out[0..n] from `from` to `to` exactly, with consecutive
 * points length / n apart (to ~1e-15 relative). A rope longer than its chord sags as the
 * discrete catenary of equal point masses (the static shape of the rope when the chord
 * is level), bulging along the part of gravity perpendicular to the chord; when no
 * catenary without overhang exists (n odd, length >= n x chord) it bows as an arc of a
 * circle. Requires n >= 1, from != to, and n >= 2 when length > |to - from|. */
void build_rope_shape(vec3 from, vec3 to, double length, size_t n, vec3 gravity, vec3 *out);

/* The same contract, but always the arc: the links are chords of one circle through both
 * ends, bulging the same way. */
void build_rope_arc(vec3 from, vec3 to, double length, size_t n, vec3 gravity, vec3 *out);

/* A cloth: a grid of rows x cols points, row r column c being point r * cols + c at
 * corner + c dx u - r dy v (row 0 is the top edge, along u). */
struct cloth_def {
    const char *name;
    uint32_t rows, cols;         /* >= 2 each */
    vec3 corner;                 /* row 0, column 0, m */
    vec3 u, v;                   /* orthonormal axes of the cloth's plane */
    double dx, dy;               /* spacing along u and along v, m */
    double mass;                 /* total, kg, spread evenly over the points */
    double radius;               /* of every point, m */
    struct build_set structural; /* (r,c)-(r,c+1) and (r,c)-(r+1,c) */
    struct build_set shear;      /* both diagonals of every cell */
    struct build_set bend;       /* (r,c)-(r,c+2) and (r,c)-(r+2,c) */
};

/* The defaults: 2 x 2 points 1 m apart in the x-y plane with the corner at the origin,
 * 1 kg, structural and shear links (stiffness 1), no bend links. */
struct cloth_def build_cloth_def(void);

/* Appends the cloth: its points row by row, then structural (rows then columns), shear
 * and bend links at their initial distances, then two faces per cell, counter-clockwise
 * seen from the side u x v points to. The body's grid_cols is cols. Returns the body
 * index or -1 when out of memory. */
long build_cloth(struct model *m, const struct cloth_def *def);

/* The 16 points of a ragdoll, in the order they are built (local index = enum value). */
enum ragdoll_point {
    RAG_HEAD,
    RAG_NECK,
    RAG_CHEST,
    RAG_PELVIS,
    RAG_L_SHOULDER,
    RAG_L_ELBOW,
    RAG_L_HAND,
    RAG_R_SHOULDER,
    RAG_R_ELBOW,
    RAG_R_HAND,
    RAG_L_HIP,
    RAG_L_KNEE,
    RAG_L_FOOT,
    RAG_R_HIP,
    RAG_R_KNEE,
    RAG_R_FOOT,
    RAG_NPOINTS
};

/* Their names ("head", "l_hand", ...), indexed by enum ragdoll_point, NULL-terminated. */
extern const char *const build_ragdoll_names[];

enum ragdoll_pose {
    POSE_STAND, /* arms hanging a little apart, elbows slightly bent, legs a little apart */
    POSE_T,     /* arms straight out sideways */
};

/* The number of bones, braces and joint limits a ragdoll has. */
#define RAGDOLL_BONES 15
#define RAGDOLL_BRACES 8
#define RAGDOLL_JOINTS 9

/* A 2D ragdoll seen from the front, its left on the +x side (before `angle` turns it). */
struct ragdoll_def {
    const char *name;
    vec3 position; /* the pelvis, m */
    double height; /* top of the head to the soles in the standing pose, m */
    double mass;   /* total, kg, spread by segment (Winter's table) */
    double angle;  /* rad, counter-clockwise turn of the whole figure */
    enum ragdoll_pose pose;
    double radius;           /* of every point, m */
    struct build_set bones;  /* the sticks: links along the limbs and the spine */
    struct build_set joints; /* angle limits at the neck, shoulders, elbows, hips, knees */
};

/* The defaults: pelvis at the origin, 1.75 m, 70 kg, upright standing pose, rigid bones
 * and joints. */
struct ragdoll_def build_ragdoll_def(void);

/* Appends the 16 points (named "NAME.head", ...), the bones, the torso braces (ROLE_SHEAR:
 * they keep the torso rigid), and the joint limits. Returns the body index or -1. */
long build_ragdoll(struct model *m, const struct ragdoll_def *def);

/* Joint limit j (0..RAGDOLL_JOINTS-1): its three points (hinge in the middle) and its 2D
 * limits in rad; in 3D the builder turns them into cone limits. */
void build_ragdoll_joint(size_t j, enum ragdoll_point abc[3], double *min, double *max);

/* The initial shape of a soft body. */
enum softbody_shape {
    SOFT_RING,   /* a closed polygon in a plane (2D, or 3D) */
    SOFT_SPHERE, /* an icosphere, a closed triangle mesh (3D) */
};

/* A soft body: a ring of `points` points (or an icosphere), optionally with a centre point
 * joined to every other by a spoke, an area (ring, 2D) or volume (sphere) held at pressure
 * times its rest value, and shape matching over all its points. */
struct softbody_def {
    const char *name;
    enum softbody_shape shape;
    vec3 center;             /* m */
    double size;             /* ring or sphere radius, m */
    uint32_t points;         /* ring points, >= 3 */
    uint32_t subdivisions;   /* sphere: 12 points at 0, 10 * 4^s + 2 at s */
    vec3 u, v;               /* ring: orthonormal axes of its plane */
    double mass;             /* total, kg, spread evenly over every point */
    double radius;           /* of every point, m */
    struct build_set edges;  /* the ring's or mesh's edges */
    struct build_set spokes; /* centre to every other point (ROLE_SHEAR) */
    struct build_set area;   /* the area (ring) or volume (sphere) constraint */
    double pressure;         /* target = pressure * rest, when area.on */
    double shape_matching;   /* stiffness 0..1 of a shape group over all points; 0 = none */
};

/* The defaults: a ring of 16 points, radius 1 m, in the x-y plane at the origin, 1 kg,
 * edges and spokes, no area, pressure 1, no shape matching. */
struct softbody_def build_softbody_def(void);

/* The number of points the body will have (the centre included). */
uint32_t build_softbody_points(const struct softbody_def *def);

/* Appends the points (the ring counter-clockwise seen from u x v, or the icosphere; then
 * the centre, named "NAME.center", when spokes are on), the edges, the spokes, the faces
 * (a fan from the centre, else from point 0, for a ring; the mesh's, outward, for a
 * sphere), the area or volume and the shape group. Returns the body index or -1. */
long build_softbody(struct model *m, const struct softbody_def *def);

/* Hair: `strands` strands of `points` points, strand s being points s * points ..
 * s * points + points - 1, from its root outwards; the body's grid_cols is `points`. */
struct hair_def {
    const char *name;
    int arc;                /* 0: roots on the segment from..to; 1: on the arc */
    vec3 from, to;          /* the root line, m */
    vec3 center;            /* the root arc's centre, m (in the x-y plane through it) */
    double arc_radius;      /* m */
    double start, end;      /* the arc's angles, rad, counter-clockwise from +x */
    int has_direction;      /* 0: along gravity (line) or outwards (arc) */
    vec3 direction;         /* unit vector the strands grow along */
    uint32_t strands;       /* >= 1 */
    uint32_t points;        /* per strand, >= 2 */
    double length;          /* per strand, m */
    double mass;            /* total, kg, spread evenly over every point */
    double radius;          /* of every point, m */
    struct build_set links; /* along each strand */
    struct build_set bend;  /* point k to k + 2 along each strand */
};

/* The defaults: 1 strand of 10 points, 0.3 m long, from the origin, 0.01 kg, bend links
 * on (stiffness 1). */
struct hair_def build_hair_def(void);

/* The root of strand s and the direction it grows in (unit). */
void build_hair_root(const struct hair_def *def, uint32_t s, vec3 gravity, vec3 *root, vec3 *dir);

/* Appends the strands, straight from their roots, then each strand's links, then its bend
 * links. Returns the body index or -1. */
long build_hair(struct model *m, const struct hair_def *def, vec3 gravity);

/* Shared by the generators: appends a link from a to b at their initial distance with the
 * set's parameters and the role. Returns its index or -1. */
long build_link(struct model *m, uint32_t a, uint32_t b, const struct build_set *set,
                enum link_role role);

/* Fills the body record b with the ranges from first_point / first_link to the model's
 * current ends. */
void build_close_body(struct model *m, long b, size_t first_point, size_t first_link);

#endif
