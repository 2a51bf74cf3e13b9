/* Body generator tests (build_*.c through scenario/bodies.c): the topology and geometry
 * each generator makes (points, links by role, angles, areas, faces), rest lengths equal
 * to the initial distances, masses that add up to the total, pins where asked, joint
 * limits that contain the rest pose, references to named and grid points, and the exact
 * message for every bad key; then, stepped by the solver, joint limits and areas that hold.
 * Scenarios are written with ' for "; the label is test.json. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/build/build.h"
#include "solver/angle.h"
#include "solver/area.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil_check.h"

#define HEAD "{'catena': 1, 'time': {'dt': 0.01, 'steps': 10}, "
#define HEAD3 "{'catena': 1, 'dimensions': 3, 'time': {'dt': 0.01, 'steps': 10}, "

static const double PI = 3.14159265358979323846;

/* Initial distances equal rest lengths to this, relative: both come from the same
 * positions, so only the rounding of a difference and a square root separates them. */
#define REST_TOL 1e-12

/* Masses add up to the total to this, relative: a sum of up to ~1000 rounded quotients. */
#define MASS_TOL 1e-12

static const char *q(const char *s)
{
    static char buf[8192];
    size_t i = 0;
    for (; s[i] && i + 1 < sizeof buf; i++)
        buf[i] = s[i] == '\'' ? '"' : s[i];
    buf[i] = '\0';
    return buf;
}

/* Every link of body b starts at its rest length; the body's masses add up to total. */
static void check_rest_and_mass(const struct model *m, size_t b, double total)
{
    const struct body *bd = &m->bodies[b];
    for (uint32_t l = bd->first_link; l < bd->first_link + bd->nlinks; l++) {
        const struct link *k = &m->links[l];
        const double d = v3_dist(m->x0[k->a], m->x0[k->b]);
        ck_assert_msg(fabs(d - k->rest) <= REST_TOL * k->rest, "link %u: %.17g, rest %.17g", l, d,
                      k->rest);
        ck_assert(k->a >= bd->first_point && k->a < bd->first_point + bd->npoints);
        ck_assert(k->b >= bd->first_point && k->b < bd->first_point + bd->npoints);
    }
    double sum = 0;
    for (uint32_t i = bd->first_point; i < bd->first_point + bd->npoints; i++)
        sum += m->mass[i];
    ck_assert_double_eq_tol(sum, total, MASS_TOL * total);
}

static size_t count_role(const struct model *m, size_t b, enum link_role role)
{
    const struct body *bd = &m->bodies[b];
    size_t n = 0;
    for (uint32_t l = bd->first_link; l < bd->first_link + bd->nlinks; l++)
        n += m->links[l].role == role;
    return n;
}

static int is_pinned(const struct model *m, uint32_t point)
{
    for (size_t p = 0; p < m->npins; p++)
        if (m->pins[p].point == point)
            return 1;
    return 0;
}

/* The 2D turn angle at b from the direction a->b to b->c, as struct angle defines it. */
static double turn(const struct model *m, const struct angle *a)
{
    const vec3 d1 = v3_sub(m->x0[a->b], m->x0[a->a]), d2 = v3_sub(m->x0[a->c], m->x0[a->b]);
    return atan2(v3_cross(d1, d2).z, v3_dot(d1, d2));
}

/* ---- rope ---- */

START_TEST(test_rope_sag_is_arc)
{
    /* "sag": the links are chords of one circle through both ends, below the chord. */
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'r', 'type': 'rope', 'from': [0, 0], "
                                   "'to': [4, 0], 'segments': 12, 'length': 6, 'mass': 1.2, "
                                   "'shape': 'sag'}]}");
    check_rest_and_mass(m, 0, 1.2);
    /* The centre lies on the chord's bisector x = 2; it is where two bisectors meet. */
    const vec3 p0 = m->x0[0], p6 = m->x0[6];
    ck_assert_double_eq_tol(p6.x, 2, 1e-12);
    ck_assert(p6.y < 0);
    const double yc = (p6.y * p6.y - 4.0) / (2.0 * p6.y); /* |c - p0| = |c - p6| */
    const double r = v3_dist(v3(2, yc, 0), p0);
    for (size_t k = 0; k <= 12; k++)
        ck_assert_double_eq_tol(v3_dist(v3(2, yc, 0), m->x0[k]), r, 1e-12 * r);
    double total = 0;
    for (size_t l = 0; l < m->nlinks; l++)
        total += m->links[l].rest;
    ck_assert_double_eq_tol(total, 6, 1e-12 * 6);
    model_destroy(m);
}
END_TEST

START_TEST(test_rope_catenary_differs_from_sag)
{
    /* The default is the catenary, which is not a circle: its curvature is largest at the
     * bottom, so the middle sits lower than the arc's of the same length. */
    struct model *c = tu_load(HEAD "'bodies': [{'name': 'r', 'type': 'rope', 'from': [0, 0], "
                                   "'to': [4, 0], 'segments': 12, 'length': 6, 'mass': 1}]}");
    struct model *a = tu_load(HEAD "'bodies': [{'name': 'r', 'type': 'rope', 'from': [0, 0], "
                                   "'to': [4, 0], 'segments': 12, 'length': 6, 'mass': 1, "
                                   "'shape': 'sag'}]}");
    ck_assert(c->x0[6].y < a->x0[6].y - 1e-3);
    model_destroy(c);
    model_destroy(a);
}
END_TEST

START_TEST(test_rope_straight_and_bend)
{
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'r', 'type': 'rope', 'from': [0, 0], "
                                   "'to': [3, 4], 'segments': 10, 'mass': 2, 'shape': 'straight', "
                                   "'compliance': 1e-6, 'break_stretch': 2, "
                                   "'bend': {'stiffness': 0.3, 'compliance': 1e-3}}]}");
    ck_assert_uint_eq(m->npoints, 11);
    ck_assert_uint_eq(count_role(m, 0, ROLE_STRUCTURAL), 10);
    ck_assert_uint_eq(count_role(m, 0, ROLE_BEND), 9);
    ck_assert_uint_eq(m->bodies[0].nlinks, 19);
    check_rest_and_mass(m, 0, 2);
    for (size_t k = 0; k <= 10; k++) { /* on the chord */
        ck_assert_double_eq_tol(m->x0[k].x, 0.3 * (double)k, 1e-15);
        ck_assert_double_eq_tol(m->x0[k].y, 0.4 * (double)k, 1e-15);
    }
    for (size_t l = 0; l < 10; l++) {
        ck_assert_uint_eq(m->links[l].a + 1, m->links[l].b);
        ck_assert_double_eq(m->links[l].compliance, 1e-6);
        ck_assert_double_eq(m->links[l].break_stretch, 2);
    }
    for (size_t l = 10; l < 19; l++) {
        ck_assert_uint_eq(m->links[l].a + 2, m->links[l].b);
        ck_assert_double_eq(m->links[l].stiffness, 0.3);
        ck_assert_double_eq(m->links[l].compliance, 1e-3);
        ck_assert_double_eq(m->links[l].break_stretch, 2); /* the body's, not overridden */
        ck_assert_double_eq_tol(m->links[l].rest, 1.0, 1e-15);
    }
    model_destroy(m);
}
END_TEST

/* ---- cloth ---- */

