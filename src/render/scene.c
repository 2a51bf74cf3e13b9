/* The per-run scene: body colours, which body owns each point and link, which links border
 * each face (so a torn cloth loses the faces along the tear and is outlined along it), the
 * overlay's layout, and the scratch arrays frames are drawn with. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "render/internal.h"

/* Bodies without bodies[].color: distinct hues that stay readable on the light background and
 * for most colour-blind viewers (Okabe and Ito's palette, yellow dropped, plus brown and grey). */
static const uint32_t palette[] = {0x0072b2, 0xd55e00, 0x009e73, 0xcc79a7,
                                   0xe69f00, 0x56b4e9, 0x8c564b, 0x7f7f7f};
#define NPALETTE (sizeof palette / sizeof palette[0])

static struct raster_color rgb(uint32_t c)
{
    return (struct raster_color){(unsigned char)(c >> 16), (unsigned char)(c >> 8),
                                 (unsigned char)c, 255};
}

static void fill_bodies(struct render_scene *sc)
{
    const struct model *m = sc->m;
    for (size_t i = 0; i < m->npoints; i++)
        sc->point_body[i] = -1;
    for (size_t i = 0; i < m->nlinks; i++)
        sc->link_body[i] = -1;
    for (size_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        sc->body_color[b] = rgb(bd->color & BODY_COLOR_SET ? bd->color : palette[b % NPALETTE]);
        for (uint32_t k = 0; k < bd->npoints; k++)
            sc->point_body[bd->first_point + k] = (int32_t)b;
        for (uint32_t k = 0; k < bd->nlinks; k++)
            sc->link_body[bd->first_link + k] = (int32_t)b;
    }
    for (size_t f = 0; f < m->nfaces; f++)
        if (m->faces[f].body < m->nbodies)
            sc->body_faced[m->faces[f].body] = 1;
}

/* A link's end points as one sortable key, smaller index first. */
struct edge_key {
    uint64_t key;
    uint32_t link;
};

