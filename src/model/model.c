/* Model construction and teardown. Arrays grow geometrically while a scenario is built
 * (the room they have is kept in struct model_capacity, private to this file) and never
 * change afterwards. */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct model *model_create(void)
{
    struct model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->dims = 2;
    m->substeps = 1;
    m->method = METHOD_VERLET;
    m->iterations = 10;
    m->threads = 1;
    m->order = ORDER_ALTERNATE;
    m->damping = 1.0;
    m->gravity = v3(0, -9.81, 0);
    m->collide_every = 1;
    m->global_limit = 1e10; /* ~10 s a factorisation at 1 Gflop/s */
    return m;
}

/* The room each array has, in elements, while model_add_* grows them geometrically. Kept
 * out of struct model, which describes the physics only. */
struct model_capacity {
    size_t points, links, pins, bodies, angles, areas, area_index, shapes, shape_index, attachments,
        faces, obstacles, keys, events;
};

/* m's capacities, made (all 0) by the first append; NULL on OOM. A model whose arrays were
 * not grown here (a clone) starts from 0 too: its next append of each array reallocates. */
static struct model_capacity *capacity(struct model *m)
{
    if (!m->capacity)
        m->capacity = calloc(1, sizeof *m->capacity);
    return m->capacity;
}

/* Grows *arr (of elements of size elem) so that index n fits; cap is the capacity. */
static int grow(void **arr, size_t elem, size_t n, size_t *cap)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c <= n) /* only for arrays this file did not grow: 16, 32, ... past n */
        c *= 2;
    void *p = realloc(*arr, c * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = c;
    return 0;
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

long model_add_point(struct model *m, vec3 x, vec3 v, double mass, double radius, const char *name)
{
    struct model_capacity *room = capacity(m);
    if (!room)
        return -1;
    size_t n = m->npoints, cap = room->points;
    if (n >= cap) {
        size_t c = cap;
        if (grow((void **)&m->x0, sizeof *m->x0, n, &c) ||
            (c = cap, grow((void **)&m->v0, sizeof *m->v0, n, &c)) ||
            (c = cap, grow((void **)&m->inv_mass, sizeof *m->inv_mass, n, &c)) ||
            (c = cap, grow((void **)&m->mass, sizeof *m->mass, n, &c)) ||
            (c = cap, grow((void **)&m->radius, sizeof *m->radius, n, &c)) ||
            (c = cap, grow((void **)&m->point_name, sizeof *m->point_name, n, &c)))
            return -1;
        room->points = c;
    }
    char *copy = dup_or_null(name);
    if (name && !copy)
        return -1;
    m->x0[n] = x;
    m->v0[n] = v;
    m->mass[n] = mass;
    m->inv_mass[n] = mass > 0 ? 1.0 / mass : 0.0;
    m->radius[n] = radius;
    m->point_name[n] = copy;
    m->npoints = n + 1;
    return (long)n;
}

long model_add_link(struct model *m, uint32_t a, uint32_t b, double rest)
{
    struct model_capacity *room = capacity(m);
    if (!room || grow((void **)&m->links, sizeof *m->links, m->nlinks, &room->links))
        return -1;
    m->links[m->nlinks] = (struct link){.a = a, .b = b, .rest = rest, .stiffness = 1.0};
    return (long)m->nlinks++;
}

long model_add_angle(struct model *m, uint32_t a, uint32_t b, uint32_t c, double min, double max)
{
    struct model_capacity *room = capacity(m);
    if (!room || grow((void **)&m->angles, sizeof *m->angles, m->nangles, &room->angles))
        return -1;
    m->angles[m->nangles] =
        (struct angle){.a = a, .b = b, .c = c, .min = min, .max = max, .stiffness = 1.0};
    return (long)m->nangles++;
}

/* Shoelace formula in the x-y plane; counter-clockwise is positive. */
static double polygon_area(const struct model *m, const vec3 *x, const struct area *ar)
{
    const uint32_t *idx = m->area_index + ar->first;
    double twice = 0.0;
    for (uint32_t i = 0; i < ar->count; i++) {
        const vec3 p = x[idx[i]], q = x[idx[i + 1 == ar->count ? 0 : i + 1]];
        twice += p.x * q.y - q.x * p.y;
    }
    return 0.5 * twice;
}

/* Divergence theorem: the sum of signed tetrahedra from the origin to each face. */
static double mesh_volume(const struct model *m, const vec3 *x, const struct area *ar)
{
    double six = 0.0;
    for (uint32_t f = ar->first; f < ar->first + ar->count; f++) {
        const uint32_t *v = m->faces[f].v;
        six += v3_dot(x[v[0]], v3_cross(x[v[1]], x[v[2]]));
    }
    return six / 6.0;
}

double model_area_value(const struct model *m, const vec3 *x, size_t i)
{
    const struct area *ar = &m->areas[i];
    return ar->is_volume ? mesh_volume(m, x, ar) : polygon_area(m, x, ar);
}

/* The record, its rest the area or volume of x0. */
static long add_area_record(struct model *m, uint32_t first, uint32_t count, int is_volume)
{
    struct model_capacity *room = capacity(m);
    if (!room || grow((void **)&m->areas, sizeof *m->areas, m->nareas, &room->areas))
        return -1;
    m->areas[m->nareas] = (struct area){.first = first,
                                        .count = count,
                                        .is_volume = (uint8_t)is_volume,
                                        .pressure = 1.0,
                                        .stiffness = 1.0};
    m->areas[m->nareas].rest = model_area_value(m, m->x0, m->nareas);
    return (long)m->nareas++;
}

long model_add_area(struct model *m, const uint32_t *points, size_t n)
{
    const size_t first = m->narea_index;
    struct model_capacity *room = capacity(m);
    for (size_t i = 0; i < n; i++) {
        if (!room ||
            grow((void **)&m->area_index, sizeof *m->area_index, m->narea_index, &room->area_index))
            return -1;
        m->area_index[m->narea_index++] = points[i];
    }
    return add_area_record(m, (uint32_t)first, (uint32_t)n, 0);
}

long model_add_volume(struct model *m, uint32_t first_face, uint32_t nfaces)
{
    return add_area_record(m, first_face, nfaces, 1);
}

/* Rest offsets are taken from the mass-weighted centre; a group with no free mass (all
 * pinned) uses equal weights so the offsets are still defined. */
long model_add_shape(struct model *m, const uint32_t *points, size_t n, double stiffness)
{
    const size_t first = m->nshape_index;
    vec3 c = v3(0, 0, 0);
    double wsum = 0.0;
    for (size_t i = 0; i < n; i++)
        wsum += m->mass[points[i]];
    for (size_t i = 0; i < n; i++) {
        const double w = wsum > 0.0 ? m->mass[points[i]] / wsum : 1.0 / (double)n;
        c = v3_add(c, v3_scale(m->x0[points[i]], w));
    }
    struct model_capacity *room = capacity(m);
    if (!room)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t cap = room->shape_index;
        if (grow((void **)&m->shape_index, sizeof *m->shape_index, m->nshape_index, &cap) ||
            (cap = room->shape_index,
             grow((void **)&m->shape_rest, sizeof *m->shape_rest, m->nshape_index, &cap)))
            return -1;
        room->shape_index = cap;
        m->shape_index[m->nshape_index] = points[i];
        m->shape_rest[m->nshape_index++] = v3_sub(m->x0[points[i]], c);
    }
    if (grow((void **)&m->shapes, sizeof *m->shapes, m->nshapes, &room->shapes))
        return -1;
    m->shapes[m->nshapes] =
        (struct shape){.first = (uint32_t)first, .count = (uint32_t)n, .stiffness = stiffness};
    return (long)m->nshapes++;
}