START_TEST(test_cloth_topology)
{
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 5, "
                                   "'cols': 7, 'spacing': 0.25, 'mass': 3.5, 'radius': 0.01, "
                                   "'bend': true, 'shear': {'stiffness': 0.5}}]}");
    const size_t r = 5, c = 7;
    ck_assert_uint_eq(m->npoints, r * c);
    ck_assert_uint_eq(m->bodies[0].grid_cols, c);
    ck_assert_uint_eq(count_role(m, 0, ROLE_STRUCTURAL), r * (c - 1) + (r - 1) * c);
    ck_assert_uint_eq(count_role(m, 0, ROLE_SHEAR), 2 * (r - 1) * (c - 1));
    ck_assert_uint_eq(count_role(m, 0, ROLE_BEND), r * (c - 2) + (r - 2) * c);
    ck_assert_uint_eq(m->nfaces, 2 * (r - 1) * (c - 1));
    check_rest_and_mass(m, 0, 3.5);
    /* Centred on the origin, row 0 on top, spacing 0.25 both ways. */
    ck_assert_double_eq_tol(m->x0[0].x, -0.75, 1e-15);
    ck_assert_double_eq_tol(m->x0[0].y, 0.5, 1e-15);
    ck_assert_double_eq_tol(m->x0[r * c - 1].x, 0.75, 1e-15);
    ck_assert_double_eq_tol(m->x0[r * c - 1].y, -0.5, 1e-15);
    for (size_t l = 0; l < m->nlinks; l++) {
        const struct link *k = &m->links[l];
        const double want = k->role == ROLE_STRUCTURAL ? 0.25
                            : k->role == ROLE_SHEAR    ? 0.25 * sqrt(2)
                                                       : 0.5;
        ck_assert_double_eq_tol(k->rest, want, 1e-15);
        ck_assert_double_eq(k->stiffness, k->role == ROLE_SHEAR ? 0.5 : 1);
    }
    /* Faces counter-clockwise seen from +z (u x v), covering the cloth's area once. */
    double area = 0;
    for (size_t f = 0; f < m->nfaces; f++) {
        const uint32_t *v = m->faces[f].v;
        const vec3 n = v3_cross(v3_sub(m->x0[v[1]], m->x0[v[0]]), v3_sub(m->x0[v[2]], m->x0[v[0]]));
        ck_assert(n.z > 0);
        area += 0.5 * n.z;
        ck_assert_uint_eq(m->faces[f].body, 0);
    }
    ck_assert_double_eq_tol(area, 1.5 * 1.0, 1e-12);
    ck_assert_uint_eq(m->npins, 0);
    model_destroy(m);
}
END_TEST

START_TEST(test_cloth_switches)
{
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 3, "
                                   "'cols': 4, 'size': [3, 1], 'mass': 1, 'structural': false, "
                                   "'shear': false, 'bend': {'compliance': 0.01}}]}");
    ck_assert_uint_eq(count_role(m, 0, ROLE_STRUCTURAL), 0);
    ck_assert_uint_eq(count_role(m, 0, ROLE_SHEAR), 0);
    ck_assert_uint_eq(count_role(m, 0, ROLE_BEND), 3 * 2 + 1 * 4);
    ck_assert_double_eq(m->links[0].compliance, 0.01);
    /* size [3, 1] over 3 x 4 points: 1 m between columns, 0.5 m between rows. */
    ck_assert_double_eq_tol(v3_dist(m->x0[0], m->x0[1]), 1, 1e-15);
    ck_assert_double_eq_tol(v3_dist(m->x0[0], m->x0[4]), 0.5, 1e-15);
    model_destroy(m);
}
END_TEST

START_TEST(test_cloth_plane_and_pins)
{
    /* 3D, horizontal (x-z), corner given: row r column c at corner + c x - r z. */
    struct model *m =
        tu_load(HEAD3 "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 4, "
                      "'cols': 5, 'spacing': 0.5, 'corner': [1, 2, 3], 'plane': 'xz', "
                      "'mass': 2, 'pins': ['top-row']}], "
                      "'pins': [{'point': 'c.2.3'}]}");
    check_rest_and_mass(m, 0, 2);
    for (uint32_t r = 0; r < 4; r++)
        for (uint32_t c = 0; c < 5; c++) {
            const vec3 x = m->x0[r * 5 + c];
            ck_assert_double_eq_tol(x.x, 1 + 0.5 * c, 1e-15);
            ck_assert_double_eq(x.y, 2);
            ck_assert_double_eq_tol(x.z, 3 - 0.5 * r, 1e-15);
        }
    /* The top row (along x, at the largest z), then row 2 column 3 by reference. */
    ck_assert_uint_eq(m->npins, 5 + 1);
    for (uint32_t c = 0; c < 5; c++)
        ck_assert_uint_eq(m->pins[c].point, c);
    ck_assert_uint_eq(m->pins[5].point, 2 * 5 + 3);
    model_destroy(m);
}
END_TEST

START_TEST(test_cloth_pin_sets)
{
    static const char *const sets[] = {"'top-row'", "'top-corners'", "'corners'", "'last', 7"};
    static const uint32_t want[][5] = {{0, 1, 2, 3, 4}, {0, 4}, {0, 4, 15, 19}, {19, 7}};
    static const size_t nwant[] = {5, 2, 4, 2};
    for (size_t s = 0; s < 4; s++) {
        struct model *m =
            tu_load(HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 4, 'cols': 5, "
                         "'spacing': 0.5, 'mass': 2, 'pins': [%s]}]}",
                    sets[s]);
        ck_assert_uint_eq(m->npins, nwant[s]);
        for (size_t p = 0; p < nwant[s]; p++) {
            ck_assert_uint_eq(m->pins[p].point, want[s][p]);
            ck_assert_double_eq(m->inv_mass[want[s][p]], 0);
        }
        model_destroy(m);
    }
}
END_TEST

START_TEST(test_cloth_uv)
{
    /* u and v as vectors, normalised: a cloth tilted 45 degrees about x. */
    struct model *m = tu_load(HEAD3 "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 3, "
                                    "'cols': 3, 'spacing': 1, 'mass': 1, 'u': [2, 0, 0], "
                                    "'v': [0, 1, 1]}]}");
    const double h = sqrt(0.5);
    ck_assert_double_eq_tol(m->x0[4].x, 0, 1e-15); /* the centre point */
    ck_assert_double_eq_tol(m->x0[4].y, 0, 1e-15);
    ck_assert_double_eq_tol(m->x0[0].x, -1, 1e-15);
    ck_assert_double_eq_tol(m->x0[0].y, h, 1e-15);
    ck_assert_double_eq_tol(m->x0[0].z, h, 1e-15);
    check_rest_and_mass(m, 0, 1);
    model_destroy(m);
}
END_TEST

/* ---- ragdoll ---- */

static void check_joints_contain_rest(const struct model *m)
{
    ck_assert_uint_eq(m->nangles, RAGDOLL_JOINTS);
    for (size_t j = 0; j < m->nangles; j++) {
        const struct angle *a = &m->angles[j];
        const double t = turn(m, a);
        ck_assert_msg(a->min < t && t < a->max, "joint %zu: %g outside [%g, %g]", j, t, a->min,
                      a->max);
    }
}

