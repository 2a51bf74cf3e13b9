/* The events timeline of a run: the scheduled events of the model (cut, release, pin, drag,
 * reel, velocity, impulse, set, teleport), applied between steps, and the things that happen
 * on their own (breaks, the end of a reel), all logged to events.csv. The model stays const
 * inside solver_step: what events change lives in the run's working copy of the model
 * (link ends and rest lengths, masses, radii, pins, gravity, wind and solver parameters),
 * which the run steps instead of the scenario's model. */
#ifndef CATENA_EVENTS_H
#define CATENA_EVENTS_H

#include "core/error.h"
#include "model/model.h"
#include "solver/state.h"

/* Kinds of events.csv rows, also the keys of summary.json's "events" object. */
enum event_log_kind {
    LOG_BREAK,
    LOG_CUT,
    LOG_RELEASE,
    LOG_PIN,
    LOG_DRAG,
    LOG_REEL,
    LOG_REEL_END,
    LOG_VELOCITY,
    LOG_IMPULSE,
    LOG_SET,
    LOG_TELEPORT,
    LOG_KINDS,
};

/* "break", "cut", ..., indexed by enum event_log_kind. */
extern const char *const events_log_names[];

struct events;

/* The run's working copy of m, with no events applied and no log open. NULL on OOM. */
struct events *events_create(const struct model *m);

/* NULL is a no-op. Drops an open log. */
void events_destroy(struct events *e);

/* The working copy: step it (solver_step) and create its state from it. */
const struct model *events_model(const struct events *e);

/* Opens DIR/events.csv; without it the timeline still runs, unlogged (tests). */
int events_log_open(struct events *e, const char *dir, struct catena_error *err);

/* Commits events.csv (nothing when no log is open). */
int events_log_commit(struct events *e, struct catena_error *err);

/* At the boundary after s->step steps (0: before the first): logs the links that broke in
 * the step just done, applies the events scheduled for this boundary in order, then
 * advances the running reels by one step. */
void events_boundary(struct events *e, struct state *s);

/* Whether anything is still to happen: events ahead or a reel still running. */
int events_pending(const struct events *e);

/* Rows logged so far, by kind. */
long events_count(const struct events *e, enum event_log_kind kind);

#endif