long model_add_attachment(struct model *m, uint32_t a, uint32_t b)
{
    struct model_capacity *room = capacity(m);
    if (!room ||
        grow((void **)&m->attachments, sizeof *m->attachments, m->nattachments, &room->attachments))
        return -1;
    m->attachments[m->nattachments] = (struct attachment){.a = a, .b = b, .stiffness = 1.0};
    return (long)m->nattachments++;
}

long model_add_face(struct model *m, uint32_t a, uint32_t b, uint32_t c, uint32_t body)
{
    struct model_capacity *room = capacity(m);
    if (!room || grow((void **)&m->faces, sizeof *m->faces, m->nfaces, &room->faces))
        return -1;
    m->faces[m->nfaces] = (struct face){.v = {a, b, c}, .body = body};
    return (long)m->nfaces++;
}

long model_add_pin(struct model *m, uint32_t point, vec3 at)
{
    struct model_capacity *room = capacity(m);
    if (!room || grow((void **)&m->pins, sizeof *m->pins, m->npins, &room->pins))
        return -1;
    m->pins[m->npins] = (struct pin){.point = point, .at = at};
    m->inv_mass[point] = 0.0;
    m->x0[point] = at;
    return (long)m->npins++;
}

long model_add_obstacle(struct model *m, const struct obstacle *o)
{
    struct model_capacity *room = capacity(m);
    if (!room ||
        grow((void **)&m->obstacles, sizeof *m->obstacles, m->nobstacles, &room->obstacles))
        return -1;
    m->obstacles[m->nobstacles] = *o;
    return (long)m->nobstacles++;
}