START_TEST(test_ragdoll_topology)
{
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'fig', 'type': 'ragdoll', "
                                   "'position': [1, 2], 'height': 2, 'mass': 80, "
                                   "'joints': {'stiffness': 0.5, 'compliance': 1e-4}}],"
                                   " 'pins': [{'point': 'fig.l_hand'}]}");
    ck_assert_uint_eq(m->npoints, RAG_NPOINTS);
    ck_assert_uint_eq(count_role(m, 0, ROLE_STRUCTURAL), RAGDOLL_BONES);
    ck_assert_uint_eq(count_role(m, 0, ROLE_SHEAR), RAGDOLL_BRACES);
    ck_assert_uint_eq(m->nlinks, RAGDOLL_BONES + RAGDOLL_BRACES);
    check_rest_and_mass(m, 0, 80);
    check_joints_contain_rest(m);
    ck_assert_double_eq(m->angles[0].stiffness, 0.5);
    ck_assert_double_eq(m->angles[0].compliance, 1e-4);
    for (size_t k = 0; k < RAG_NPOINTS; k++) {
        char name[64];
        snprintf(name, sizeof name, "fig.%s", build_ragdoll_names[k]);
        ck_assert_str_eq(m->point_name[k], name);
    }
    ck_assert_uint_eq(m->pins[0].point, RAG_L_HAND);
    /* The pelvis where asked; the figure's left on +x; head above, feet below. */
    ck_assert_double_eq(m->x0[RAG_PELVIS].x, 1);
    ck_assert_double_eq(m->x0[RAG_PELVIS].y, 2);
    ck_assert(m->x0[RAG_L_HAND].x > 1 && m->x0[RAG_R_HAND].x < 1);
    ck_assert(m->x0[RAG_HEAD].y > m->x0[RAG_NECK].y && m->x0[RAG_NECK].y > m->x0[RAG_CHEST].y);
    /* Head centre to ankles: 0.935 - 0.039 of the height, less the legs' 5 degree spread
     * (the legs are 0.491 of the height long). */
    const double span = (0.935 - 0.530) * 2 + 0.491 * 2 * cos(5 * PI / 180);
    ck_assert_double_eq_tol(m->x0[RAG_HEAD].y - m->x0[RAG_L_FOOT].y, span, 1e-12);
    /* The centre of mass of a standing adult is at about 0.55 to 0.57 of the height above
     * the soles (Winter); the point figure must land within a few percent of that. */
    double cy = 0;
    for (size_t k = 0; k < RAG_NPOINTS; k++)
        cy += m->mass[k] * m->x0[k].y;
    cy /= 80;
    const double soles = m->x0[RAG_L_FOOT].y - 0.039 * 2;
    ck_assert_double_ge((cy - soles) / 2, 0.53);
    ck_assert_double_le((cy - soles) / 2, 0.59);
    /* Left and right mirror each other: the centre of mass is on the midline. */
    double cx = 0;
    for (size_t k = 0; k < RAG_NPOINTS; k++)
        cx += m->mass[k] * (m->x0[k].x - 1);
    ck_assert_double_eq_tol(cx, 0, 1e-12);
    model_destroy(m);
}
END_TEST

START_TEST(test_ragdoll_poses_and_angle)
{
    /* Limits are relative: they contain the rest pose for every pose and turn. */
    static const char *const poses[] = {"stand", "t"};
    static const double angles[] = {0, 1.2, -2.5, PI};
    for (size_t p = 0; p < 2; p++)
        for (size_t a = 0; a < 4; a++) {
            struct model *m =
                tu_load(HEAD "'bodies': [{'name': 'f', 'type': 'ragdoll', 'mass': 70, "
                             "'pose': '%s', 'angle': %.17g}]}",
                        poses[p], angles[a]);
            check_joints_contain_rest(m);
            check_rest_and_mass(m, 0, 70);
            /* The turn is about the pelvis: the neck is 0.288 of the height above it. */
            const vec3 n = m->x0[RAG_NECK];
            ck_assert_double_eq_tol(n.x, -0.288 * 1.75 * sin(angles[a]), 1e-12);
            ck_assert_double_eq_tol(n.y, 0.288 * 1.75 * cos(angles[a]), 1e-12);
            model_destroy(m);
        }
}
END_TEST

START_TEST(test_ragdoll_joint_table)
{
    /* The hinge is a bone's shared point; left and right limits mirror each other. */
    for (size_t j = 0; j < RAGDOLL_JOINTS; j++) {
        enum ragdoll_point abc[3];
        double lo, hi;
        build_ragdoll_joint(j, abc, &lo, &hi);
        ck_assert(lo < hi);
        if (j % 2 == 1) {
            enum ragdoll_point abc2[3];
            double lo2, hi2;
            build_ragdoll_joint(j + 1, abc2, &lo2, &hi2);
            ck_assert_double_eq(lo2, -hi);
            ck_assert_double_eq(hi2, -lo);
        }
    }
}
END_TEST

START_TEST(test_ragdoll_3d)
{
    /* In 3D the limits become cones: 0 up to the farther 2D limit. */
    struct model *m = tu_load(HEAD3 "'bodies': [{'name': 'f', 'type': 'ragdoll', 'mass': 70, "
                                    "'position': [0, 0, 5], 'joints': false}]}");
    ck_assert_uint_eq(m->nangles, 0);
    ck_assert_double_eq(m->x0[RAG_HEAD].z, 5);
    model_destroy(m);
    m = tu_load(HEAD3 "'bodies': [{'name': 'f', 'type': 'ragdoll', 'mass': 70}]}");
    for (size_t j = 0; j < m->nangles; j++) {
        enum ragdoll_point abc[3];
        double lo, hi;
        build_ragdoll_joint(j, abc, &lo, &hi);
        ck_assert_double_eq(m->angles[j].min, 0);
        ck_assert_double_eq(m->angles[j].max, fmax(fabs(lo), fabs(hi)));
        const struct angle *a = &m->angles[j];
        const vec3 d1 = v3_sub(m->x0[a->b], m->x0[a->a]), d2 = v3_sub(m->x0[a->c], m->x0[a->b]);
        const double cone = acos(v3_dot(d1, d2) / (v3_len(d1) * v3_len(d2)));
        ck_assert(cone <= a->max);
    }
    model_destroy(m);
}
END_TEST

/* ---- soft body ---- */

START_TEST(test_softbody_ring)
{
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'j', 'type': 'softbody', 'center': [1, 1], "
                                   "'shape_radius': 0.5, 'points': 20, 'mass': 2.1, "
                                   "'spokes': {'stiffness': 0.1}, 'pressure': 1.5, "
                                   "'shape_matching': 0.25, 'pins': [5]}], "
                                   "'links': [{'a': 'j.center', 'b': 'j.0'}]}");
    const size_t n = 20;
    ck_assert_uint_eq(m->npoints, n + 1);
    ck_assert_str_eq(m->point_name[n], "j.center");
    ck_assert_uint_eq(count_role(m, 0, ROLE_STRUCTURAL), n);
    ck_assert_uint_eq(count_role(m, 0, ROLE_SHEAR), n);
    ck_assert_uint_eq(m->bodies[0].nlinks, 2 * n);
    ck_assert_uint_eq(m->nfaces, n);
    check_rest_and_mass(m, 0, 2.1);
    for (size_t k = 0; k < n; k++)
        ck_assert_double_eq_tol(v3_dist(m->x0[k], v3(1, 1, 0)), 0.5, 1e-15);
    ck_assert_double_eq(m->x0[n].x, 1);
    /* The area: counter-clockwise, the regular polygon's n/2 r^2 sin(2 pi / n). */
    ck_assert_uint_eq(m->nareas, 1);
    ck_assert_uint_eq(m->areas[0].count, n);
    ck_assert_int_eq(m->areas[0].is_volume, 0);
    ck_assert_double_eq_tol(m->areas[0].rest, 0.5 * n * 0.25 * sin(2 * PI / n), 1e-14);
    ck_assert_double_eq(m->areas[0].pressure, 1.5);
    for (size_t k = 0; k < n; k++)
        ck_assert_uint_eq(m->area_index[m->areas[0].first + k], k);
    ck_assert_uint_eq(m->nshapes, 1);
    ck_assert_uint_eq(m->shapes[0].count, n + 1);
    ck_assert_double_eq(m->shapes[0].stiffness, 0.25);
    ck_assert(is_pinned(m, 5));
    ck_assert_uint_eq(m->links[m->nlinks - 1].a, n); /* "j.center" resolved */
    model_destroy(m);
}
END_TEST

