/* topology.csv: how a run's links and pins change while it runs, so that a finished run
 * holds, for every recorded step, which links are live, what they join at what rest length,
 * which points are held and how large each point is: what catena render needs besides
 * positions. Rows are changes
 * against the scenario's own model, written at the step boundary where they take effect
 * (after that boundary's events, so the frame recorded at STEP shows them):
 *     step,kind,index,a,b,value
 *     0,dead,40,,,            reserved link 40 (the far half of a future cut) is not live
 *     152,link,20,20,41,0.15  link 20 is live and joins points 20 and 41 at rest 0.15 m
 *     152,link,40,42,21,0.15
 *     152,w,20,,,1.6          point 20's inverse mass is 1.6 1/kg (0: held)
 *     152,radius,41,,,0.05    point 41's radius is 0.05 m (a cut's new end takes the radius
 *                             of the end it splits from)
 *     300,dead,7,,,           link 7 broke
 * catena run writes it when something can change: a breakable link, events, or links
 * reserved for cuts. Without it, the model holds for the whole run. */
#ifndef CATENA_TOPOLOGY_H
#define CATENA_TOPOLOGY_H

#include <stdio.h>

#include "core/error.h"
#include "model/model.h"

/* topology.csv's first line (without its newline). */
#define TOPOLOGY_HEADER "step,kind,index,a,b,value"

/* 1 when some link or pin of m can change during a run. */
int topology_can_change(const struct model *m);

struct topology_log;

/* Opens DIR/topology.csv for a run of m (the scenario's model, the baseline). Returns NULL
 * with err->code CATENA_OK when nothing can change (no file), NULL with an error code on
 * failure. */
struct topology_log *topology_log_open(const char *dir, const struct model *m,
                                       struct catena_error *err);

/* Writes what differs, in lm (the run's working model) and s, from what was last written,
 * as rows at step `step`; alive[] holds which links live. Allocates nothing. */
void topology_log_step(struct topology_log *t, const struct model *lm, const unsigned char *alive,
                       long step);

/* Commits the file and frees t. */
int topology_log_close(struct topology_log *t, struct catena_error *err);

/* Removes the file and frees t; NULL is a no-op. */
void topology_log_abort(struct topology_log *t);

/* The links, live flags, inverse masses and radii at a step, replayed from topology.csv. */
struct topology {
    const struct model *m; /* the baseline */
    struct link *links;    /* [nlinks] a copy of m's, ends and rest lengths as they are now */
    unsigned char *alive;  /* [nlinks] live */
    double *inv_mass;      /* [npoints] 1/kg, 0 held */
    double *radius;        /* [npoints] m */
    FILE *fp;              /* topology.csv, or NULL when the run has none */
    char *path;
    long line;        /* of the row read ahead */
    long next_step;   /* its step; LONG_MAX when none is left */
    char row[256];    /* the row read ahead */
    unsigned changed; /* bumped by every change applied */
};

/* Starts a replay of RUN_DIR/topology.csv at the baseline m. CATENA_EINPUT when m says
 * something can change but the file is missing; CATENA_EFAIL on OOM. */
int topology_open(struct topology *t, const struct model *m, const char *run_dir,
                  struct catena_error *err);

/* Applies every row whose step is at most step. CATENA_EINPUT for a malformed row (the
 * message names the file and line). */
int topology_advance(struct topology *t, double step, struct catena_error *err);

/* Closes the file and frees the arrays; safe on a topology never opened. */
void topology_close(struct topology *t);

#endif
