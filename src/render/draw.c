/* One frame: project the points, work out the colour values, then draw back to front: in 2D
 * by layers (area fills, faces, links, points, pin marks), in 3D every face, link and point
 * sorted by depth (painter's algorithm, ties broken by kind and index so the order is
 * deterministic), faces shaded by a light from the viewer's upper left; then the overlay
 * (title, legend, scale bar). One function per kind of thing drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/colormap.h"
#include "render/internal.h"

static const struct raster_color background = {250, 250, 247, 255};
static const struct raster_color neutral = {64, 64, 64, 255}; /* points[] and links[] */
static const struct raster_color pin_ink = {20, 20, 20, 255};
static const struct raster_color ink = {30, 30, 30, 255};
static const struct raster_color label_box = {255, 255, 255, 200};

#define PIN_GAP 2.5   /* px between a point's disc and its pin ring */
#define PIN_WIDTH 1.5 /* px, the ring's line */
#define AMBIENT 0.45  /* share of a face's colour that does not depend on the light */
#define RIM_SHADE 0.7 /* a mesh's outline against its faces */

static struct raster_color scale_color(struct raster_color c, double s)
{
    return (struct raster_color){(unsigned char)(c.r * s + 0.5), (unsigned char)(c.g * s + 0.5),
                                 (unsigned char)(c.b * s + 0.5), c.a};
}

/* Halfway to white: a flat 2D surface under its own darker outline. */
static struct raster_color lighten(struct raster_color c)
{
    return (struct raster_color){(unsigned char)((c.r + 255) / 2), (unsigned char)((c.g + 255) / 2),
                                 (unsigned char)((c.b + 255) / 2), c.a};
}

static struct raster_color value_color(const struct render_scene *sc, double v)
{
    return colormap_color(&colormap_viridis, (v - sc->lo) / (sc->hi - sc->lo));
}

static struct raster_color body_color(const struct render_scene *sc, int32_t b)
{
    return b >= 0 ? sc->body_color[b] : neutral;
}

/* ---- per frame values ---- */

static void project(struct render_scene *sc, const struct render_frame *f)
{
    const struct render_camera *c = &sc->cam;
    for (size_t i = 0; i < sc->m->npoints; i++) {
        render_camera_project(c, f->x[i], &sc->sx[2 * i], &sc->sx[2 * i + 1]);
        sc->depth[i] = v3_dot(f->x[i], c->back);
    }
}

/* Link values where they are drawn or feed a face's vertex colours; point values for faces:
 * the mean of the live links at the point, or its own speed. */
static void compute_values(struct render_scene *sc, const struct render_frame *f)
{
    const struct model *m = sc->m;
    const enum render_color_by by = sc->o->color_by;
    if (by == RENDER_BY_NONE)
        return;
    for (size_t i = 0; i < m->npoints; i++) {
        sc->pval[i] = by == RENDER_BY_SPEED ? v3_len(f->v[i]) : 0;
        sc->pcount[i] = 0;
    }
    for (size_t i = 0; i < m->nlinks; i++) {
        const struct link *l = &sc->topo.links[i];
        if (l->role == ROLE_BEND || !sc->topo.alive[i])
            continue;
        const double v = render_link_value(sc, i, f->x, f->v);
        sc->lval[i] = v;
        const int32_t b = sc->link_body[i];
        if (by != RENDER_BY_SPEED && b >= 0 && sc->body_faced[b]) {
            sc->pval[l->a] += v;
            sc->pval[l->b] += v;
            sc->pcount[l->a]++;
            sc->pcount[l->b]++;
        }
    }
    for (size_t i = 0; i < m->npoints; i++) {
        if (by != RENDER_BY_SPEED && sc->pcount[i])
            sc->pval[i] /= sc->pcount[i];
        sc->pcol[i] = value_color(sc, sc->pval[i]); /* once a point, not once a face corner */
    }
}

/* ---- things ---- */

/* Shading of a two-sided face: ambient plus diffuse from a light near the viewer. */
static double face_light(const struct render_scene *sc, const vec3 *x, const uint32_t *v)
{
    const struct render_camera *c = &sc->cam;
    const vec3 n = v3_cross(v3_sub(x[v[1]], x[v[0]]), v3_sub(x[v[2]], x[v[0]]));
    const double len = v3_len(n);
    if (!(len > 0))
        return 1;
    /* from the upper left and in front: (-0.3, 0.5, 1) in view coordinates */
    const vec3 light = v3_add(v3_add(v3_scale(c->right, -0.3), v3_scale(c->up, 0.5)), c->back);
    return AMBIENT + (1 - AMBIENT) * fabs(v3_dot(n, light)) / (len * v3_len(light));
}