long model_add_key(struct model *m, double t, vec3 x)
{
    struct model_capacity *room = capacity(m);
    if (!room)
        return -1;
    size_t cap = room->keys;
    if (grow((void **)&m->key_t, sizeof *m->key_t, m->nkeys, &cap) ||
        (cap = room->keys, grow((void **)&m->key_x, sizeof *m->key_x, m->nkeys, &cap)))
        return -1;
    room->keys = cap;
    m->key_t[m->nkeys] = t;
    m->key_x[m->nkeys] = x;
    return (long)m->nkeys++;
}

long model_add_event(struct model *m, const struct event *e)
{
    struct model_capacity *room = capacity(m);
    if (!room || grow((void **)&m->events, sizeof *m->events, m->nevents, &room->events))
        return -1;
    m->events[m->nevents] = *e;
    return (long)m->nevents++;
}

long model_add_body(struct model *m, const char *name, enum body_type type)
{
    struct model_capacity *room = capacity(m);
    if (!room || grow((void **)&m->bodies, sizeof *m->bodies, m->nbodies, &room->bodies))
        return -1;
    char *copy = dup_or_null(name);
    if (name && !copy)
        return -1;
    m->bodies[m->nbodies] = (struct body){.name = copy, .type = type};
    return (long)m->nbodies++;
}

void model_destroy(struct model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->npoints; i++)
        free(m->point_name[i]);
    for (size_t i = 0; i < m->nbodies; i++)
        free(m->bodies[i].name);
    free(m->x0);
    free(m->v0);
    free(m->inv_mass);
    free(m->mass);
    free(m->radius);
    free(m->point_name);
    free(m->links);
    free(m->angles);
    free(m->areas);
    free(m->area_index);
    free(m->shapes);
    free(m->shape_index);
    free(m->shape_rest);
    free(m->attachments);
    free(m->faces);
    free(m->pins);
    free(m->bodies);
    free(m->obstacles);
    free(m->key_t);
    free(m->key_x);
    free(m->events);
    free(m->capacity);
    free(m);
}

const char *model_point_label(const struct model *m, size_t i, char *buf, size_t size)
{
    if (i < m->npoints && m->point_name[i])
        return m->point_name[i];
    for (size_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        if (i >= bd->first_point && i < (size_t)bd->first_point + bd->npoints) {
            snprintf(buf, size, "%s.%zu", bd->name, i - bd->first_point);
            return buf;
        }
    }
    snprintf(buf, size, "%zu", i);
    return buf;
}

/* The substep, s. */
static double substep(const struct model *m)
{
    return m->dt / (m->substeps > 0 ? m->substeps : 1);
}

double model_damping_of_rate(const struct model *m, double rate)
{
    return exp(-rate * (m->method == METHOD_VERLET ? substep(m) : 1.0));
}

double model_damping_rate(const struct model *m, double damping)
{
    const double rate = -log(damping) / (m->method == METHOD_VERLET ? substep(m) : 1.0);
    return rate == 0 ? 0 : rate; /* no -0 for damping 1 */
}

int model_body_hangs(const struct model *m, const struct body *b)
{
    return b->type == BODY_ROPE && b->npoints >= 3 && m->inv_mass[b->first_point] == 0.0 &&
           m->inv_mass[b->first_point + b->npoints - 1] == 0.0;
}

const char *model_method_name(enum solver_method method)
{
    switch (method) {
    case METHOD_VERLET:
        return "verlet";
    case METHOD_PBD:
        return "pbd";
    case METHOD_XPBD:
        return "xpbd";
    }
    return "?";
}

const char *model_order_name(enum solver_order order)
{
    switch (order) {
    case ORDER_FORWARD:
        return "forward";
    case ORDER_ALTERNATE:
        return "alternate";
    case ORDER_COLORED:
        return "colored";
    }
    return "?";
}
