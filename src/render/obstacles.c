/* Obstacles as the camera sees them, one function per kind: a plane is a shaded half-plane in
 * 2D and a shaded patch under the scene in 3D (orthographic, an infinite plane would fill
 * the image); a sphere is a disc; a box a polygon (2D) or its visible faces, shaded (3D); a
 * capsule a thick round-capped line; bounds shade what lies outside them (2D) or show their
 * edges (3D). The camera frames obstacles near the moving points (render_obstacles_frame). */
#include <math.h>

#include "render/internal.h"

static const struct raster_color solid = {172, 178, 190, 255};   /* obstacle fill, cool grey */
static const struct raster_color outline = {100, 104, 112, 255}; /* and its edge */
static const struct raster_color ground = {232, 229, 219, 255};  /* planes, outside bounds */

#define OUTLINE 1.5 /* px */

/* Obstacle points in world space: axis k of a box's rotation. */
static vec3 box_axis(const struct obstacle *o, int k)
{
    return v3(o->rot[0][k], o->rot[1][k], o->rot[2][k]);
}

/* The corner of a box with signs s[k] = +-1 along its axes (z ignored in 2D). */
static vec3 box_corner(const struct obstacle *o, int dims, const int s[3])
{
    const double h[3] = {o->half.x, o->half.y, o->half.z};
    vec3 c = o->p;
    for (int k = 0; k < dims; k++)
        c = v3_add(c, v3_scale(box_axis(o, k), s[k] * h[k]));
    return c;
}

/* ---- framing ---- */

/* The obstacle's extent in view coordinates; 0 for a plane (unbounded). */
static int obstacle_box(const struct render_scene *sc, const struct obstacle *o,
                        struct render_box *b)
{
    const struct render_camera *c = &sc->cam;
    const int dims = sc->m->dims;
    *b = render_box_empty();
    switch ((enum obstacle_type)o->type) {
    case OBSTACLE_PLANE:
        return 0;
    case OBSTACLE_SPHERE:
        render_box_add(b, render_camera_u(c, o->p), render_camera_v(c, o->p), o->r);
        return 1;
    case OBSTACLE_CAPSULE:
        render_box_add(b, render_camera_u(c, o->p), render_camera_v(c, o->p), o->r);
        render_box_add(b, render_camera_u(c, o->q), render_camera_v(c, o->q), o->r);
        return 1;
    case OBSTACLE_BOX:
    case OBSTACLE_BOUNDS:
        for (int k = 0; k < (1 << dims); k++) {
            const int s[3] = {k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1};
            const vec3 p = box_corner(o, dims, s);
            render_box_add(b, render_camera_u(c, p), render_camera_v(c, p), 0);
        }
        return 1;
    }
    return 0;
}

/* A plane near the points (a floor they land on) is framed with a strip of ground: the
 * points' world box dropped onto the plane, and a tenth of the box's size into it. */
