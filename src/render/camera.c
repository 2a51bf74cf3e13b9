/* The orthographic camera: a view basis (2D: x right, y up; 3D: turned by yaw about the up
 * axis, then tilted by pitch so the viewer looks down on the scene) and the scale and centre
 * that fit an extent into the image, or a fixed view. */
#include <math.h>

#include "render/internal.h"

#define DEG (3.14159265358979323846 / 180.0)

static vec3 unit(vec3 a)
{
    const double n = v3_len(a);
    return n > 0 ? v3_scale(a, 1 / n) : a;
}

void render_camera_basis(struct render_camera *c, const struct model *m,
                         const struct render_opts *o)
{
    c->width = o->width;
    c->height = o->height;
    c->cu = c->cv = 0;
    c->scale = 1;
    if (m->dims == 2) {
        c->right = v3(1, 0, 0);
        c->up = v3(0, 1, 0);
        c->back = v3(0, 0, 1);
        return;
    }
    /* up is against gravity; with none, y. right0 and back0 complete a right-handed frame,
     * which is x, y, z when up is y (yaw 0, pitch 0 shows the xy plane as in 2D). */
    const vec3 up = v3_len(m->gravity) > 0 ? unit(v3_scale(m->gravity, -1)) : v3(0, 1, 0);
    const vec3 ref = fabs(up.z) < 0.9 ? v3(0, 0, 1) : v3(1, 0, 0);
    const vec3 right0 = unit(v3_cross(up, ref));
    const vec3 back0 = v3_cross(right0, up);
    const double yaw = o->yaw * DEG, pitch = o->pitch * DEG;
    /* yaw orbits the viewer to the right about up; pitch raises it above the horizon */
    const vec3 b = v3_add(v3_scale(back0, cos(yaw)), v3_scale(right0, sin(yaw)));
    c->back = v3_add(v3_scale(b, cos(pitch)), v3_scale(up, sin(pitch)));
    c->up = v3_sub(v3_scale(up, cos(pitch)), v3_scale(b, sin(pitch)));
    c->right = v3_cross(c->up, c->back);
}

struct render_box render_box_empty(void)
{
    return (struct render_box){INFINITY, -INFINITY, INFINITY, -INFINITY};
}

void render_box_add(struct render_box *b, double u, double v, double r)
{
    if (!isfinite(u) || !isfinite(v) || !isfinite(r))
        return;
    /* comparisons, not fmin and fmax: the values are finite, and this runs per point and step */
    b->u0 = u - r < b->u0 ? u - r : b->u0;
    b->u1 = u + r > b->u1 ? u + r : b->u1;
    b->v0 = v - r < b->v0 ? v - r : b->v0;
    b->v1 = v + r > b->v1 ? v + r : b->v1;
}

void render_camera_fit(struct render_camera *c, const struct render_box *b, struct render_area area,
                       double pad)
{
    const double aw = fmax(area.w - 2 * pad, 1), ah = fmax(area.h - 2 * pad, 1);
    double bw = 1, bh = 1, cu = 0, cv = 0;
    if (b->u0 <= b->u1) {
        bw = b->u1 - b->u0;
        bh = b->v1 - b->v0;
        cu = 0.5 * (b->u0 + b->u1);
        cv = 0.5 * (b->v0 + b->v1);
    }
    /* a box flat in one direction is fitted by the other; a point gets 1 m */
    double scale = fmin(bw > 0 ? aw / bw : INFINITY, bh > 0 ? ah / bh : INFINITY);
    if (!isfinite(scale))
        scale = aw;
    c->scale = scale;
    /* the area's centre, in pixels from the image's centre, back into metres */
    const double ax = area.x + 0.5 * (area.w - 1) - 0.5 * (c->width - 1);
    const double ay = area.y + 0.5 * (area.h - 1) - 0.5 * (c->height - 1);
    c->cu = cu - ax / scale;
    c->cv = cv + ay / scale;
}

void render_camera_view(struct render_camera *c, vec3 center, double width)
{
    c->scale = c->width / width;
    c->cu = render_camera_u(c, center);
    c->cv = render_camera_v(c, center);
}