START_TEST(test_softbody_ring_bare)
{
    /* No spokes: no centre point; the faces fan from point 0; no area unless asked. */
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'j', 'type': 'softbody', "
                                   "'shape_radius': 1, 'points': 7, 'mass': 1, 'spokes': false, "
                                   "'area': {'compliance': 0.001}}]}");
    ck_assert_uint_eq(m->npoints, 7);
    ck_assert_uint_eq(m->nlinks, 7);
    ck_assert_uint_eq(m->nfaces, 5);
    ck_assert_uint_eq(m->nareas, 1);
    ck_assert_double_eq(m->areas[0].pressure, 1);
    ck_assert_double_eq(m->areas[0].compliance, 0.001);
    double fans = 0;
    for (size_t f = 0; f < m->nfaces; f++) {
        const uint32_t *v = m->faces[f].v;
        ck_assert_uint_eq(v[0], 0);
        fans +=
            0.5 * v3_cross(v3_sub(m->x0[v[1]], m->x0[v[0]]), v3_sub(m->x0[v[2]], m->x0[v[0]])).z;
    }
    ck_assert_double_eq_tol(fans, m->areas[0].rest, 1e-14);
    check_rest_and_mass(m, 0, 1);
    model_destroy(m);
    m = tu_load(HEAD
                "'bodies': [{'name': 'j', 'type': 'softbody', 'shape_radius': 1, 'mass': 1}]}");
    ck_assert_uint_eq(m->npoints, 17); /* 16 by default, and the centre */
    ck_assert_uint_eq(m->nareas + m->nshapes, 0);
    model_destroy(m);
}
END_TEST

START_TEST(test_softbody_sphere)
{
    for (uint32_t s = 0; s <= 3; s++) {
        struct model *m =
            tu_load(HEAD3 "'bodies': [{'name': 'b', 'type': 'softbody', 'shape': 'sphere', "
                          "'subdivisions': %u, 'center': [0, 2, 0], 'shape_radius': 0.5, "
                          "'mass': 3, 'pressure': 1.2}]}",
                    s);
        const size_t f4 = (size_t)1 << (2 * s); /* 4^s */
        const size_t nv = 10 * f4 + 2;
        ck_assert_uint_eq(m->npoints, nv + 1);
        ck_assert_uint_eq(count_role(m, 0, ROLE_STRUCTURAL), 30 * f4);
        ck_assert_uint_eq(count_role(m, 0, ROLE_SHEAR), nv);
        ck_assert_uint_eq(m->nfaces, 20 * f4);
        check_rest_and_mass(m, 0, 3);
        for (size_t k = 0; k < nv; k++)
            ck_assert_double_eq_tol(v3_dist(m->x0[k], v3(0, 2, 0)), 0.5, 1e-15);
        /* Outward faces: each normal points away from the centre. */
        for (size_t f = 0; f < m->nfaces; f++) {
            const uint32_t *v = m->faces[f].v;
            const vec3 n =
                v3_cross(v3_sub(m->x0[v[1]], m->x0[v[0]]), v3_sub(m->x0[v[2]], m->x0[v[0]]));
            ck_assert(v3_dot(n, v3_sub(m->x0[v[0]], v3(0, 2, 0))) > 0);
        }
        /* The inscribed mesh's volume: below the sphere's, approaching it as it refines
         * (an icosahedron holds 60.5 % of its sphere, the third subdivision 98.5 %). */
        ck_assert_uint_eq(m->nareas, 1);
        ck_assert_int_eq(m->areas[0].is_volume, 1);
        const double ball = 4.0 / 3.0 * PI * 0.125, ratio = m->areas[0].rest / ball;
        static const double lo[] = {0.60, 0.87, 0.96, 0.985};
        ck_assert_double_ge(ratio, lo[s]);
        ck_assert_double_lt(ratio, 1);
        ck_assert_double_eq(m->areas[0].pressure, 1.2);
        model_destroy(m);
    }
}
END_TEST

START_TEST(test_softbody_ring_3d)
{
    /* A ring in the y-z plane of a 3D scenario, counter-clockwise about +x. */
    struct model *m = tu_load(HEAD3 "'bodies': [{'name': 'r', 'type': 'softbody', 'points': 8, "
                                    "'shape_radius': 2, 'plane': 'yz', 'mass': 1}]}");
    for (size_t k = 0; k < 8; k++) {
        ck_assert_double_eq(m->x0[k].x, 0);
        ck_assert_double_eq_tol(v3_len(m->x0[k]), 2, 1e-15);
    }
    ck_assert(v3_cross(m->x0[0], m->x0[1]).x > 0);
    model_destroy(m);
}
END_TEST

/* ---- hair ---- */

START_TEST(test_hair_line)
{
    struct model *m = tu_load(HEAD "'bodies': [{'name': 'h', 'type': 'hair', 'from': [0, 1], "
                                   "'to': [2, 1], 'strands': 5, 'points': 8, 'length': 0.7, "
                                   "'mass': 0.02, 'bend': {'stiffness': 0.25}}], "
                                   "'links': [{'a': 'h.4.7', 'b': 'h.0.0'}]}");
    const size_t k = 5, n = 8;
    ck_assert_uint_eq(m->npoints, k * n);
    ck_assert_uint_eq(m->bodies[0].grid_cols, n);
    ck_assert_uint_eq(count_role(m, 0, ROLE_STRUCTURAL), k * (n - 1));
    ck_assert_uint_eq(count_role(m, 0, ROLE_BEND), k * (n - 2));
    check_rest_and_mass(m, 0, 0.02);
    /* Roots pinned by default, strands hanging along gravity. */
    ck_assert_uint_eq(m->npins, k);
    for (size_t s = 0; s < k; s++) {
        ck_assert_uint_eq(m->pins[s].point, s * n);
        ck_assert_double_eq_tol(m->x0[s * n].x, 0.5 * (double)s, 1e-15);
        ck_assert_double_eq(m->x0[s * n].y, 1);
        ck_assert_double_eq_tol(m->x0[s * n + n - 1].y, 1 - 0.7, 1e-15);
        ck_assert_double_eq_tol(m->x0[s * n + n - 1].x, 0.5 * (double)s, 1e-15);
    }
    ck_assert_uint_eq(m->links[m->nlinks - 1].a, 4 * n + 7);
    ck_assert_uint_eq(m->links[m->nlinks - 1].b, 0);
    ck_assert_double_eq(m->links[k * (n - 1)].stiffness, 0.25);
    model_destroy(m);
}
END_TEST

