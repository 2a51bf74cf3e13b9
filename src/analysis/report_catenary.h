/* The catenary report (catena(1), CATENARY REPORT): for each chosen chain of one frame, the
 * analytic continuous catenary through its ends with its rest length, the exact equilibrium of
 * the discrete chain (its rest lengths, point masses and, under XPBD, compliances), a
 * least-squares catenary fit, and the errors between the three, computed with
 * analysis/catenary.h in the vertical plane through the chain's ends. */
#ifndef CATENA_REPORT_CATENARY_H
#define CATENA_REPORT_CATENARY_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/catenary.h"
#include "core/error.h"
#include "model/model.h"
#include "core/vec.h"
#include "scenario/scenario.h"

/* Which chains: every rope body with both ends pinned (the default), one body, or the
 * points first..last joined by links. */
struct report_catenary_options {
    const char *label;    /* names the run or trajectory in messages ("LABEL: ...") */
    const char *scenario; /* the scenario's name, which catenary.json gives; NULL: none */
    const char *body;     /* a rope body's name, or NULL */
    long first, last;     /* --points I..J; first < 0 when not given */
};

/* How the chain's weight is spread along it. The continuous catenary is the shape of a chain
 * of uniform weight per length; each interior point k carries its mass over half its two
 * links, (rest_{k-1} + rest_k) / 2. When that varies (a heavy point, links of unequal rest
 * length with equal masses), the continuous curve is not the chain's reference: the discrete
 * reference, which has the actual masses, differs from it by the effect of those point loads,
 * not only by the discretisation. */
struct report_mass {
    int uniform;     /* 1: every interior point within 1e-9 of the mean */
    double min, max; /* kg/m, over the interior points */
    double mean;     /* kg/m: their mass over their share of the rest length */
    size_t heaviest; /* global index of the point with the most per length */
};

/* One chain of n = nlinks + 1 points. Plane coordinates (analysis/catenary.h): x horizontal
 * from the first end toward the last, y up, z out of the plane. */
struct report_chain {
    char *body;         /* the body's name, or NULL for a chain given by points */
    size_t first, last; /* global indices of its end points; the chain is first..last */
    size_t nlinks;      /* >= 2 */
    int extensible;     /* 1: the discrete reference stretches by the XPBD compliances */
    struct catenary_plane plane;
    double span;   /* horizontal distance between the ends, m */
    double chord;  /* straight distance between the ends, m */
    double length; /* sum of the rest lengths, m */

    struct catenary analytic; /* through the ends with the rest length */
    double analytic_sag;      /* m, see catenary_sag */
    struct catenary_chain_result discrete;
    double discrete_sag;     /* m, the largest at a joint */
    struct catenary_fit fit; /* free fit to the simulated points */
    struct report_mass mass; /* the weight per length along it */

    struct catenary_stats total;          /* simulated vs analytic */
    struct catenary_stats discretisation; /* discrete vs analytic (with mass.uniform 0, the
                                             effect of the point loads too) */
    struct catenary_stats solver;         /* simulated vs discrete */
    double sag;                           /* simulated sag, m, the largest at a joint */
    double polyline;                      /* simulated polyline length, m */
    struct catenary_stretch stretch;      /* argmax is the chain's link index (0..nlinks-1) */
    double out_of_plane;                  /* largest |z| of a simulated point, m */

    vec3 *sim;   /* [n] simulated points, plane coordinates */
    vec3 *ref;   /* [n] the discrete equilibrium */
    vec3 *curve; /* [n] the analytic curve's points at the joints' rest arc lengths */
};

struct report_catenary {
    const struct model *m; /* the model the report describes (not owned) */
    const char *scenario;  /* its scenario's name, or NULL (not owned) */
    long step;             /* the frame's step */
    double time;           /* its simulated time, s (NAN when unknown) */
    size_t nchains;
    struct report_chain *chains;
};

/* Builds the report for the positions x[m->npoints] of one frame. CATENA_EINPUT, with the
 * message naming the label and what to pass instead, when no chain qualifies or the chosen
 * one is not a chain that can hang (ends vertically above each other, no slack, a pinned
 * interior point, no gravity, a position not finite). The caller frees *out. */
int report_catenary_build(const struct model *m, const vec3 *x, long step, double time,
                          const struct report_catenary_options *o, struct report_catenary **out,
                          struct catena_error *err);

/* Reads the frame of trajectory `path` (a file, or a run directory of the scenario sc:
 * traj_read_open) at `step`, or the last one when step < 0, into x[npoints of sc's model];
 * *step_out and *time_out get its step and time. A trajectory without steps (NPY) counts its
 * frames every output.every steps. CATENA_EINPUT when the file does not match the model or
 * holds no frame at that step. */
int report_catenary_read_frame(const char *path, const struct scenario *sc, long step, vec3 *x,
                               long *step_out, double *time_out, struct catena_error *err);

/* NULL is a no-op. */
void report_catenary_destroy(struct report_catenary *r);

/* catenary.txt: the report for people. `source` names where the frame came from. */
void report_catenary_text(FILE *f, const struct report_catenary *r, const char *source);

/* catenary.json as text (keys in catena(1)); the caller frees it. NULL on OOM. */
char *report_catenary_json(const struct report_catenary *r, const char *source);

/* Draws the report as a PNG (analysis/report_catenary_plot.c) into DIR/NAME: per chain, the
 * simulated points, the analytic curve and the discrete reference, and below them the three
 * point-by-point distances on their own scale. */
int report_catenary_plot(const struct report_catenary *r, const char *dir, const char *name,
                         struct catena_error *err);

/* Writes catenary.json and catenary.txt into dir (each whole or not at all). */
int report_catenary_write(const char *dir, const struct report_catenary *r, const char *source,
                          struct catena_error *err);

#endif
