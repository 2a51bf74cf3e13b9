/* Private to the renderer (render_*.c): the camera, the per-run scene with its scratch arrays,
 * and one frame's input. A scene is built once per run, so drawing a frame allocates nothing
 * (libpng aside). */
#ifndef CATENA_RENDER_INTERNAL_H
#define CATENA_RENDER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "gfx/legend.h"
#include "gfx/raster.h"
#include "render/render.h"
#include "io/topology.h"

/* Orthographic: a point's image position is its coordinates along right and up, scaled;
 * depth along back (towards the viewer) orders 3D drawing. 2D: right = x, up = y. */
struct render_camera {
    int width, height;    /* px */
    vec3 right, up, back; /* orthonormal view basis */
    double cu, cv;        /* view-plane coordinates at the image's centre, m */
    double scale;         /* px per m */
};

/* The view basis for m and o: 2D looks down z; 3D takes "up" against gravity (y when there is
 * none), turns by yaw about it and tilts by pitch. */
void render_camera_basis(struct render_camera *c, const struct model *m,
                         const struct render_opts *o);

static inline double render_camera_u(const struct render_camera *c, vec3 p)
{
    return v3_dot(p, c->right);
}

static inline double render_camera_v(const struct render_camera *c, vec3 p)
{
    return v3_dot(p, c->up);
}

/* Pixel coordinates of p (pixel centres at integers, y down). */
static inline void render_camera_project(const struct render_camera *c, vec3 p, double *x,
                                         double *y)
{
    *x = 0.5 * (c->width - 1) + (render_camera_u(c, p) - c->cu) * c->scale;
    *y = 0.5 * (c->height - 1) - (render_camera_v(c, p) - c->cv) * c->scale;
}

/* An extent in view-plane coordinates, m; empty while u0 > u1. */
struct render_box {
    double u0, u1, v0, v1;
};

struct render_box render_box_empty(void);

/* Grows b to hold the disc of radius r at (u, v); non-finite values are skipped. */
void render_box_add(struct render_box *b, double u, double v, double r);

/* A rectangle of the image, px. */
struct render_area {
    int x, y, w, h;
};

/* Centres b in area with pad px to spare on every side (an empty or degenerate box gets a
 * 1 m view). */
void render_camera_fit(struct render_camera *c, const struct render_box *b, struct render_area area,
                       double pad);

/* Puts center in the middle of the image, width metres across it. */
void render_camera_view(struct render_camera *c, vec3 center, double width);

/* What is drawn in 3D, sorted far to near (painter's algorithm). */
enum render_item_kind {
    ITEM_OBSTACLE,
    ITEM_AREA,
    ITEM_FACE,
    ITEM_LINK,
    ITEM_POINT,
};

struct render_item {
    double depth;  /* along the camera's back vector: larger is nearer */
    uint32_t kind; /* enum render_item_kind; at equal depth the lower kind is drawn first */
    uint32_t index;
};

/* The overlay's layout: text scale, legend, scale bar. */
struct render_overlay {
    int text_scale;
    int legend; /* 1 when color_by shows values */
    struct legend_def legend_def;
    struct render_area fit; /* where the fitted scene goes, clear of the overlay */
};

/* Everything one run's frames share, and their scratch arrays. */
struct render_scene {
    const struct model *m;
    const struct render_opts *o;
    const char *title; /* the scenario's name, written over every frame; NULL: none */
    long every;        /* output.every: frame i of a trajectory without steps is step i every */
    struct render_camera cam;
    struct render_overlay ov;
    double lo, hi;           /* colour map range, in the unit of color_by */
    vec3 world_lo, world_hi; /* the moving points' bounding box over the run, m */

    /* static, per run */
    struct raster_color *body_color; /* [nbodies] */
    int32_t *point_body;             /* [npoints] body index, -1 for points[] */
    int32_t *link_body;              /* [nlinks] body index, -1 for links[] */
    uint8_t *body_faced;             /* [nbodies] 1: drawn as its faces */
    uint8_t *link_drawn;             /* [nlinks] render_link_drawn, worked out once */
    int32_t *face_link;              /* [3 nfaces] the link on each edge, -1 if none */
    uint8_t *mesh_edge;              /* [nlinks] 1: the link is on some face's edge */
    uint8_t *face_live;              /* [nfaces] 1 while the links on its edges are live and
                                        still join its corners (render_scene_advance) */
    uint8_t *link_rim;               /* [nlinks] 1: drawn as a mesh's outline, on at most one
                                        live face: its rim, the edges a cut or break opened,
                                        and the halves of a cut link */
    int32_t *edge_face;              /* [nlinks] for a link on exactly one live face: that
                                        face; -1 otherwise */
    uint8_t *point_used;             /* [npoints] 0 for points reserved for cuts and not yet
                                        joined by a live link: neither drawn nor framed */
    struct topology topo;            /* links, live flags and pins at the current step */
    unsigned topo_seen;              /* topo.changed when point_used was last worked out */

