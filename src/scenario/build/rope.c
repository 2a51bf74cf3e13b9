/* Rope bodies. A rope longer than its chord starts sagging as a discrete catenary: for n
 * equal links joining equal point masses under uniform gravity, the horizontal tension is
 * constant and the vertical one drops by the same amount at every joint, so the link
 * slopes are beta * t_k with t_k = (n-1)/2 - k. beta is found by bisection so that the
 * links, walked from `from`, end at `to`: sum_k cos(atan(beta t_k)) = n |to - from| / length.
 * The "sag" shape is the arc: link angles gamma * t_k, chords of one circle. The file ends
 * with the rope's reader: its keys and the checks of its length against the chord. */
#include "scenario/build/build.h"

#include "core/fmt_double.h"
#include "scenario/bodies.h"

static const double PI = 3.14159265358979323846;

struct rope_def build_rope_def(void)
{
    return (struct rope_def){.segments = 1,
                             .mass = 1.0,
                             .stiffness = 1.0,
                             .shape = ROPE_CATENARY,
                             .bend = {.on = 0, .stiffness = 1.0}};
}

/* The sag's direction: the part of gravity perpendicular to the chord u; without one, a
 * perpendicular in the x-y plane (downwards for a rope that runs along +x). */
static vec3 bulge_direction(vec3 u, vec3 g)
{
    const vec3 gp = v3_sub(g, v3_scale(u, v3_dot(g, u)));
    const double gl = v3_len(gp);
    if (gl > 1e-9 * v3_len(g))
        return v3_scale(gp, 1.0 / gl);
    const vec3 side = v3(u.y, -u.x, 0);
    const double sl = v3_len(side);
    if (sl > 1e-9)
        return v3_scale(side, 1.0 / sl);
    return v3(0, -1, 0); /* the chord runs along z */
}

/* The shapes: both give link k a direction at an angle a_k from the chord, odd in t_k,
 * so the ends are level along the bulge; both shrink sum cos a_k monotonically. */
enum sag_shape { SHAPE_CATENARY, SHAPE_ARC };

static double half_offset(size_t k, size_t n)
{
    return 0.5 * ((double)n - 1.0 - 2.0 * (double)k);
}

/* cos a_k and sin a_k: slope beta * t_k (catenary), or angle gamma * t_k (arc). */
static void link_angle(enum sag_shape s, double p, size_t k, size_t n, double *c, double *sn)
{
    const double t = half_offset(k, n);
    if (s == SHAPE_CATENARY) {
        const double slope = p * t;
        *c = 1.0 / sqrt(1.0 + slope * slope);
        *sn = slope * *c;
    } else {
        *c = cos(p * t);
        *sn = sin(p * t);
    }
}

static double sum_cos(enum sag_shape s, double p, size_t n)
{
    double sum = 0, c, sn;
    for (size_t k = 0; k < n; k++) {
        link_angle(s, p, k, n, &c, &sn);
        sum += c;
    }
    return sum;
}

/* The parameter in [lo, hi] where sum_cos (decreasing) equals target, by bisection. */
static double bisect(enum sag_shape s, size_t n, double target, double lo, double hi)
{
    for (int i = 0; i < 200 && hi - lo > 1e-16 * hi; i++) {
        const double mid = lo + 0.5 * (hi - lo);
        if (sum_cos(s, mid, n) > target)
            lo = mid;
        else
            hi = mid;
    }
    return lo + 0.5 * (hi - lo);
}

