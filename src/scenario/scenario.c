/* A scenario's lifetime (see scenario/scenario.h); loading one is scenario/load.c's. */
#include "scenario/scenario.h"

#include <stdlib.h>

#include "core/memory.h"

struct scenario *scenario_create(struct model *m)
{
    struct scenario *sc = calloc(1, sizeof *sc);
    if (!m)
        m = model_create();
    if (!sc || !m) {
        free(sc);
        model_destroy(m);
        return NULL;
    }
    sc->model = m;
    sc->output = scenario_output_default();
    return sc;
}

struct scenario_options scenario_options_default(void)
{
    return (struct scenario_options){.max_points = SCENARIO_MAX_POINTS,
                                     .max_memory = memory_available()};
}

void scenario_destroy(struct scenario *sc)
{
    if (!sc)
        return;
    model_destroy(sc->model);
    free(sc->output.render);
    struct scenario_provenance *p = &sc->provenance;
    free(p->name);
    free(p->source);
    for (size_t i = 0; i < p->noverrides; i++)
        free(p->overrides[i]);
    free(p->overrides);
    free(p->json);
    check_free_all(&sc->checks);
    warnings_clear(&sc->warnings);
    free(sc);
}
