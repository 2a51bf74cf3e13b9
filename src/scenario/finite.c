/* The loader's section before the set-up warnings: what the model derives from finite
 * inputs and could still not hold (issue 20). A run would otherwise meet it as a NaN at step 0
 * ("diverged ... (-nan, -nan)", files written) or, worse, not at all: a point of mass 1e-320 (whose
 * inverse overflows) never moves. Each check names the input at fault by its JSON path, found from
 * where the point or link came from: points[i] and links[i] come in file order, each
 * bodies[i] owns a range, and cuts reserve the rest. */
#include <math.h>
#include <stdio.h>

#include "scenario/loader.h"
#include "scenario/scenario.h"

/* Where point i came from: points[i].key for a listed point, else its body. */
static void point_origin(const struct loader *ld, size_t i, const char *key, char p[SJSON_PATH_MAX])
{
    const struct model *m = ld->m;
    if (i < ld->points_listed) {
        snprintf(p, SJSON_PATH_MAX, "points[%zu].%s", i, key);
        return;
    }
    for (size_t b = 0; b < m->nbodies; b++)
        if (i >= m->bodies[b].first_point && i - m->bodies[b].first_point < m->bodies[b].npoints) {
            snprintf(p, SJSON_PATH_MAX, "bodies[%zu]", b);
            return;
        }
    snprintf(p, SJSON_PATH_MAX, "events");
}

/* Where link i came from. */
static void link_origin(const struct loader *ld, size_t i, char p[SJSON_PATH_MAX])
{
    const struct model *m = ld->m;
    if (i >= ld->links_first && i < ld->links_end) {
        snprintf(p, SJSON_PATH_MAX, "links[%zu]", i - ld->links_first);
        return;
    }
    for (size_t b = 0; b < m->nbodies; b++)
        if (i >= m->bodies[b].first_link && i - m->bodies[b].first_link < m->bodies[b].nlinks) {
            snprintf(p, SJSON_PATH_MAX, "bodies[%zu]", b);
            return;
        }
    snprintf(p, SJSON_PATH_MAX, "events");
}

/* Every point starts where a run would not already count it as diverged, with a mass whose
 * inverse is finite. */
static int check_points(struct loader *ld)
{
    const struct model *m = ld->m;
    char p[SJSON_PATH_MAX];
    for (size_t i = 0; i < m->npoints; i++) {
        const vec3 x = m->x0[i];
        if (!v3_isfinite(x) || fabs(x.x) > MODEL_ABSURD || fabs(x.y) > MODEL_ABSURD ||
            fabs(x.z) > MODEL_ABSURD) {
            point_origin(ld, i, "p", p);
            return sjson_error(&ld->cx, p,
                               "point %zu starts at (%g, %g, %g), beyond %g m from the origin, "
                               "where a run counts as diverged",
                               i, x.x, x.y, x.z, MODEL_ABSURD);
        }
        if (!isfinite(m->inv_mass[i])) {
            point_origin(ld, i, "mass", p);
            return sjson_error(&ld->cx, p,
                               "point %zu has a mass of %g kg, too small: its inverse overflows", i,
                               m->mass[i]);
        }
    }
    return 0;
}

/* XPBD divides a compliance by the substep squared. */
static int compliance_ok(const struct loader *ld, double compliance)
{
    const double h = ld->m->dt / ld->m->substeps;
    return ld->m->method != METHOD_XPBD || isfinite(compliance / (h * h));
}

static int check_links(struct loader *ld)
{
    const struct model *m = ld->m;
    char p[SJSON_PATH_MAX];
    for (size_t i = 0; i < m->nlinks; i++) {
        const struct link *l = &m->links[i];
        const int rest_ok = isfinite(l->rest) && l->rest > 0;
        if (rest_ok && compliance_ok(ld, l->compliance))
            continue;
        link_origin(ld, i, p);
        if (!rest_ok)
            return sjson_error(&ld->cx, p,
                               "link %zu has a rest length of %g m, which a run "
                               "cannot divide by",
                               i, l->rest);
        return sjson_error(&ld->cx, p,
                           "link %zu's compliance %g m/N over the substep squared overflows", i,
                           l->compliance);
    }
    return 0;
}

/* The constraint families beyond links: their compliances, as for links. */
static int check_compliances(struct loader *ld)
{
    const struct model *m = ld->m;
    for (size_t i = 0; i < m->nangles; i++)
        if (!compliance_ok(ld, m->angles[i].compliance))
            return sjson_error(&ld->cx, "angles",
                               "angle %zu's compliance over the substep "
                               "squared overflows",
                               i);
    for (size_t i = 0; i < m->nareas; i++)
        if (!compliance_ok(ld, m->areas[i].compliance) || !isfinite(m->areas[i].rest))
            return sjson_error(&ld->cx, "areas",
                               "area %zu's rest size or compliance over the "
                               "substep squared overflows",
                               i);
    for (size_t i = 0; i < m->nattachments; i++)
        if (!compliance_ok(ld, m->attachments[i].compliance))
            return sjson_error(&ld->cx, "attachments",
                               "attachment %zu's compliance over the "
                               "substep squared overflows",
                               i);
    return 0;
}

int scenario_check_model(struct loader *ld)
{
    const struct model *m = ld->m;
    if (check_points(ld) || check_links(ld) || check_compliances(ld))
        return CATENA_EINPUT;
    ld->sc->memory = loader_memory(ld, (double)m->npoints, (double)m->nlinks, (double)m->nfaces);
    return 0;
}