static uint64_t edge_of(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

static int cmp_edge(const void *x, const void *y)
{
    const struct edge_key *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->link < b->link ? -1 : a->link > b->link;
}

/* Links on the edge of some face: drawn only as an outline, where the mesh is open. */
static void find_mesh_edges(struct render_scene *sc)
{
    for (size_t k = 0; k < 3 * sc->m->nfaces; k++)
        if (sc->face_link[k] >= 0)
            sc->mesh_edge[sc->face_link[k]] = 1;
}

/* The first link (by index) on each face edge, found by binary search in the sorted edges. */
static int fill_face_links(struct render_scene *sc)
{
    const struct model *m = sc->m;
    if (m->nfaces == 0)
        return 0;
    struct edge_key *e = alloc_array(m->nlinks, sizeof *e);
    if (!e)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < m->nlinks; i++)
        if (m->links[i].role != ROLE_BEND)
            e[n++] = (struct edge_key){edge_of(m->links[i].a, m->links[i].b), (uint32_t)i};
    qsort(e, n, sizeof *e, cmp_edge);
    for (size_t f = 0; f < m->nfaces; f++) {
        const uint32_t *v = m->faces[f].v;
        for (int k = 0; k < 3; k++) {
            const uint64_t key = edge_of(v[k], v[(k + 1) % 3]);
            size_t lo = 0, hi = n;
            while (lo < hi) {
                const size_t mid = lo + (hi - lo) / 2;
                if (e[mid].key < key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            sc->face_link[3 * f + k] = lo < n && e[lo].key == key ? (int32_t)e[lo].link : -1;
        }
    }
    free(e);
    return 0;
}

struct render_scene *render_scene_create(const struct scenario *scn, const struct render_opts *o,
                                         struct catena_error *err)
{
    const struct model *m = scn->model;
    struct render_scene *sc = calloc(1, sizeof *sc);
    if (!sc) {
        error_set(err, CATENA_EFAIL, "out of memory for the renderer");
        return NULL;
    }
    sc->m = m;
    sc->o = o;
    sc->title = scn->provenance.name;
    sc->every = scn->output.every;
    sc->nitems_max = m->nobstacles + m->nfaces + m->nareas + m->nlinks + m->npoints;
    sc->body_color = alloc_array(m->nbodies, sizeof *sc->body_color);
    sc->point_body = alloc_array(m->npoints, sizeof *sc->point_body);
    sc->link_body = alloc_array(m->nlinks, sizeof *sc->link_body);
    sc->body_faced = alloc_array(m->nbodies, sizeof *sc->body_faced);
    sc->face_link = alloc_array(3 * m->nfaces, sizeof *sc->face_link);
    sc->edge_face = alloc_array(m->nlinks, sizeof *sc->edge_face);
    sc->mesh_edge = alloc_array(m->nlinks, sizeof *sc->mesh_edge);
    sc->link_rim = alloc_array(m->nlinks, sizeof *sc->link_rim);
    sc->face_live = alloc_array(m->nfaces, sizeof *sc->face_live);
    sc->sx = alloc_array(2 * m->npoints, sizeof *sc->sx);
    sc->depth = alloc_array(m->npoints, sizeof *sc->depth);
    sc->lval = alloc_array(m->nlinks, sizeof *sc->lval);
    sc->pval = alloc_array(m->npoints, sizeof *sc->pval);
    sc->pcol = alloc_array(m->npoints, sizeof *sc->pcol);
    sc->link_drawn = alloc_array(m->nlinks, sizeof *sc->link_drawn);
    sc->pcount = alloc_array(m->npoints, sizeof *sc->pcount);
    sc->items = alloc_array(sc->nitems_max, sizeof *sc->items);
    sc->items_tmp = alloc_array(sc->nitems_max, sizeof *sc->items_tmp);
    sc->point_used = alloc_array(m->npoints, sizeof *sc->point_used);
    if (!sc->body_color || !sc->point_body || !sc->link_body || !sc->body_faced || !sc->face_link ||
        !sc->edge_face || !sc->sx || !sc->depth || !sc->lval || !sc->pval || !sc->pcol ||
        !sc->link_drawn || !sc->pcount || !sc->items || !sc->items_tmp || !sc->point_used ||
        !sc->mesh_edge || !sc->link_rim || !sc->face_live)
        goto fail;
    fill_bodies(sc);
    if (fill_face_links(sc))
        goto fail;
    find_mesh_edges(sc);
    render_camera_basis(&sc->cam, m, o);
    sc->lo = 0;
    sc->hi = 1;
    return sc;
fail:
    render_scene_destroy(sc);
    error_set(err, CATENA_EFAIL, "out of memory for the renderer");
    return NULL;
}

void render_scene_destroy(struct render_scene *sc)
{
    if (!sc)
        return;
    free(sc->body_color);
    free(sc->point_body);
    free(sc->link_body);
    free(sc->body_faced);
    free(sc->face_link);
    free(sc->edge_face);
    free(sc->mesh_edge);
    free(sc->link_rim);
    free(sc->face_live);
    free(sc->point_used);
    topology_close(&sc->topo);
    free(sc->sx);
    free(sc->depth);
    free(sc->lval);
    free(sc->pval);
    free(sc->pcol);
    free(sc->link_drawn);
    free(sc->pcount);
    free(sc->items);
    free(sc->items_tmp);
    free(sc);
}

int render_link_drawn(const struct render_scene *sc, size_t i)
{
    return sc->link_drawn[i];
}

/* A face shows while the links on its edges are live and still join its corners: a break
 * or a cut through an edge opens the cloth there. */
static int face_whole(const struct render_scene *sc, size_t f)
{
    const uint32_t *v = sc->m->faces[f].v;
    for (int k = 0; k < 3; k++) {
        const int32_t i = sc->face_link[3 * f + k];
        if (i < 0)
            continue;
        const struct link *l = &sc->topo.links[i];
        const uint32_t p = v[k], q = v[(k + 1) % 3];
        if (!sc->topo.alive[i] || !((l->a == p && l->b == q) || (l->a == q && l->b == p)))
            return 0;
    }
    return 1;
}

/* The faces still whole, and which links of bodies drawn as faces are outlined: the mesh
 * edges and cut links' far halves on at most one live face, so the rim, the edges a cut or
 * a break opens, and the dangling halves of a cut link all get the rim's line. */
static void follow_faces(struct render_scene *sc)
{
    const struct model *m = sc->m;
    const size_t r0 = m->first_reserved_link, r1 = r0 + m->nreserved_links;
    for (size_t i = 0; i < m->nlinks; i++)
        sc->edge_face[i] = -1;
    /* -1: on no live face yet; f >= 0: on face f only; -2: on two or more */
    for (size_t f = 0; f < m->nfaces; f++) {
        sc->face_live[f] = (uint8_t)face_whole(sc, f);
        for (int k = 0; sc->face_live[f] && k < 3; k++) {
            const int32_t l = sc->face_link[3 * f + k];
            if (l >= 0)
                sc->edge_face[l] = sc->edge_face[l] == -1 ? (int32_t)f : -2;
        }
    }
    for (size_t i = 0; i < m->nlinks; i++) {
        const int32_t b = sc->link_body[i];
        const int faced = b >= 0 && sc->body_faced[b];
        sc->link_rim[i] =
            (uint8_t)(faced && (sc->mesh_edge[i] || (i >= r0 && i < r1)) && sc->edge_face[i] != -2);
        if (sc->edge_face[i] == -2)
            sc->edge_face[i] = -1;
        sc->link_drawn[i] = sc->topo.links[i].role != ROLE_BEND && (!faced || sc->link_rim[i]);
    }
}

/* Points reserved for cuts wait somewhere until a cut joins them: only then are they shown
 * and framed, in the body of the point across their link. A link reserved for a cut takes
 * the body of the point it keeps (the far end of the link that was cut), so the far half
 * looks like the near one. */
static void follow_cuts(struct render_scene *sc)
{
    const struct model *m = sc->m;
    const size_t r0 = m->first_reserved_point, r1 = r0 + m->nreserved_points;
    for (size_t i = 0; i < m->npoints; i++)
        sc->point_used[i] = i < r0 || i >= r1;
    for (size_t i = r0; i < r1; i++)
        sc->point_body[i] = -1;
    for (size_t i = 0; r1 > r0 && i < m->nlinks; i++) {
        const uint32_t a = sc->topo.links[i].a, b = sc->topo.links[i].b;
        if (!sc->topo.alive[i])
            continue;
        sc->point_used[a] = sc->point_used[b] = 1;
        /* a new end takes the body of the point across its link */
        if (a >= r0 && a < r1 && (b < r0 || b >= r1))
            sc->point_body[a] = sc->point_body[b];
        if (b >= r0 && b < r1 && (a < r0 || a >= r1))
            sc->point_body[b] = sc->point_body[a];
    }
    for (size_t k = 0; k < m->nreserved_links; k++) {
        const size_t i = m->first_reserved_link + k;
        const struct link *l = &sc->topo.links[i];
        const int32_t b = l->b < r0 || l->b >= r1 ? sc->point_body[l->b] : sc->point_body[l->a];
        sc->link_body[i] = b;
    }
    follow_faces(sc);
    sc->topo_seen = sc->topo.changed;
}

int render_scene_rewind(struct render_scene *sc, struct rundir *src, struct catena_error *err)
{
    char *path = NULL;
    topology_close(&sc->topo);
    if (topology_can_change(sc->m) && !(path = rundir_path(src, "topology.csv", err)))
        return err->code;
    const int rc = topology_open(&sc->topo, sc->m, path, err);
    free(path);
    if (rc)
        return err->code;
    follow_cuts(sc);
    return CATENA_OK;
}

int render_scene_advance(struct render_scene *sc, double step, struct catena_error *err)
{
    if (topology_advance(&sc->topo, step, err))
        return err->code;
    if (sc->topo.changed != sc->topo_seen)
        follow_cuts(sc);
    return CATENA_OK;
}

/* Frames at least this tall get text at twice the font's size. */
#define BIG_TEXT_HEIGHT 400
#define MARGIN 6 /* px between the overlay and the image's edge */

/* A legend label: rounding noise next to a range's width shows as 0, not -2.44e-16. */
static double label_value(double v, double span)
{
    return fabs(v) < 1e-9 * span ? 0 : v;
}

void render_overlay_layout(struct render_scene *sc)
{
    const struct render_opts *o = sc->o;
    struct render_overlay *ov = &sc->ov;
    const int ts = o->height >= BIG_TEXT_HEIGHT ? 2 : 1;
    int bx = 0, by = 0, bw = 0, bh = 0;
    ov->text_scale = ts;
    ov->legend = o->color_by != RENDER_BY_NONE;
    ov->legend_def = legend_default();
    struct legend_def *d = &ov->legend_def;
    d->text_scale = ts;
    d->width = 8 * ts;
    d->height = o->height / 3;
    d->title = render_value_title(o->color_by);
    /* stretch is labelled as strain: "%.3g" shows 1.0002 as 1, but 0.0002 as it is */
    const double shift = o->color_by == RENDER_BY_STRETCH ? 1 : 0;
    d->min = label_value(sc->lo - shift, sc->hi - sc->lo);
    d->max = label_value(sc->hi - shift, sc->hi - sc->lo);
    legend_bounds(d, &bx, &by, &bw, &bh);
    d->x = o->width - MARGIN - bw - bx;
    d->y = MARGIN - by;
    /* the scene fits between the title line, the legend and the scale bar */
    const int top = MARGIN + (RASTER_FONT_LINE + 3) * ts + MARGIN;
    const int bottom = MARGIN + (RASTER_FONT_LINE + 7) * ts + MARGIN;
    const int right = ov->legend ? MARGIN + bw + MARGIN : MARGIN;
    ov->fit =
        (struct render_area){MARGIN, top, o->width - MARGIN - right, o->height - top - bottom};
    if (ov->fit.w < o->width / 2 || ov->fit.h < o->height / 2)
        ov->fit = (struct render_area){0, 0, o->width, o->height};
}
