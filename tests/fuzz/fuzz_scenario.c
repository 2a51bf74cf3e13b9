/* Fuzz target for the scenario loader: bytes -> scenario_parse_opts -> a few solver steps
 * and the validate description. Leading lines "#PATH=VALUE" are --set overrides, so the
 * override code is fuzzed too. Whatever the input, the loader must return a model or a
 * one-line message that names the file, and a loaded model must step without undefined
 * behaviour, and so must the reports it asks for; anything else aborts (a finding). Models are
 * capped (FUZZ_MAX_POINTS, and steps, substeps, iterations clamped) so that every input runs in
 * milliseconds. Any section or key a feature adds to the loader is reached through the same entry
 * point. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/describe.h"
#include "run/events.h"
#include "model/model.h"
#include "analysis/report_catenary.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"

enum {
    FUZZ_MAX_POINTS = 10000, /* the loader refuses bigger models (its size message) */
    FUZZ_STEPS = 50,
    FUZZ_SUBSTEPS = 4,
    FUZZ_ITERATIONS = 50,
    FUZZ_MAX_OVERRIDES = 8,
};

/* Constraint projections per input, about: a few milliseconds. The steps are cut to fit
 * (at least one step is always taken). */
#define FUZZ_WORK 2e6

#define LABEL "fuzz.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A refusal is CATENA_EINPUT with one line "LABEL...", or "--set ..." for an override.
 * (CATENA_EFAIL means out of memory, which cannot happen here: ASan aborts first.) */
static void check_message(const struct catena_error *err)
{
    const char *msg = err->msg;
    const int named = strncmp(msg, LABEL, strlen(LABEL)) == 0 || strncmp(msg, "--set ", 6) == 0;
    if (err->code == CATENA_EINPUT && named && !strchr(msg, '\n') &&
        strlen(msg) > strlen(LABEL) + 2)
        return;
    fprintf(stderr, "fuzz: bad message (code %d): %s\n", err->code, msg);
    abort();
}

/* The reports a completed run would write (run/run.c), built on the final state; their text
 * goes to /dev/null. A report that cannot be made must say why on one line. */
static void report_model(const struct model *m, unsigned reports, const struct state *s, FILE *null)
{
    if (!(reports & REPORT_CATENARY))
        return;
    const struct report_catenary_options ro = {.label = LABEL, .first = -1, .last = -1};
    struct report_catenary *rep = NULL;
    struct catena_error err;
    if (report_catenary_build(m, s->x, s->step, s->t, &ro, &rep, &err) != CATENA_OK) {
        if (strncmp(err.msg, LABEL, strlen(LABEL)) != 0 || strchr(err.msg, '\n')) {
            fprintf(stderr, "fuzz: bad report message (code %d): %s\n", err.code, err.msg);
            abort();
        }
        return;
    }
    if (null)
        report_catenary_text(null, rep, LABEL);
    free(report_catenary_json(rep, LABEL));
    report_catenary_destroy(rep);
}

/* Whether a step of the working copy stays cheap: a "set" event may raise the solver's
 * iterations or substeps past the caps, and then stepping stops. */
static int affordable(const struct model *lm)
{
    return lm->iterations <= FUZZ_ITERATIONS && lm->substeps <= FUZZ_SUBSTEPS;
}

/* Steps the model as run/run.c does (events at every step boundary, on the run's working copy),
 * its run clamped, stopping at a divergence; then makes the reports of a completed run. */
static void step_model(struct scenario *sc, FILE *null)
{
    struct model *m = sc->model;
    if (m->steps > FUZZ_STEPS)
        m->steps = FUZZ_STEPS;
    if (m->substeps > FUZZ_SUBSTEPS)
        m->substeps = FUZZ_SUBSTEPS;
    if (m->iterations > FUZZ_ITERATIONS)
        m->iterations = FUZZ_ITERATIONS;
    const double per_step = (double)(m->npoints + m->nlinks + m->nangles + m->narea_index +
                                     m->nfaces + m->nshape_index + m->nattachments + 1) *
                            m->substeps * m->iterations;
    if (m->steps > 1 && m->steps * per_step > FUZZ_WORK)
        m->steps = per_step >= FUZZ_WORK ? 1 : (long)(FUZZ_WORK / per_step);
    struct events *ev = events_create(m);
    const struct model *lm = ev ? events_model(ev) : NULL;
    struct state *s = lm ? state_create(lm) : NULL;
    if (s && solver_find_diverged(s) < 0) {
        events_boundary(ev, s);
        while (s->step < lm->steps && affordable(lm) && solver_find_diverged(s) < 0) {
            solver_step(lm, s);
            if (solver_find_diverged(s) < 0)
                events_boundary(ev, s);
        }
        (void)solver_max_stretch(lm, s);
        if (solver_find_diverged(s) < 0)
            report_model(lm, sc->output.reports, s, null);
    }
    state_destroy(s);
    events_destroy(ev);
}

/* Splits "#PATH=VALUE\n" lines off the front into overrides (strings in *store). */
static size_t take_overrides(const char **text, size_t *len, char **store,
                             struct scenario_override *ov)
{
    size_t n = 0;
    while (*len > 0 && **text == '#' && n < FUZZ_MAX_OVERRIDES) {
        const char *nl = memchr(*text, '\n', *len);
        const size_t line = nl ? (size_t)(nl - *text) : *len;
        char *s = strndup(*text + 1, line - 1);
        char *eq = s ? strchr(s, '=') : NULL;
        if (!eq || eq == s) { /* main.c refuses these before the loader sees them */
            free(s);
        } else {
            *eq = '\0';
            store[n] = s;
            ov[n] = (struct scenario_override){.path = s, .value = eq + 1};
            n++;
        }
        *text += line + (nl != NULL);
        *len -= line + (nl != NULL);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t len = size;
    char *store[FUZZ_MAX_OVERRIDES] = {0};
    struct scenario_override ov[FUZZ_MAX_OVERRIDES];
    struct scenario_options o = scenario_options_default();
    o.nov = take_overrides(&text, &len, store, ov);
    o.ov = ov;
    o.max_points = FUZZ_MAX_POINTS;
    struct catena_error err;
    struct scenario *sc = scenario_parse_opts(LABEL, text, len, &o, &err);
    if (!sc) {
        check_message(&err);
    } else {
        FILE *null = fopen("/dev/null", "w");
        if (null)
            describe_scenario(null, sc);
        step_model(sc, null);
        if (null)
            fclose(null);
        scenario_destroy(sc);
    }
    for (size_t i = 0; i < o.nov; i++)
        free(store[i]);
    return 0;
}