/* The catenary (falling back to the arc where it would overhang), or always the arc. */
static void rope_shape(vec3 from, vec3 to, double length, size_t n, vec3 gravity, int arc,
                       vec3 *out)
{
    const vec3 chord = v3_sub(to, from);
    const double d = v3_len(chord);
    /* Links of length length/n end at `to` when their directions average this cosine. */
    const double target = (double)n * d / length;
    if (target >= (double)n) {
        for (size_t k = 0; k < n; k++)
            out[k] = v3_add(from, v3_scale(chord, (double)k / (double)n));
        out[n] = to;
        return;
    }
    const vec3 u = v3_scale(chord, 1.0 / d), w = bulge_direction(u, gravity);

    /* As beta grows, every catenary link turns towards the bulge except, for odd n, the
     * middle one, which stays parallel to the chord: past that the rope must overhang. */
    enum sag_shape s;
    double p;
    if (!arc && target > (double)(n % 2)) {
        s = SHAPE_CATENARY;
        double hi = 1.0;
        while (sum_cos(s, hi, n) > target && hi < 1e300)
            hi *= 2.0;
        p = bisect(s, n, target, 0.0, hi);
    } else {
        /* At gamma = 2 pi / n the links close into a regular polygon: sum cos = 0. */
        s = SHAPE_ARC;
        p = bisect(s, n, target, 0.0, 2.0 * PI / (double)n);
    }

    const double seg = length / (double)n;
    out[0] = from;
    for (size_t k = 0; k < n; k++) {
        double c, sn;
        link_angle(s, p, k, n, &c, &sn);
        out[k + 1] = v3_add(out[k], v3_scale(v3_add(v3_scale(u, c), v3_scale(w, sn)), seg));
    }
    /* Spread what bisection and rounding left at the end evenly over the links: each
     * changes by |miss| / n, i.e. its length by |miss| / length relative. */
    const vec3 miss = v3_sub(to, out[n]);
    for (size_t k = 1; k < n; k++)
        out[k] = v3_add(out[k], v3_scale(miss, (double)k / (double)n));
    out[n] = to;
}

void build_rope_shape(vec3 from, vec3 to, double length, size_t n, vec3 gravity, vec3 *out)
{
    rope_shape(from, to, length, n, gravity, 0, out);
}

void build_rope_arc(vec3 from, vec3 to, double length, size_t n, vec3 gravity, vec3 *out)
{
    rope_shape(from, to, length, n, gravity, 1, out);
}

long build_rope(struct model *m, const struct rope_def *def, vec3 gravity)
{
    const size_t n = def->segments;
    const double length = def->length > 0 ? def->length : v3_dist(def->from, def->to);
    const double point_mass = def->mass / (double)(n + 1);
    const long b = model_add_body(m, def->name, BODY_ROPE);
    if (b < 0)
        return -1;
    const size_t first_point = m->npoints, first_link = m->nlinks;
    for (size_t k = 0; k <= n; k++)
        if (model_add_point(m, def->from, v3(0, 0, 0), point_mass, def->radius, NULL) < 0)
            return -1;
    /* A straight rope is the catenary's limit: its length is the chord's (checked). */
    rope_shape(def->from, def->to, length, n, gravity, def->shape == ROPE_SAG, m->x0 + first_point);
    for (size_t k = 0; k < n; k++) {
        const long l = model_add_link(m, (uint32_t)(first_point + k),
                                      (uint32_t)(first_point + k + 1), length / (double)n);
        if (l < 0)
            return -1;
        m->links[l].stiffness = def->stiffness;
        m->links[l].compliance = def->compliance;
        m->links[l].break_stretch = def->break_stretch;
    }
    for (size_t k = 0; def->bend.on && k + 2 <= n; k++)
        if (build_link(m, (uint32_t)(first_point + k), (uint32_t)(first_point + k + 2), &def->bend,
                       ROLE_BEND) < 0)
            return -1;
    build_close_body(m, b, first_point, first_link);
    return b;
}

/* ---- the rope's reader (scenario/bodies.h) ---- */

// clang-format off
static const struct sjson_key rope_keys[] = {
    {"from", 1},
    {"to", 1},
    {"segments", 1},
    {"length", 0},
    {NULL, 0},
};
static const struct sjson_key rope_more_keys[] = {
    {"shape", 0},
    {"bend", 0},
    {NULL, 0},
};
// clang-format on