START_TEST(test_hair_arc)
{
    struct model *m =
        tu_load(HEAD "'bodies': [{'name': 'h', 'type': 'hair', "
                     "'arc': {'center': [0, 0], 'radius': 0.1, 'start': 0, "
                     "'end': 3.141592653589793}, 'strands': 3, 'points': 4, "
                     "'length': 0.3, 'mass': 0.01, 'pins': ['clamped-roots', 'tips']}]}");
    ck_assert_uint_eq(m->npins, 3 * 3);
    for (size_t s = 0; s < 3; s++) {
        ck_assert(is_pinned(m, (uint32_t)(4 * s)) && is_pinned(m, (uint32_t)(4 * s + 1)));
        ck_assert(is_pinned(m, (uint32_t)(4 * s + 3)) && !is_pinned(m, (uint32_t)(4 * s + 2)));
        /* Outwards from the centre: the tip at 0.1 + 0.3. */
        ck_assert_double_eq_tol(v3_len(m->x0[4 * s]), 0.1, 1e-15);
        ck_assert_double_eq_tol(v3_len(m->x0[4 * s + 3]), 0.4, 1e-15);
    }
    ck_assert_double_eq_tol(m->x0[4].x, 0, 1e-15); /* the middle strand at pi/2 */
    check_rest_and_mass(m, 0, 0.01);
    model_destroy(m);
    /* One strand sits in the middle; a direction overrides the default; no pins asked. */
    m = tu_load(HEAD "'bodies': [{'name': 'h', 'type': 'hair', 'from': [0, 0], 'to': [2, 0], "
                     "'strands': 1, 'points': 3, 'length': 1, 'mass': 1, 'direction': [0, 3], "
                     "'bend': false, 'pins': []}]}");
    ck_assert_uint_eq(m->npins + count_role(m, 0, ROLE_BEND), 0);
    ck_assert_double_eq(m->x0[0].x, 1);
    ck_assert_double_eq(m->x0[2].y, 1);
    model_destroy(m);
}
END_TEST

/* ---- references ---- */

START_TEST(test_references)
{
    struct model *m = tu_load(HEAD "'points': [{'name': 'hook', 'p': [0, 5], 'mass': 0}], "
                                   "'bodies': [{'name': 'a', 'type': 'ragdoll', 'mass': 70}, "
                                   "{'name': 'b', 'type': 'ragdoll', 'mass': 70, "
                                   "'position': [3, 0]}, {'name': 'c', 'type': 'cloth', 'rows': 3, "
                                   "'cols': 4, 'spacing': 1, 'mass': 1}], "
                                   "'links': [{'a': 'hook', 'b': 'b.r_hand'}, "
                                   "{'a': 'a.head', 'b': 'b.5'}, {'a': 'c.2.3', 'b': 'c.first'}, "
                                   "{'a': 'c.1.0', 'b': 'a.last'}]}");
    const struct link *l = m->links + m->nlinks - 4;
    ck_assert_uint_eq(l[0].b, 1 + 16 + RAG_R_HAND);
    ck_assert_uint_eq(l[1].a, 1 + RAG_HEAD);
    ck_assert_uint_eq(l[1].b, 1 + 16 + 5);
    ck_assert_uint_eq(l[2].a, 33 + 11);
    ck_assert_uint_eq(l[2].b, 33);
    ck_assert_uint_eq(l[3].a, 33 + 4);
    ck_assert_uint_eq(l[3].b, 1 + 15);
    model_destroy(m);
}
END_TEST

START_TEST(test_pin_names_match)
{
    /* The ragdoll's pin names are its point names, in the same order. */
    for (size_t k = 0; k < RAG_NPOINTS; k++) {
        struct model *m =
            tu_load(HEAD "'bodies': [{'name': 'f', 'type': 'ragdoll', 'mass': 1, 'pins': ['%s']}]}",
                    build_ragdoll_names[k]);
        ck_assert_uint_eq(m->pins[0].point, k);
        model_destroy(m);
    }
}
END_TEST

/* ---- physics: the generated constraints, stepped ---- */

static const char *const methods[] = {"verlet", "pbd", "xpbd"};

/* A ragdoll in a T-pose tipped over by 1.2 rad, hanging by its left hand: its limbs swing
 * and slam into their limits for seconds (scenarios/ragdoll-fall.json). */
static struct model *hanging_ragdoll(const char *method, int iterations)
{
    return tu_load("{'catena': 1, 'time': {'dt': 0.008333333333333333, 'steps': 480}, "
                   "'solver': {'method': '%s', 'iterations': %d, 'damping': 0.995}, "
                   "'bodies': [{'name': 'fig', 'type': 'ragdoll', 'position': [0, 2], 'mass': 70, "
                   "'pose': 't', 'angle': 1.2, 'pins': ['l_hand']}]}",
                   method, iterations);
}

/* The farthest any joint is past a limit (<= 0 when all are within). */
static double worst_violation(const struct model *m, const struct state *s)
{
    double worst = -INFINITY;
    for (size_t j = 0; j < m->nangles; j++) {
        const double a = angle_value(m, s, j);
        worst = fmax(worst, fmax(a - m->angles[j].max, m->angles[j].min - a));
    }
    return worst;
}

START_TEST(test_ragdoll_limits_hold)
{
    /* The bound: after every step, no joint more than 1e-3 rad past its limit at
     * 20 or more iterations (measured: about 2e-4 at 20; the residue is what the bones and
     * braces, projected against the limits, leave after the last sweep). */
    static const int iterations[] = {20, 40};
    for (size_t it = 0; it < 2; it++) {
        struct model *m = hanging_ragdoll(methods[_i], iterations[it]);
        struct state *s = state_create(m);
        ck_assert_ptr_nonnull(s);
        long at_limit = 0;
        for (long k = 0; k < m->steps; k++) {
            solver_step(m, s);
            const double w = worst_violation(m, s);
            ck_assert_msg(w <= 1e-3,
                          "%s, %d iterations, step %ld: a joint is %g rad past its limit",
                          methods[_i], iterations[it], k + 1, w);
            at_limit += w > 0;
        }
        /* The swing does drive joints onto their limits, so the bound above is tested. */
        ck_assert_int_gt(at_limit, 10);
        state_destroy(s);
        model_destroy(m);
    }
}
END_TEST

START_TEST(test_ragdoll_limits_need_projection)
{
    /* Two iterations are not enough: the same swing leaves joints well past 1e-3, which
     * is what the test above would catch if the limits were not projected. */
    struct model *m = hanging_ragdoll(methods[_i], 2);
    struct state *s = state_create(m);
    double worst = 0;
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        worst = fmax(worst, worst_violation(m, s));
    }
    ck_assert_double_gt(worst, 1e-2);
    state_destroy(s);
    model_destroy(m);
}
END_TEST

/* The same figure standing, turned on its side (pi/2) with the pelvis 1.2 m above a ground
 * plane of friction 0.5: it drops about 1.15 m flat onto its side, so every limb lands at
 * once and the joints are driven into their limits by the impact and then lie on them. */
static struct model *falling_ragdoll(const char *method, int iterations)
{
    return tu_load(
        "{'catena': 1, 'time': {'dt': 0.008333333333333333, 'steps': 480}, "
        "'solver': {'method': '%s', 'iterations': %d, 'damping': 0.995}, "
        "'bodies': [{'name': 'fig', 'type': 'ragdoll', 'position': [0, 1.2], 'mass': 70, "
        "'pose': 'stand', 'angle': 1.5707963267948966, 'radius': 0.05}], "
        "'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [0, 1], "
        "'friction': 0.5}]}",
        method, iterations);
}

