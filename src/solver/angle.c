/* Angle limits (an inequality: nothing happens inside [min, max]). With u = b - a and
 * v = c - b, the 2D turn angle theta = angle(v) - angle(u) has the gradients
 *   d theta / d a = perp(u) / |u|^2,  d theta / d c = perp(v) / |v|^2,  perp(x, y) = (-y, x),
 * and the 3D cone angle phi between u and v has
 *   d phi / d a = e_u / |u|,  d phi / d c = -e_v / |v|,
 * e_u the unit part of v/|v| perpendicular to u (e_v the same with u and v swapped). In both
 * d/d b = -(d/d a + d/d c): the gradients sum to zero, so the corrections w_i grad_i dlambda
 * leave sum m_i x_i unchanged (and, the angle being rotation invariant, angular momentum). */
#include "solver/angle.h"

#include <math.h>

/* perp(x) in the x-y plane. */
static vec3 perp(vec3 u)
{
    return v3(-u.y, u.x, 0.0);
}

/* The angle and its gradients at a and c (the one at b follows); 0 when the hinge has no
 * defined direction to turn in (a zero-length link, or a 3D hinge folded straight or flat). */
static int angle_grad(const struct model *m, vec3 u, vec3 v, double *angle, vec3 *ga, vec3 *gc)
{
    const double uu = v3_dot(u, u), vv = v3_dot(v, v);
    if (uu == 0.0 || vv == 0.0)
        return 0;
    if (m->dims == 2) {
        *angle = atan2(u.x * v.y - u.y * v.x, v3_dot(u, v));
        *ga = v3_scale(perp(u), 1.0 / uu);
        *gc = v3_scale(perp(v), 1.0 / vv);
        return 1;
    }
    const double lu = sqrt(uu), lv = sqrt(vv);
    const vec3 uh = v3_scale(u, 1.0 / lu), vh = v3_scale(v, 1.0 / lv);
    const double cs = v3_dot(uh, vh), sn = v3_len(v3_cross(uh, vh));
    /* Below ~1e-12 the perpendicular directions are rounding noise. */
    if (sn < 1e-12)
        return 0;
    *angle = atan2(sn, cs);
    const vec3 eu = v3_scale(v3_sub(vh, v3_scale(uh, cs)), 1.0 / sn);
    const vec3 ev = v3_scale(v3_sub(uh, v3_scale(vh, cs)), 1.0 / sn);
    *ga = v3_scale(eu, 1.0 / lu);
    *gc = v3_scale(ev, -1.0 / lv);
    return 1;
}

double angle_value(const struct model *m, const struct state *s, size_t i)
{
    const struct angle *an = &m->angles[i];
    const vec3 u = v3_sub(s->x[an->b], s->x[an->a]), v = v3_sub(s->x[an->c], s->x[an->b]);
    if (m->dims == 2)
        return atan2(u.x * v.y - u.y * v.x, v3_dot(u, v));
    return atan2(v3_len(v3_cross(u, v)), v3_dot(u, v));
}

static void angle_solve(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                        size_t i)
{
    const struct angle *an = &m->angles[i];
    const double wa = cx->w[an->a], wb = cx->w[an->b], wc = cx->w[an->c];
    const vec3 u = v3_sub(s->x[an->b], s->x[an->a]), v = v3_sub(s->x[an->c], s->x[an->b]);
    double theta, c;
    vec3 ga, gc;
    if (!angle_grad(m, u, v, &theta, &ga, &gc))
        return;
    if (theta > an->max)
        c = theta - an->max;
    else if (theta < an->min)
        c = theta - an->min;
    else
        return;
    const vec3 gb = v3_scale(v3_add(ga, gc), -1.0);
    const double wgrad2 = wa * v3_dot(ga, ga) + wb * v3_dot(gb, gb) + wc * v3_dot(gc, gc);
    if (wgrad2 == 0.0)
        return;
    const double r =
        constraint_step(cx, c, wgrad2, 1.0, an->stiffness, an->compliance, &s->angle_lambda[i]);
    /* Pinned points are not written, so they hold bit for bit. */
    if (wa != 0.0)
        s->x[an->a] = v3_add(s->x[an->a], v3_scale(ga, wa * r));
    if (wb != 0.0)
        s->x[an->b] = v3_add(s->x[an->b], v3_scale(gb, wb * r));
    if (wc != 0.0)
        s->x[an->c] = v3_add(s->x[an->c], v3_scale(gc, wc * r));
}

void angle_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s)
{
    for (size_t i = 0; i < m->nangles; i++)
        angle_solve(cx, m, s, i);
}
