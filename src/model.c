/* Model construction and teardown. Arrays grow geometrically while a scenario is built
 * and never change afterwards. */
#include "model.h"

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
    m->order = ORDER_ALTERNATE;
    m->damping = 1.0;
    m->gravity = v3(0, -9.81, 0);
    m->formats = FORMAT_CSV;
    m->every = 1;
    return m;
}

/* Grows *arr (of elements of size elem) so that index n fits; cap is the capacity. */
static int grow(void **arr, size_t elem, size_t n, size_t *cap)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
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

long model_add_point(struct model *m, vec3 x, vec3 v, double mass, double radius,
                     const char *name)
{
    size_t n = m->npoints, cap = m->point_cap;
    if (n >= cap) {
        size_t c = cap;
        if (grow((void **)&m->x0, sizeof *m->x0, n, &c) ||
            (c = cap, grow((void **)&m->v0, sizeof *m->v0, n, &c)) ||
            (c = cap, grow((void **)&m->inv_mass, sizeof *m->inv_mass, n, &c)) ||
            (c = cap, grow((void **)&m->mass, sizeof *m->mass, n, &c)) ||
            (c = cap, grow((void **)&m->radius, sizeof *m->radius, n, &c)) ||
            (c = cap, grow((void **)&m->point_name, sizeof *m->point_name, n, &c)))
            return -1;
        m->point_cap = c;
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
    if (grow((void **)&m->links, sizeof *m->links, m->nlinks, &m->link_cap))
        return -1;
    m->links[m->nlinks] = (struct link){.a = a, .b = b, .rest = rest, .stiffness = 1.0};
    return (long)m->nlinks++;
}

long model_add_pin(struct model *m, uint32_t point, vec3 at)
{
    if (grow((void **)&m->pins, sizeof *m->pins, m->npins, &m->pin_cap))
        return -1;
    m->pins[m->npins] = (struct pin){.point = point, .at = at};
    m->inv_mass[point] = 0.0;
    m->x0[point] = at;
    return (long)m->npins++;
}

long model_add_body(struct model *m, const char *name, enum body_type type)
{
    if (grow((void **)&m->bodies, sizeof *m->bodies, m->nbodies, &m->body_cap))
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
    free(m->name);
    free(m->source);
    free(m->x0);
    free(m->v0);
    free(m->inv_mass);
    free(m->mass);
    free(m->radius);
    free(m->point_name);
    free(m->links);
    free(m->pins);
    free(m->bodies);
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

const char *model_method_name(enum solver_method method)
{
    switch (method) {
    case METHOD_VERLET:
        return "verlet";
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
    }
    return "?";
}
