/* A deep copy of a model (model_clone in model/model.h): every array and string copied, so
 * that what a run changes in its copy (events: links, masses, radii, pins, world and solver
 * parameters) can never reach the scenario's model through a shared pointer. Each array of
 * struct model appears here as in model_destroy; a test changes every array of a clone and
 * checks the original (tests/check_solver.c). */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* A copy of n elements of size bytes (at least one byte allocated); NULL src copies to NULL. */
static void *dup_array(const void *src, size_t n, size_t size, int *oom)
{
    if (!src)
        return NULL;
    void *p = malloc(n ? n * size : 1);
    if (!p) {
        *oom = 1;
        return NULL;
    }
    if (n)
        memcpy(p, src, n * size);
    return p;
}

static char *dup_string(const char *s, int *oom)
{
    return s ? dup_array(s, strlen(s) + 1, 1, oom) : NULL;
}

static char **dup_strings(char *const *v, size_t n, int *oom)
{
    char **out = v ? calloc(n ? n : 1, sizeof *out) : NULL;
    if (v && !out)
        *oom = 1;
    for (size_t i = 0; out && i < n; i++)
        out[i] = dup_string(v[i], oom);
    return out;
}

struct model *model_clone(const struct model *m)
{
    struct model *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *m;
    int oom = 0;
    c->x0 = dup_array(m->x0, m->npoints, sizeof *m->x0, &oom);
    c->v0 = dup_array(m->v0, m->npoints, sizeof *m->v0, &oom);
    c->inv_mass = dup_array(m->inv_mass, m->npoints, sizeof *m->inv_mass, &oom);
    c->mass = dup_array(m->mass, m->npoints, sizeof *m->mass, &oom);
    c->radius = dup_array(m->radius, m->npoints, sizeof *m->radius, &oom);
    c->point_name = dup_strings(m->point_name, m->npoints, &oom);
    c->links = dup_array(m->links, m->nlinks, sizeof *m->links, &oom);
    c->angles = dup_array(m->angles, m->nangles, sizeof *m->angles, &oom);
    c->areas = dup_array(m->areas, m->nareas, sizeof *m->areas, &oom);
    c->area_index = dup_array(m->area_index, m->narea_index, sizeof *m->area_index, &oom);
    c->shapes = dup_array(m->shapes, m->nshapes, sizeof *m->shapes, &oom);
    c->shape_index = dup_array(m->shape_index, m->nshape_index, sizeof *m->shape_index, &oom);
    c->shape_rest = dup_array(m->shape_rest, m->nshape_index, sizeof *m->shape_rest, &oom);
    c->attachments = dup_array(m->attachments, m->nattachments, sizeof *m->attachments, &oom);
    c->faces = dup_array(m->faces, m->nfaces, sizeof *m->faces, &oom);
    c->pins = dup_array(m->pins, m->npins, sizeof *m->pins, &oom);
    c->bodies = dup_array(m->bodies, m->nbodies, sizeof *m->bodies, &oom);
    for (size_t i = 0; c->bodies && i < m->nbodies; i++)
        c->bodies[i].name = dup_string(m->bodies[i].name, &oom);
    c->obstacles = dup_array(m->obstacles, m->nobstacles, sizeof *m->obstacles, &oom);
    c->key_t = dup_array(m->key_t, m->nkeys, sizeof *m->key_t, &oom);
    c->key_x = dup_array(m->key_x, m->nkeys, sizeof *m->key_x, &oom);
    c->events = dup_array(m->events, m->nevents, sizeof *m->events, &oom);
    /* The copy's arrays are exactly as long as their contents: no room is known, so an
     * append to the copy makes its own (model/model.c). */
    c->capacity = NULL;
    if (oom) {
        /* model_destroy walks these lists: none is walked that was not copied */
        c->npoints = c->point_name ? c->npoints : 0;
        c->nbodies = c->bodies ? c->nbodies : 0;
        model_destroy(c);
        return NULL;
    }
    return c;
}
