/* breaks.csv: the links that broke during a run, one row each in the order they broke,
 *     step,time,link
 *     152,1.2666666666666666,20
 * (the link breaks in step 152: the frame recorded at step 152 no longer has it). catena run
 * writes it whenever the model has a breakable link, so that a finished run holds every
 * link's state at every recorded step and catena render can leave broken links out. */
#ifndef CATENA_BREAKS_H
#define CATENA_BREAKS_H

#include "error.h"
#include "model.h"
#include "state.h"

struct break_log;

/* 1 when some link of m can break (break_stretch or break_force set). */
int breaks_possible(const struct model *m);

/* Opens DIR/breaks.csv for a run starting from s. Returns NULL with err->code CATENA_OK when
 * m has no breakable link (nothing to write), NULL with an error code on failure. */
struct break_log *break_log_open(const char *dir, const struct model *m, const struct state *s,
                                 struct catena_error *err);

/* Appends the links that broke since the last call (in link order). Allocates nothing. */
int break_log_step(struct break_log *b, const struct state *s, struct catena_error *err);

/* Commits the file and frees b. */
int break_log_close(struct break_log *b, struct catena_error *err);

/* Removes the file and frees b; NULL is a no-op. */
void break_log_abort(struct break_log *b);

/* The step each link of m broke at, from DIR/breaks.csv: a malloc'd [nlinks] array the caller
 * frees, LONG_MAX for links that never broke (all of them when m has no breakable link; the
 * file is then not read). NULL with err set: CATENA_EINPUT when the file is missing or
 * malformed, CATENA_EFAIL on OOM. */
long *breaks_read(const char *dir, const struct model *m, struct catena_error *err);

#endif