START_TEST(test_ragdoll_limits_hold_on_ground)
{
    /* The bound for a fall onto the ground: after every step, no joint more than
     * 1e-3 rad past its limit at 20 and 40 iterations. Measured worst: 1.9e-4 (verlet) and
     * 3.2e-4 (pbd, xpbd) at 20, 2.2e-4 and 3.0e-4 at 40: under Coulomb friction a limb
     * that lands sticks where it touches, a pin the limits settle against (with friction as
     * a fraction of each substep's sliding, 5e-5 and 4e-6; with that fraction applied after
     * the iterations, 1.6e-4 to 5.8e-4). Other falls, restitution and friction 1 are in
     * tests/check_ragdoll.c: a hard impact of a light end is slower to converge, and 20
     * iterations do not hold every such fall within 1e-3. */
    static const int iterations[] = {20, 40};
    for (size_t it = 0; it < 2; it++) {
        struct model *m = falling_ragdoll(methods[_i], iterations[it]);
        struct state *s = state_create(m);
        ck_assert_ptr_nonnull(s);
        long at_limit = 0;
        double lowest = INFINITY;
        for (long k = 0; k < m->steps; k++) {
            solver_step(m, s);
            const double w = worst_violation(m, s);
            ck_assert_msg(w <= 1e-3,
                          "%s, %d iterations, step %ld: a joint is %g rad past its limit",
                          methods[_i], iterations[it], k + 1, w);
            at_limit += w > 0;
            for (size_t i = 0; i < m->npoints; i++)
                lowest = fmin(lowest, s->x[i].y);
        }
        /* The figure does land (a point rests on the plane at its radius, 0.05 m, to the
         * 1e-9 of the push-out's rounding) and its joints do reach their limits. */
        ck_assert_double_eq_tol(lowest, 0.05, 1e-9);
        ck_assert_int_gt(at_limit, 10);
        state_destroy(s);
        model_destroy(m);
    }
}
END_TEST

/* A ring of 24 points, 1 kg, hanging from its top point for 5 s, without spokes: only the
 * area constraint (when on) keeps it from collapsing. */
static struct model *hanging_ring(const char *method, const char *area)
{
    return tu_load(
        "{'catena': 1, 'time': {'dt': 0.008333333333333333, 'steps': 600}, "
        "'solver': {'method': '%s', 'iterations': 20}, "
        "'bodies': [{'name': 'j', 'type': 'softbody', 'shape_radius': 0.5, 'points': 24, "
        "'mass': 1, 'spokes': false, 'area': %s, 'pins': [6]}]}",
        method, area);
}

/* The ring's shoelace area. */
static double ring_area(const vec3 *x)
{
    double a = 0;
    for (size_t i = 0; i < 24; i++)
        a += 0.5 * (x[i].x * x[(i + 1) % 24].y - x[(i + 1) % 24].x * x[i].y);
    return a;
}

/* The largest |A / A0 - 1| of the ring over the run. */
static double area_drift(const struct model *m)
{
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    const double a0 = ring_area(m->x0);
    double worst = 0;
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        worst = fmax(worst, fabs(ring_area(s->x) / a0 - 1));
    }
    state_destroy(s);
    return worst;
}

START_TEST(test_area_held_hanging)
{
    /* The bound: within 1 % while hanging (measured: about 1e-6). */
    struct model *m = hanging_ring(methods[_i], "true");
    ck_assert_double_eq_tol(m->areas[0].rest, ring_area(m->x0), 1e-15);
    ck_assert_double_lt(area_drift(m), 0.01);
    model_destroy(m);
    /* Without it the ring sags out of shape and its area drifts far past 1 %. */
    m = hanging_ring(methods[_i], "false");
    ck_assert_double_gt(area_drift(m), 0.1);
    model_destroy(m);
}
END_TEST

/* ---- bad input ---- */

struct bad {
    const char *json;
    const char *msg;
};

#define CLOTH_B(extra)                                                                             \
    HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 3, 'cols': 4, 'mass': 1" extra "}]"
#define CLOTH(extra) CLOTH_B(extra) "}"
#define CLOTH3(extra)                                                                              \
    HEAD3 "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 3, 'cols': 4, 'mass': 1" extra "}]}"
#define RAG_B(extra) HEAD "'bodies': [{'name': 'f', 'type': 'ragdoll', 'mass': 70" extra "}]"
#define RAG(extra) RAG_B(extra) "}"
#define SOFT_B(extra)                                                                              \
    HEAD "'bodies': [{'name': 's', 'type': 'softbody', 'shape_radius': 1, 'mass': 1" extra "}]"
#define SOFT(extra) SOFT_B(extra) "}"
#define SOFT3(extra)                                                                               \
    HEAD3 "'bodies': [{'name': 's', 'type': 'softbody', 'shape_radius': 1, 'mass': 1" extra "}]}"
#define HAIR_B(extra)                                                                              \
    HEAD "'bodies': [{'name': 'h', 'type': 'hair', 'strands': 3, 'points': 5, 'length': 1, "       \
         "'mass': 1" extra "}]"
#define HAIR(extra) HAIR_B(extra) "}"
#define ROPE(extra)                                                                                \
    HEAD "'bodies': [{'name': 'r', 'type': 'rope', 'from': [0, 0], 'to': [10, 0], "                \
         "'segments': 10, 'mass': 1" extra "}]}"