const char *const build_rope_shape_names[] = {"catenary", "sag", "straight", NULL};

/* Checks the rope's geometry: distinct ends, a length that the segments and the shape can
 * take. */
static int check_rope_length(struct loader *ld, const char *path, const struct rope_def *def,
                             int has_length)
{
    char p[SJSON_PATH_MAX], chord_s[FMT_DOUBLE_SIZE], len_s[FMT_DOUBLE_SIZE];
    const double chord = v3_dist(def->from, def->to);
    if (chord == 0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "to"),
                           "must differ from \"from\" (a rope needs two distinct ends)");
    if (!has_length)
        return 0;
    fmt_double(chord_s, chord);
    fmt_double(len_s, def->length);
    sjson_path_key(p, path, "length");
    /* A length typed as the rounded chord may fall an ulp short of it, or over it. */
    if (def->length < chord * (1 - 1e-12))
        return sjson_error(&ld->cx, p,
                           "must be at least the distance from \"from\" to \"to\", %s (got %s)",
                           chord_s, len_s);
    if (def->shape == ROPE_STRAIGHT && def->length > chord * (1 + 1e-12))
        return sjson_error(&ld->cx, p,
                           "a \"straight\" rope's length must be the distance from \"from\" to "
                           "\"to\", %s (got %s)",
                           chord_s, len_s);
    if (def->segments == 1 && def->length > chord * (1 + 1e-12))
        return sjson_error(&ld->cx, p,
                           "a rope of 1 segment cannot sag: its length must be the distance "
                           "from \"from\" to \"to\", %s (got %s)",
                           chord_s, len_s);
    return 0;
}

static int read_rope(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                     long long *points)
{
    struct rope_def *def = &p->def.rope;
    struct body_common c;
    long long segments = 0;
    int shape = ROPE_CATENARY;
    char k[SJSON_PATH_MAX];
    *def = build_rope_def();
    if (bodies_read_common(ld, e, path, p, &c) ||
        sjson_get_integer(&ld->cx, e, path, "segments", 1, SCENARIO_MAX_COUNT, &segments) ||
        bodies_add_points(ld, sjson_path_key(k, path, "segments"), segments + 1,
                          segments + (bodies_set_on(e, "bend", 0) ? segments - 1 : 0), 0, points))
        return CATENA_EINPUT;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->stiffness = c.links.stiffness;
    def->compliance = c.links.compliance;
    def->break_stretch = c.links.break_stretch;
    def->bend = (struct build_set){.on = 0, .stiffness = 1.0};
    def->segments = (uint32_t)segments;
    p->npoints = def->segments + 1;
    if (sjson_get_vector(&ld->cx, e, path, "from", ld->m->dims, &def->from) ||
        sjson_get_vector(&ld->cx, e, path, "to", ld->m->dims, &def->to) ||
        sjson_get_number(&ld->cx, e, path, "length", &SJSON_POSITIVE, &def->length) ||
        sjson_get_enum(&ld->cx, e, path, "shape", build_rope_shape_names, &shape))
        return CATENA_EINPUT;
    def->shape = (enum rope_shape)shape;
    struct build_set bend = c.links;
    bend.on = 0;
    if (bodies_read_set(ld, e, path, "bend", bodies_link_set_keys, &bend) ||
        check_rope_length(ld, path, def, sjson_child(e, "length") != NULL))
        return CATENA_EINPUT;
    def->bend = bend;
    return 0;
}

static long build_body(struct loader *ld, const struct body_plan *p)
{
    return build_rope(ld->m, &p->def.rope, ld->m->gravity);
}

const struct body_kind build_rope_kind = {
    .name = "rope",
    .article = "a rope",
    .keys = rope_keys,
    .more_keys = rope_more_keys,
    .pin_names = bodies_end_pin_names,
    .default_pin = -1,
    .read = read_rope,
    .build = build_body,
    .pin_point = NULL,
};