static void draw_face(struct render_scene *sc, struct raster *r, const struct render_frame *f,
                      size_t i)
{
    const struct face *fc = &sc->m->faces[i];
    const int32_t b = (int32_t)fc->body;
    const double light = sc->m->dims == 3 ? face_light(sc, f->x, fc->v) : 1;
    struct raster_color c[3];
    double xy[6];
    for (int k = 0; k < 3; k++) {
        const uint32_t p = fc->v[k];
        const int valued = sc->o->color_by != RENDER_BY_NONE &&
                           (sc->o->color_by == RENDER_BY_SPEED || sc->pcount[p] > 0);
        struct raster_color base = valued ? sc->pcol[p] : body_color(sc, b);
        if (!valued && sc->m->dims == 2)
            base = lighten(base);
        c[k] = scale_color(base, light);
        xy[2 * k] = sc->sx[2 * p];
        xy[2 * k + 1] = sc->sx[2 * p + 1];
    }
    raster_triangle(r, xy, c, 0);
}

/* A 2D area (soft body ring) without faces: a fan from its centroid, which covers a
 * star-shaped outline exactly. */
static void draw_area(struct render_scene *sc, struct raster *r, size_t i)
{
    const struct area *a = &sc->m->areas[i];
    const uint32_t *idx = sc->m->area_index + a->first;
    if (a->is_volume || a->count < 3)
        return;
    double cx = 0, cy = 0;
    for (uint32_t k = 0; k < a->count; k++) {
        cx += sc->sx[2 * idx[k]];
        cy += sc->sx[2 * idx[k] + 1];
    }
    cx /= a->count;
    cy /= a->count;
    const struct raster_color c = lighten(body_color(sc, sc->point_body[idx[0]]));
    const struct raster_color cs[3] = {c, c, c};
    for (uint32_t k = 0; k < a->count; k++) {
        const uint32_t p = idx[k], q = idx[(k + 1) % a->count];
        const double xy[6] = {
            cx, cy, sc->sx[2 * p], sc->sx[2 * p + 1], sc->sx[2 * q], sc->sx[2 * q + 1]};
        raster_triangle(r, xy, cs, 0);
    }
}

static void draw_link(struct render_scene *sc, struct raster *r, size_t i)
{
    const struct link *l = &sc->topo.links[i];
    struct raster_color c = sc->o->color_by != RENDER_BY_NONE ? value_color(sc, sc->lval[i])
                                                              : body_color(sc, sc->link_body[i]);
    if (sc->link_rim[i] || sc->edge_face[i] >= 0)
        c = scale_color(c, RIM_SHADE); /* a mesh's outline, darker than its faces */
    raster_line(r, sc->sx[2 * l->a], sc->sx[2 * l->a + 1], sc->sx[2 * l->b], sc->sx[2 * l->b + 1],
                sc->o->line_width, RASTER_CAP_ROUND, c);
}

/* Disc radius in px of point i: point_radius, or the point's own radius when that is larger;
 * 0 when it gets none (point_radius 0, points of faced bodies). */
static double disc_radius(const struct render_scene *sc, size_t i)
{
    const int32_t b = sc->point_body[i];
    if (b >= 0 && sc->body_faced[b])
        return 0;
    const double own = sc->topo.radius[i] * sc->cam.scale; /* the point's own size, now */
    if (sc->o->point_world)
        return fmax(own, 0.5 * sc->o->line_width);
    return sc->o->point_radius > 0 ? fmax(own, sc->o->point_radius) : 0;
}

static int point_drawn(const struct render_scene *sc, size_t i)
{
    return sc->point_used[i] && (disc_radius(sc, i) > 0 || sc->topo.inv_mass[i] == 0);
}

static void draw_point(struct render_scene *sc, struct raster *r, const struct render_frame *f,
                       size_t i)
{
    const double rad = disc_radius(sc, i), x = sc->sx[2 * i], y = sc->sx[2 * i + 1];
    if (rad > 0) {
        const struct raster_color c = sc->o->color_by == RENDER_BY_SPEED
                                          ? value_color(sc, v3_len(f->v[i]))
                                          : scale_color(body_color(sc, sc->point_body[i]), 0.6);
        raster_disc(r, x, y, rad, c);
    }
    if (sc->topo.inv_mass[i] == 0) /* held */
        raster_ring(r, x, y, fmax(rad, 0.5 * sc->o->line_width) + PIN_GAP + 0.5 * PIN_WIDTH,
                    PIN_WIDTH, pin_ink);
}

/* ---- ordering ---- */

static void draw_item(struct render_scene *sc, struct raster *r, const struct render_frame *f,
                      const struct render_item *it)
{
    switch ((enum render_item_kind)it->kind) {
    case ITEM_OBSTACLE:
        render_draw_obstacle(sc, r, it->index);
        break;
    case ITEM_FACE:
        draw_face(sc, r, f, it->index);
        break;
    case ITEM_AREA:
        draw_area(sc, r, it->index);
        break;
    case ITEM_LINK:
        draw_link(sc, r, it->index);
        break;
    case ITEM_POINT:
        draw_point(sc, r, f, it->index);
        break;
    }
}