static const struct bad bad_inputs[] = {
    /* rope */
    {ROPE(", 'shape': 'curve'"),
     "test.json: bodies[0].shape: unknown value \"curve\" (expected \"catenary\", \"sag\" or "
     "\"straight\")"},
    {ROPE(", 'shape': 'straight', 'length': 12"),
     "test.json: bodies[0].length: a \"straight\" rope's length must be the distance from "
     "\"from\" to \"to\", 10 (got 12)"},
    {ROPE(", 'bend': 1"), "test.json: bodies[0].bend: expected true, false or an object, got a "
                          "number"},
    {ROPE(", 'bend': {'stiffnes': 1}"),
     "test.json: bodies[0].bend.stiffnes: unknown key (did you mean \"stiffness\"?)"},
    {ROPE(", 'bend': {'stiffness': 0}"),
     "test.json: bodies[0].bend.stiffness: must be greater than 0 and at most 1 (got 0)"},
    {ROPE(", 'compliance': -1"), "test.json: bodies[0].compliance: must be at least 0 (got -1)"},
    /* cloth */
    {CLOTH(""), "test.json: bodies[0]: missing required key \"spacing\" (or give \"size\")"},
    {CLOTH(", 'spacing': 1, 'size': [1, 1]"),
     "test.json: bodies[0].size: give either \"spacing\" or \"size\", not both"},
    {CLOTH(", 'size': [1, 0]"), "test.json: bodies[0].size[1]: must be greater than 0 (got 0)"},
    {CLOTH(", 'size': [1, 1, 1]"),
     "test.json: bodies[0].size: expected an array of 2 numbers, got 3 elements"},
    {CLOTH(", 'spacing': 0"), "test.json: bodies[0].spacing: must be greater than 0 (got 0)"},
    {HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 1, 'cols': 4, 'mass': 1}]}",
     "test.json: bodies[0].rows: must be at least 2 (got 1)"},
    {HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 2, 'cols': 1e9, 'mass': 1}]}",
     "test.json: bodies[0].cols: must be at most 50000000 (got 1000000000)"},
    {HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 10000, 'cols': 10000, "
          "'mass': 1}]}",
     "test.json: bodies[0]: too many points: the scenario would need 100000000 points, about "
     "54.8 GiB of memory (the limit is 50000000 points; --max-points changes it)"},
    {CLOTH(", 'spacing': 1, 'center': [0, 0], 'corner': [0, 0]"),
     "test.json: bodies[0].corner: give either \"center\" or \"corner\", not both"},
    {CLOTH(", 'spacing': 1, 'plane': 'xz'"),
     "test.json: bodies[0].plane: \"xz\" needs \"dimensions\": 3 (a 2D scenario is the x-y "
     "plane)"},
    {CLOTH3(", 'spacing': 1, 'plane': 'ab'"),
     "test.json: bodies[0].plane: unknown value \"ab\" (expected \"xy\", \"xz\" or \"yz\")"},
    {CLOTH3(", 'spacing': 1, 'plane': 'zx'"),
     "test.json: bodies[0].plane: unknown value \"zx\" (did you mean \"xz\"?)"},
    {CLOTH3(", 'spacing': 1, 'plane': 'xz', 'u': [1, 0, 0]"),
     "test.json: bodies[0].plane: give either \"u\" or \"plane\", not both"},
    {CLOTH3(", 'spacing': 1, 'u': [1, 0, 0]"),
     "test.json: bodies[0]: missing required key \"v\" (it goes with \"u\")"},
    {CLOTH3(", 'spacing': 1, 'v': [1, 0, 0]"),
     "test.json: bodies[0]: missing required key \"u\" (it goes with \"v\")"},
    {CLOTH3(", 'spacing': 1, 'u': [0, 0, 0], 'v': [1, 0, 0]"),
     "test.json: bodies[0].u: must not be the zero vector"},
    {CLOTH3(", 'spacing': 1, 'u': [1, 0, 0], 'v': [0, 0, 0]"),
     "test.json: bodies[0].v: must not be the zero vector"},
    {CLOTH3(", 'spacing': 1, 'u': [1, 0, 0], 'v': [1, 1, 0]"),
     "test.json: bodies[0].v: must be perpendicular to \"u\" (the angle between them is 45 "
     "degrees)"},
    {CLOTH(", 'spacing': 1, 'structural': 'yes'"),
     "test.json: bodies[0].structural: expected true, false or an object, got a string"},
    {CLOTH(", 'spacing': 1, 'shear': {'compliance': -1}"),
     "test.json: bodies[0].shear.compliance: must be at least 0 (got -1)"},
    {CLOTH(", 'spacing': 1, 'bend': {'break_stretch': 1}"),
     "test.json: bodies[0].bend.break_stretch: must be greater than 1 (got 1)"},
    {CLOTH(", 'spacing': 1, 'pins': ['corner']"),
     "test.json: bodies[0].pins[0]: \"corner\" is not a point of a cloth (did you mean "
     "\"corners\"?)"},
    {CLOTH(", 'spacing': 1, 'pins': ['bottom-row']"),
     "test.json: bodies[0].pins[0]: expected \"first\", \"last\", \"top-row\", "
     "\"top-corners\", \"corners\" or a point index, got \"bottom-row\""},
    {CLOTH(", 'spacing': 1, 'pins': [12]"),
     "test.json: bodies[0].pins[0]: point 12 does not exist (c has 12 points)"},
    {CLOTH(", 'spacing': 1, 'pins': [true]"),
     "test.json: bodies[0].pins[0]: expected \"first\", \"last\", \"top-row\", "
     "\"top-corners\", \"corners\" or a point index, got a boolean"},
    {CLOTH(", 'spacing': 1, 'pins': ['top-row', 'corners']"),
     "test.json: bodies[0].pins[1]: point \"c.0\" is already pinned by bodies[0].pins[0]"},
    {CLOTH_B(", 'spacing': 1") ", 'links': [{'a': 'c.3.0', 'b': 0}]}",
     "test.json: links[0].a: point \"c.3.0\" does not exist (c has rows 0 to 2 and columns 0 "
     "to 3)"},
    {CLOTH_B(", 'spacing': 1") ", 'links': [{'a': 'c.x', 'b': 0}]}",
     "test.json: links[0].a: point \"c.x\" does not exist (after \"c.\" write an index from 0 "
     "to 11, ROW.COLUMN, first or last)"},
    /* ragdoll */
    {RAG(", 'height': 0"), "test.json: bodies[0].height: must be greater than 0 (got 0)"},
    {RAG(", 'pose': 'sit'"),
     "test.json: bodies[0].pose: unknown value \"sit\" (expected \"stand\" or \"t\")"},
    {RAG(", 'angle': 'up'"), "test.json: bodies[0].angle: expected a number, got a string"},
    {RAG(", 'position': [0, 0, 0]"),
     "test.json: bodies[0].position: expected an array of 2 numbers, got 3 elements"},
    {RAG(", 'joints': {'break_stretch': 2}"),
     "test.json: bodies[0].joints.break_stretch: unknown key (valid keys: stiffness, "
     "compliance)"},
    {RAG(", 'pins': ['l_hnad']"),
     "test.json: bodies[0].pins[0]: \"l_hnad\" is not a point of a ragdoll (did you mean "
     "\"l_hand\"?)"},
    {RAG(", 'pins': [16]"),
     "test.json: bodies[0].pins[0]: point 16 does not exist (f has 16 points)"},
    {RAG_B("") ", 'links': [{'a': 'f.haed', 'b': 0}]}",
     "test.json: links[0].a: point \"f.haed\" does not exist (did you mean \"f.head\"?)"},
    {RAG_B("") ", 'links': [{'a': 'f.tail', 'b': 0}]}",
     "test.json: links[0].a: point \"f.tail\" does not exist (after \"f.\" write an index from "
     "0 to 15, first, last or a point name such as \"f.head\")"},
    /* soft body */
    {HEAD "'bodies': [{'name': 's', 'type': 'softbody', 'mass': 1}]}",
     "test.json: bodies[0]: missing required key \"shape_radius\""},
    {SOFT(", 'shape_radius': 1"), "test.json: bodies[0].shape_radius: duplicate key"},
    {HEAD "'bodies': [{'name': 's', 'type': 'softbody', 'shape_radius': -1, 'mass': 1}]}",
     "test.json: bodies[0].shape_radius: must be greater than 0 (got -1)"},
    {SOFT(", 'points': 2"), "test.json: bodies[0].points: must be at least 3 (got 2)"},
    {SOFT(", 'shape': 'cube'"),
     "test.json: bodies[0].shape: unknown value \"cube\" (expected \"ring\" or \"sphere\")"},
    {SOFT(", 'shape': 'sphere'"),
     "test.json: bodies[0].shape: a \"sphere\" needs \"dimensions\": 3 (in 2D use a \"ring\")"},
    {SOFT(", 'subdivisions': 2"),
     "test.json: bodies[0].subdivisions: only a \"sphere\" is subdivided (this body is a "
     "\"ring\")"},
    {SOFT3(", 'shape': 'sphere', 'subdivisions': 8"),
     "test.json: bodies[0].subdivisions: must be at most 7 (got 8)"},
    {SOFT3(", 'shape': 'sphere', 'points': 8"),
     "test.json: bodies[0].points: only a \"ring\" has this key (this body is a \"sphere\")"},
    {SOFT3(", 'shape': 'sphere', 'plane': 'xz'"),
     "test.json: bodies[0].plane: only a \"ring\" has this key (this body is a \"sphere\")"},
    {SOFT3(", 'area': true"),
     "test.json: bodies[0].area: a ring's area constraint needs \"dimensions\": 2 (in 3D a "
     "\"sphere\" holds its volume)"},
    {SOFT3(", 'pressure': 2"),
     "test.json: bodies[0].pressure: a ring's area constraint needs \"dimensions\": 2 (in 3D "
     "a \"sphere\" holds its volume)"},
    {SOFT(", 'pressure': 0"), "test.json: bodies[0].pressure: must be greater than 0 (got 0)"},
    {SOFT(", 'pressure': 2, 'area': false"),
     "test.json: bodies[0].pressure: acts through the area constraint, which \"area\": false "
     "turns off"},
    {SOFT(", 'area': {'stiffness': 2}"),
     "test.json: bodies[0].area.stiffness: must be greater than 0 and at most 1 (got 2)"},
    {SOFT(", 'spokes': null"),
     "test.json: bodies[0].spokes: expected true, false or an object, got null"},
    {SOFT(", 'shape_matching': 0"),
     "test.json: bodies[0].shape_matching: must be greater than 0 and at most 1 (got 0)"},
    {SOFT_B(", 'spokes': false") ", 'pins': [{'point': 's.center'}]}",
     "test.json: pins[0].point: point \"s.center\" does not exist (after \"s.\" write an index "
     "from 0 to 15, first or last)"},
    {SOFT(", 'pins': ['center']"),
     "test.json: bodies[0].pins[0]: expected \"first\", \"last\" or a point index, got "
     "\"center\""},
    /* hair */
    {HAIR(""), "test.json: bodies[0]: missing required key \"from\" (or give \"arc\")"},
    {HAIR(", 'from': [0, 0]"),
     "test.json: bodies[0]: missing required key \"to\" (it goes with \"from\")"},
    {HAIR(", 'from': [1, 1], 'to': [1, 1]"),
     "test.json: bodies[0].to: must differ from \"from\" (the strands would share one root)"},
    {HAIR(", 'from': [0, 0], 'to': [1, 0], 'arc': {}"),
     "test.json: bodies[0].arc: give either \"from\" or \"arc\", not both"},
    {HAIR(", 'arc': {'center': [0, 0], 'radius': 1, 'start': 0}"),
     "test.json: bodies[0].arc: missing required key \"end\""},
    {HAIR(", 'arc': {'center': [0, 0], 'radius': 0, 'start': 0, 'end': 1}"),
     "test.json: bodies[0].arc.radius: must be greater than 0 (got 0)"},
    {HAIR(", 'arc': {'center': [0, 0], 'radius': 1, 'start': 1, 'end': 1}"),
     "test.json: bodies[0].arc.end: must differ from \"start\" (the strands would share one "
     "root)"},
    {HAIR(", 'arc': [0, 0]"), "test.json: bodies[0].arc: expected an object, got an array"},
    {HAIR(", 'from': [0, 0], 'to': [1, 0], 'direction': [0, 0]"),
     "test.json: bodies[0].direction: must not be the zero vector"},
    {HAIR(", 'from': [0, 0], 'to': [1, 0], 'length': 2"),
     "test.json: bodies[0].length: duplicate key"},
    {HEAD "'bodies': [{'name': 'h', 'type': 'hair', 'strands': 3, 'points': 1, 'length': 1, "
          "'mass': 1}]}",
     "test.json: bodies[0].points: must be at least 2 (got 1)"},
    {HEAD "'bodies': [{'name': 'h', 'type': 'hair', 'strands': 0, 'points': 3, 'length': 1, "
          "'mass': 1}]}",
     "test.json: bodies[0].strands: must be at least 1 (got 0)"},
    {HAIR(", 'from': [0, 0], 'to': [1, 0], 'pins': ['root']"),
     "test.json: bodies[0].pins[0]: \"root\" is not a point of hair (did you mean \"roots\"?)"},
    {HAIR(", 'from': [0, 0], 'to': [1, 0], 'pins': ['roots', 'first']"),
     "test.json: bodies[0].pins[1]: point \"h.0\" is already pinned by bodies[0].pins[0]"},
    {HAIR_B(", 'from': [0, 0], 'to': [1, 0]") ", 'links': [{'a': 'h.1.5', 'b': 0}]}",
     "test.json: links[0].a: point \"h.1.5\" does not exist (h has rows 0 to 2 and columns 0 "
     "to 4)"},
    /* every type checks the common keys */
    {HEAD "'bodies': [{'name': 'h', 'type': 'hair', 'strands': 1, 'points': 2, 'length': 1}]}",
     "test.json: bodies[0]: missing required key \"mass\""},
    {RAG(", 'radius': -1"), "test.json: bodies[0].radius: must be at least 0 (got -1)"},
    {SOFT(", 'stiffness': 2"),
     "test.json: bodies[0].stiffness: must be greater than 0 and at most 1 (got 2)"},
    {CLOTH(", 'spacing': 1, 'break_stretch': 0.5"),
     "test.json: bodies[0].break_stretch: must be greater than 1 (got 0.5)"},
    {HEAD "'bodies': [{'name': 'a b', 'type': 'ragdoll', 'mass': 1}]}",
     "test.json: bodies[0].name: \"a b\" is not a valid body name (use letters, digits, '_' "
     "and '-')"},
};