static void frame_plane(const struct render_scene *sc, const struct obstacle *o,
                        struct render_box *b)
{
    const vec3 lo = sc->world_lo, hi = sc->world_hi;
    const double size = v3_dist(lo, hi);
    const vec3 mid = v3_scale(v3_add(lo, hi), 0.5);
    if (!(size >= 0) || fabs(v3_dot(v3_sub(mid, o->p), o->n)) > size)
        return; /* no points, or a plane far from them */
    for (int k = 0; k < 8; k++) {
        const vec3 c = v3(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
        const double d = v3_dot(v3_sub(c, o->p), o->n) + 0.1 * size;
        const vec3 q = v3_sub(c, v3_scale(o->n, d));
        render_box_add(b, render_camera_u(&sc->cam, q), render_camera_v(&sc->cam, q), 0);
    }
}

void render_obstacles_frame(const struct render_scene *sc, struct render_box *b)
{
    if (!(b->u0 <= b->u1))
        return;
    /* obstacles within a quarter of the scene's size of it count as near; what reaches
     * further out is framed only that far */
    const double g = 0.25 * fmax(fmax(b->u1 - b->u0, b->v1 - b->v0), 1e-9);
    const struct render_box near = {b->u0 - g, b->u1 + g, b->v0 - g, b->v1 + g};
    for (size_t i = 0; i < sc->m->nobstacles; i++) {
        struct render_box ob;
        if (!obstacle_box(sc, &sc->m->obstacles[i], &ob) || ob.u0 > near.u1 || ob.u1 < near.u0 ||
            ob.v0 > near.v1 || ob.v1 < near.v0)
            continue;
        render_box_add(b, fmax(ob.u0, near.u0), fmax(ob.v0, near.v0), 0);
        render_box_add(b, fmin(ob.u1, near.u1), fmin(ob.v1, near.v1), 0);
    }
    for (size_t i = 0; i < sc->m->nobstacles; i++)
        if (sc->m->obstacles[i].type == OBSTACLE_PLANE)
            frame_plane(sc, &sc->m->obstacles[i], b);
}

/* ---- drawing ---- */

static void project(const struct render_scene *sc, vec3 p, double *x, double *y)
{
    render_camera_project(&sc->cam, p, x, y);
}

/* A world direction in pixels (y down). */
static void project_dir(const struct render_scene *sc, vec3 d, double *x, double *y)
{
    *x = v3_dot(d, sc->cam.right) * sc->cam.scale;
    *y = -v3_dot(d, sc->cam.up) * sc->cam.scale;
}

static struct raster_color shaded(struct raster_color c, double light)
{
    return (struct raster_color){(unsigned char)(c.r * light + 0.5),
                                 (unsigned char)(c.g * light + 0.5),
                                 (unsigned char)(c.b * light + 0.5), c.a};
}

/* Lambert shading of a surface with unit normal n under the faces' light. */
static double light_of(const struct render_scene *sc, vec3 n)
{
    const struct render_camera *c = &sc->cam;
    const vec3 l = v3_add(v3_add(v3_scale(c->right, -0.3), v3_scale(c->up, 0.5)), c->back);
    return 0.55 + 0.45 * fabs(v3_dot(n, l)) / v3_len(l);
}

static void draw_polygon(struct raster *r, const double *xy, int n, struct raster_color fill)
{
    raster_polygon(r, xy, n, fill);
    for (int k = 0; k < n; k++)
        raster_line(r, xy[2 * k], xy[2 * k + 1], xy[2 * ((k + 1) % n)], xy[2 * ((k + 1) % n) + 1],
                    OUTLINE, RASTER_CAP_ROUND, outline);
}

static void draw_plane(const struct render_scene *sc, struct raster *r, const struct obstacle *o)
{
    if (sc->m->dims == 2) {
        double x, y, nx, ny;
        project(sc, o->p, &x, &y);
        project_dir(sc, o->n, &nx, &ny);
        raster_halfplane(r, x, y, nx, ny, ground);
        /* the surface line: far enough along it to leave the image */
        const double len = 2.0 * (sc->cam.width + sc->cam.height), t = hypot(nx, ny);
        if (t > 0)
            raster_line(r, x - ny / t * len, y + nx / t * len, x + ny / t * len, y - nx / t * len,
                        OUTLINE, RASTER_CAP_BUTT, outline);
        return;
    }
    /* 3D: a square patch of the plane under the scene, twice the scene's size */
    if (!(sc->world_lo.x <= sc->world_hi.x))
        return; /* no point to put it under */
    const vec3 mid = v3_scale(v3_add(sc->world_lo, sc->world_hi), 0.5);
    const double half = fmax(v3_dist(sc->world_lo, sc->world_hi), 1e-9);
    const vec3 c = v3_sub(mid, v3_scale(o->n, v3_dot(v3_sub(mid, o->p), o->n)));
    const vec3 ref = fabs(o->n.x) < 0.9 ? v3(1, 0, 0) : v3(0, 1, 0);
    vec3 t1 = v3_cross(o->n, ref);
    t1 = v3_scale(t1, half / v3_len(t1));
    const vec3 t2 = v3_cross(o->n, t1);
    const vec3 q[4] = {v3_add(c, v3_add(t1, t2)), v3_add(c, v3_sub(t1, t2)),
                       v3_sub(c, v3_add(t1, t2)), v3_sub(c, v3_sub(t1, t2))};
    double xy[8];
    for (int k = 0; k < 4; k++)
        project(sc, q[k], &xy[2 * k], &xy[2 * k + 1]);
    draw_polygon(r, xy, 4, shaded(ground, 0.5 + 0.5 * light_of(sc, o->n)));
}

static void draw_sphere(const struct render_scene *sc, struct raster *r, const struct obstacle *o)
{
    double x, y;
    project(sc, o->p, &x, &y);
    const double rad = o->r * sc->cam.scale;
    raster_disc(r, x, y, rad, solid);
    raster_ring(r, x, y, rad - 0.5 * OUTLINE, OUTLINE, outline);
}

static void draw_capsule(const struct render_scene *sc, struct raster *r, const struct obstacle *o)
{
    double x0, y0, x1, y1;
    project(sc, o->p, &x0, &y0);
    project(sc, o->q, &x1, &y1);
    const double w = 2 * o->r * sc->cam.scale;
    raster_line(r, x0, y0, x1, y1, w, RASTER_CAP_ROUND, outline);
    raster_line(r, x0, y0, x1, y1, w - 2 * OUTLINE, RASTER_CAP_ROUND, solid);
}

/* The quad of a box's face along axis k, side s (+-1), as projected corners. */
static void box_face(const struct render_scene *sc, const struct obstacle *o, int k, int s,
                     double xy[8])
{
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    static const int order[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int c = 0; c < 4; c++) {
        int sg[3];
        sg[k] = s;
        sg[i] = order[c][0];
        sg[j] = order[c][1];
        project(sc, box_corner(o, 3, sg), &xy[2 * c], &xy[2 * c + 1]);
    }
}

static void draw_box(const struct render_scene *sc, struct raster *r, const struct obstacle *o)
{
    double xy[8];
    if (sc->m->dims == 2) {
        static const int sg[4][3] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
        for (int c = 0; c < 4; c++)
            project(sc, box_corner(o, 2, sg[c]), &xy[2 * c], &xy[2 * c + 1]);
        draw_polygon(r, xy, 4, solid);
        return;
    }
    /* the faces turned towards the viewer: a convex box shows no other */
    for (int k = 0; k < 3; k++)
        for (int s = -1; s <= 1; s += 2) {
            const vec3 n = v3_scale(box_axis(o, k), s);
            if (v3_dot(n, sc->cam.back) <= 0)
                continue;
            box_face(sc, o, k, s, xy);
            draw_polygon(r, xy, 4, shaded(solid, light_of(sc, n)));
        }
}

static void draw_bounds(const struct render_scene *sc, struct raster *r, const struct obstacle *o)
{
    if (sc->m->dims == 3) { /* the twelve edges */
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 4; c++) {
                int a[3], b[3];
                a[k] = -1;
                b[k] = 1;
                a[(k + 1) % 3] = b[(k + 1) % 3] = c & 1 ? 1 : -1;
                a[(k + 2) % 3] = b[(k + 2) % 3] = c & 2 ? 1 : -1;
                double x0, y0, x1, y1;
                project(sc, box_corner(o, 3, a), &x0, &y0);
                project(sc, box_corner(o, 3, b), &x1, &y1);
                raster_line(r, x0, y0, x1, y1, OUTLINE, RASTER_CAP_ROUND, outline);
            }
        return;
    }
    /* 2D: the four outsides, each a half-plane, then the walls' line */
    const double h[2] = {o->half.x, o->half.y};
    double xy[8];
    for (int k = 0; k < 2; k++)
        for (int s = -1; s <= 1; s += 2) {
            const vec3 axis = v3_scale(box_axis(o, k), s);
            double x, y, nx, ny;
            project(sc, v3_add(o->p, v3_scale(axis, h[k])), &x, &y);
            project_dir(sc, v3_scale(axis, -1), &nx, &ny);
            raster_halfplane(r, x, y, nx, ny, ground);
        }
    static const int sg[4][3] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    for (int c = 0; c < 4; c++)
        project(sc, box_corner(o, 2, sg[c]), &xy[2 * c], &xy[2 * c + 1]);
    for (int c = 0; c < 4; c++)
        raster_line(r, xy[2 * c], xy[2 * c + 1], xy[2 * ((c + 1) % 4)], xy[2 * ((c + 1) % 4) + 1],
                    OUTLINE, RASTER_CAP_ROUND, outline);
}

void render_draw_obstacle(const struct render_scene *sc, struct raster *r, size_t i)
{
    const struct obstacle *o = &sc->m->obstacles[i];
    switch ((enum obstacle_type)o->type) {
    case OBSTACLE_PLANE:
        draw_plane(sc, r, o);
        break;
    case OBSTACLE_SPHERE:
        draw_sphere(sc, r, o);
        break;
    case OBSTACLE_BOX:
        draw_box(sc, r, o);
        break;
    case OBSTACLE_CAPSULE:
        draw_capsule(sc, r, o);
        break;
    case OBSTACLE_BOUNDS:
        draw_bounds(sc, r, o);
        break;
    }
}

int render_obstacle_behind(const struct render_scene *sc, size_t i)
{
    const uint8_t t = sc->m->obstacles[i].type;
    return t == OBSTACLE_PLANE || t == OBSTACLE_BOUNDS;
}

double render_obstacle_depth(const struct render_scene *sc, size_t i)
{
    const struct obstacle *o = &sc->m->obstacles[i];
    const vec3 c = o->type == OBSTACLE_CAPSULE ? v3_scale(v3_add(o->p, o->q), 0.5) : o->p;
    return v3_dot(c, sc->cam.back);
}
