/* A scenario's physics checks (its "checks" section, catena-scenario(5)): what a run of it
 * must show, asserted by `catena run` while it steps (run/checks.h evaluates them from the
 * metrics of each step). Kept beside the model, not in it: the solver never reads them.
 *
 * Glossary
 *   window  the steps a check looks at: from its first step to the end of the run, or the
 *           final state only ("at the end")
 *   limit   the bound the measured value must not exceed */
#ifndef CATENA_SCENARIO_CHECK_H
#define CATENA_SCENARIO_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "core/vec.h"

enum check_type {
    CHECK_MAX_STRETCH, /* the largest length / rest length over live links */
    CHECK_NO_BREAK,    /* no link breaks (a scheduled cut is not a break) */
    CHECK_SETTLED,     /* the largest speed of the free points, from a time on */
    CHECK_ENERGY,      /* the total energy's gain over its value at a time */
    CHECK_INSIDE,      /* one point within a box at a time */
    CHECK_TYPES,
};

/* The checks' "type" strings, indexed by enum check_type, NULL-terminated. */
extern const char *const check_type_names[];

struct check {
    char *name; /* owned; unique among the scenario's checks; its type's name unless given */
    enum check_type type;
    int at_end;     /* 1: the final state only (max_stretch "at": "end"; inside without a time) */
    long step;      /* the window's first step (settled "by", energy "from", inside "time" or
                       "step"); 0 for the others */
    double limit;   /* max_stretch: a ratio; settled: a speed, m/s; energy: a gain, J */
    uint32_t point; /* inside: the point */
    vec3 min, max;  /* inside: the box's lowest and highest corners, m */
};

/* The checks of a scenario: an array the scenario owns. */
struct scenario_checks {
    struct check *list;
    size_t n;
};

/* Frees the names and the array; leaves c empty. */
void check_free_all(struct scenario_checks *c);

#endif
