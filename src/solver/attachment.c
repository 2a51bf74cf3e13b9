/* Attachments: C = |x_b - x_a|, pulled to 0 along x_b - x_a and split by inverse mass, like a
 * distance constraint of rest 0 (Mueller et al. 2007; with compliance, Macklin et al. 2016),
 * so linear momentum is conserved. Points that already coincide are left alone. */
#include "solver/attachment.h"

#include "solver/distance.h"

void attachment_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s)
{
    for (size_t i = 0; i < m->nattachments; i++) {
        const struct attachment *at = &m->attachments[i];
        distance_pair(cx, s, at->a, at->b, 0.0, 0, at->stiffness, at->compliance,
                      &s->attach_lambda[i]);
    }
}