START_TEST(test_bad_input)
{
    struct catena_error err;
    const char *text = q(bad_inputs[_i].json);
    struct scenario *sc = scenario_parse("test.json", text, strlen(text), NULL, 0, &err);
    ck_assert_msg(sc == NULL, "loaded a bad scenario: %s", bad_inputs[_i].json);
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_str_eq(err.msg, bad_inputs[_i].msg);
}
END_TEST

static Suite *bodies_suite(void)
{
    Suite *s = suite_create("bodies");
    TCase *tc = tcase_create("rope");
    tcase_add_test(tc, test_rope_sag_is_arc);
    tcase_add_test(tc, test_rope_catenary_differs_from_sag);
    tcase_add_test(tc, test_rope_straight_and_bend);
    suite_add_tcase(s, tc);
    tc = tcase_create("cloth");
    tcase_add_test(tc, test_cloth_topology);
    tcase_add_test(tc, test_cloth_switches);
    tcase_add_test(tc, test_cloth_plane_and_pins);
    tcase_add_test(tc, test_cloth_pin_sets);
    tcase_add_test(tc, test_cloth_uv);
    suite_add_tcase(s, tc);
    tc = tcase_create("ragdoll");
    tcase_add_test(tc, test_ragdoll_topology);
    tcase_add_test(tc, test_ragdoll_poses_and_angle);
    tcase_add_test(tc, test_ragdoll_joint_table);
    tcase_add_test(tc, test_ragdoll_3d);
    suite_add_tcase(s, tc);
    tc = tcase_create("softbody");
    tcase_add_test(tc, test_softbody_ring);
    tcase_add_test(tc, test_softbody_ring_bare);
    tcase_add_test(tc, test_softbody_sphere);
    tcase_add_test(tc, test_softbody_ring_3d);
    suite_add_tcase(s, tc);
    tc = tcase_create("hair");
    tcase_add_test(tc, test_hair_line);
    tcase_add_test(tc, test_hair_arc);
    suite_add_tcase(s, tc);
    tc = tcase_create("references");
    tcase_add_test(tc, test_references);
    tcase_add_test(tc, test_pin_names_match);
    suite_add_tcase(s, tc);
    tc = tcase_create("physics");
    tcase_add_loop_test(tc, test_ragdoll_limits_hold, 0, 3);
    tcase_add_loop_test(tc, test_ragdoll_limits_need_projection, 0, 3);
    tcase_add_loop_test(tc, test_ragdoll_limits_hold_on_ground, 0, 3);
    tcase_add_loop_test(tc, test_area_held_hanging, 0, 3);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad");
    tcase_add_loop_test(tc, test_bad_input, 0, sizeof bad_inputs / sizeof *bad_inputs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(bodies_suite());
}