    /* per frame */
    double *sx;                    /* [2 npoints] pixel coordinates */
    double *depth;                 /* [npoints] along cam.back */
    double *lval;                  /* [nlinks] link values */
    double *pval;                  /* [npoints] point values (faces' vertex colours) */
    struct raster_color *pcol;     /* [npoints] their colours */
    uint32_t *pcount;              /* [npoints] links summed into pval */
    struct render_item *items;     /* [nitems_max] */
    struct render_item *items_tmp; /* [nitems_max] the sort's other buffer */
    size_t nitems_max;
};

/* One frame to draw. */
struct render_frame {
    const vec3 *x; /* [npoints] positions, m */
    const vec3 *v; /* [npoints] velocities, m/s */
    double time;   /* s, shown in the overlay */
    double step;   /* step position (fractional between recorded steps) */
};

/* Builds the scene for the scenario's model and o (camera and range are set by the caller).
 * NULL with err set on OOM. */
struct render_scene *render_scene_create(const struct scenario *scn, const struct render_opts *o,
                                         struct catena_error *err);

/* Starts a pass over the run src: the topology back at the start of the run. */
int render_scene_rewind(struct render_scene *sc, struct rundir *src, struct catena_error *err);

/* Moves the topology on to step position step (point_used, face_live, link_rim, edge_face
 * and link_drawn follow). */
int render_scene_advance(struct render_scene *sc, double step, struct catena_error *err);

void render_scene_destroy(struct render_scene *sc);

/* ---- render.json (render/output.c) ---- */

/* Starts render.json in out_dir (the caller holds its lock) for nframes frames drawn from
 * src, and the contact sheet when sheet is 1: the previous render's files go. */
int render_output_begin(struct rundir_writer *w, const char *out_dir, const struct rundir *src,
                        long nframes, int sheet, struct catena_error *err);

/* Writes the final render.json: status ("ok", "interrupted", "failed"), the frames drawn,
 * error (NULL unless failed), and the files committed. */
int render_output_finish(struct rundir_writer *w, const struct rundir *src, const char *status,
                         long frames, const char *error, struct catena_error *err);

/* Lays out the overlay for the frame size and colour range (after lo and hi are set, before
 * the camera is fitted into ov.fit). */
void render_overlay_layout(struct render_scene *sc);

/* Draws f into r (of the camera's size). */
void render_scene_draw(struct render_scene *sc, struct raster *r, const struct render_frame *f);

/* Whether link i is drawn as a line (when live): not a bend link, and in a body drawn as
 * faces only as the mesh's outline (link_rim). */
int render_link_drawn(const struct render_scene *sc, size_t i);

/* The value color_by shows for link i as the topology has it now (render/values.c); v may
 * be NULL except for speed. */
double render_link_value(const struct render_scene *sc, size_t i, const vec3 *x, const vec3 *v);

/* A legend title for color_by, with its unit. */
const char *render_value_title(enum render_color_by by);

/* Obstacles (render/obstacles.c): grows b (the points' extent over the run, whose world box
 * is world_lo..world_hi) by the obstacles near it and a strip of a floor under it; draws obstacle
 * i; planes and bounds are drawn behind everything, the others at their centre's depth. */
void render_obstacles_frame(const struct render_scene *sc, struct render_box *b);
void render_draw_obstacle(const struct render_scene *sc, struct raster *r, size_t i);
int render_obstacle_behind(const struct render_scene *sc, size_t i);
double render_obstacle_depth(const struct render_scene *sc, size_t i);

/* A contact sheet being filled frame by frame (render/sheet.c). */
struct render_sheet;

/* A sheet for ntiles frames of fw x fh pixels; NULL with err set on failure. */
struct render_sheet *render_sheet_create(const struct render_sheet_opts *o, int ntiles, int fw,
                                         int fh, struct catena_error *err);

/* Shrinks frame into tile i, labelled with label. */
void render_sheet_add(struct render_sheet *s, int i, const struct raster *frame, const char *label);

/* Writes DIR/contact-sheet.png. */
int render_sheet_write(const struct render_sheet *s, const char *dir, int level,
                       struct catena_error *err);

void render_sheet_destroy(struct render_sheet *s);

/* Which frame tile i of ntiles shows, out of nframes evenly spaced. */
long render_sheet_frame(int i, int ntiles, long nframes);

#endif