/* The bits of d as an unsigned number in the same order as d (negative values reversed). */
static uint64_t depth_key(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

/* Sorts items by depth, far first, keeping the order of equal depths: a stable least
 * significant digit radix sort, a byte a pass, skipping bytes all keys share. Items arrive
 * in kind and index order, so ties keep that order and the result is deterministic. */
static void sort_items(struct render_item *it, struct render_item *tmp, size_t n)
{
    for (int shift = 0; shift < 64; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(depth_key(it[i].depth) >> shift & 0xff) + 1]++;
        if (n == 0 || count[(depth_key(it[0].depth) >> shift & 0xff) + 1] == n)
            continue;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            tmp[count[depth_key(it[i].depth) >> shift & 0xff]++] = it[i];
        memcpy(it, tmp, n * sizeof *it);
    }
}

/* Everything visible in this frame, in layer order; depths filled for 3D. */
static size_t collect_items(struct render_scene *sc)
{
    const struct model *m = sc->m;
    const double *d = sc->depth;
    struct render_item *it = sc->items;
    size_t n = 0;
    for (size_t i = 0; i < m->nobstacles; i++)
        if (!render_obstacle_behind(sc, i))
            it[n++] =
                (struct render_item){render_obstacle_depth(sc, i), ITEM_OBSTACLE, (uint32_t)i};
    for (size_t i = 0; m->dims == 2 && i < m->nareas; i++) {
        const int32_t b = sc->point_body[m->area_index[m->areas[i].first]];
        if (!(b >= 0 && sc->body_faced[b]))
            it[n++] = (struct render_item){0, ITEM_AREA, (uint32_t)i};
    }
    for (size_t i = 0; i < m->nfaces; i++) {
        const uint32_t *v = m->faces[i].v;
        if (sc->face_live[i])
            it[n++] =
                (struct render_item){(d[v[0]] + d[v[1]] + d[v[2]]) / 3, ITEM_FACE, (uint32_t)i};
    }
    for (size_t i = 0; i < m->nlinks; i++) {
        const struct link *l = &sc->topo.links[i];
        if (!render_link_drawn(sc, i) || !sc->topo.alive[i])
            continue;
        double depth = 0.5 * (d[l->a] + d[l->b]);
        const int32_t f = sc->edge_face[i];
        if (f >= 0) { /* a rim link goes over its face, which may lean towards the viewer */
            const uint32_t *v = m->faces[f].v;
            depth = fmax(depth, (d[v[0]] + d[v[1]] + d[v[2]]) / 3);
        }
        it[n++] = (struct render_item){depth, ITEM_LINK, (uint32_t)i};
    }
    for (size_t i = 0; i < m->npoints; i++)
        if (point_drawn(sc, i))
            it[n++] = (struct render_item){d[i], ITEM_POINT, (uint32_t)i};
    return n;
}

/* ---- overlay ---- */

/* The largest 1, 2 or 5 times a power of ten not above x. */
static double nice_length(double x)
{
    const double p = pow(10, floor(log10(x))), f = x / p;
    return (f >= 5 ? 5 : f >= 2 ? 2 : 1) * p;
}

static void draw_overlay(struct render_scene *sc, struct raster *r, const struct render_frame *f)
{
    const struct render_overlay *ov = &sc->ov;
    const int ts = ov->text_scale;
    char text[512];
    snprintf(text, sizeof text, "%s  t = %.3f s  step %ld", sc->title ? sc->title : "", f->time,
             (long)floor(f->step + 1e-9));
    raster_text(r, 6, 6, text, ts, ink, label_box);
    if (ov->legend) {
        legend_draw(r, &ov->legend_def);
    }
    const double len = nice_length(0.25 * sc->o->width / sc->cam.scale);
    if (!isfinite(len) || len <= 0)
        return;
    snprintf(text, sizeof text, "%g m", len);
    legend_scale_bar(r, 6 + 2 * ts, sc->o->height - 6 - 2 * ts, (int)lround(len * sc->cam.scale),
                     text, ts, ink, label_box);
}

void render_scene_draw(struct render_scene *sc, struct raster *r, const struct render_frame *f)
{
    raster_clear(r, background);
    for (size_t i = 0; i < sc->m->nobstacles; i++)
        if (render_obstacle_behind(sc, i))
            render_draw_obstacle(sc, r, i);
    project(sc, f);
    compute_values(sc, f);
    const size_t n = collect_items(sc);
    if (sc->m->dims == 3)
        sort_items(sc->items, sc->items_tmp, n);
    for (size_t i = 0; i < n; i++)
        draw_item(sc, r, f, &sc->items[i]);
    draw_overlay(sc, r, f);
}
