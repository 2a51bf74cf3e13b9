/* Body generators: each expands a body described in a scenario into a contiguous range
 * of the model's points and links, plus a body record that names the range. Definitions
 * are filled from their build_*_def() defaults (Box2D-style), then by the scenario. */
#ifndef CATENA_BUILD_H
#define CATENA_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "vec.h"

/* A rope: segments + 1 points of equal mass from `from` to `to`, joined by segments
 * links of rest length length / segments. */
struct rope_def {
    const char *name;     /* body name (copied into the model) */
    vec3 from, to;        /* end points, m; distinct */
    uint32_t segments;    /* links, >= 1 */
    double length;        /* total rest length, m; >= |to - from|; 0 = the chord */
    double mass;          /* total mass, kg, spread evenly over the points */
    double stiffness;     /* 0..1 for every link */
    double break_stretch; /* for every link; 0 = never breaks */
    double radius;        /* of every point, m */
};

/* The defaults: 1 segment, length = chord, mass 1 kg, stiffness 1, unbreakable, radius 0. */
struct rope_def build_rope_def(void);

/* Appends the rope's points and links to m and a body record covering them, shaped by
 * build_rope_shape. Requires segments >= 2 when length exceeds the chord. Returns the
 * body index, or -1 when out of memory (m then holds a partial rope). */
long build_rope(struct model *m, const struct rope_def *def, vec3 gravity);

/* The initial shape of a rope: out[0..n] from `from` to `to` exactly, with consecutive
 * points length / n apart (to ~1e-15 relative). A rope longer than its chord sags as the
 * discrete catenary of equal point masses (the static shape of the rope when the chord
 * is level), bulging along the part of gravity perpendicular to the chord; when no
 * catenary without overhang exists (n odd, length >= n x chord) it bows as an arc of a
 * circle. Requires n >= 1, from != to, and n >= 2 when length > |to - from|. */
void build_rope_shape(vec3 from, vec3 to, double length, size_t n, vec3 gravity, vec3 *out);

#endif
