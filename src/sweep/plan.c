/* A sweep's plan (sweep/sweep.h): freeing it, and each run's directory and command, as the
 * plan's readers (sweep/load.c, sweep/plan_json.c) and its users (run here, emitted as jobs,
 * collected) all need them. */
#include "sweep/sweep.h"

#include <stdlib.h>

#include "core/path.h"
#include "sweep/internal.h"

void sweep_strings_free(char **s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

void sweep_plan_destroy(struct sweep_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nruns; i++) {
        free(p->runs[i].name);
        sweep_strings_free(p->runs[i].set, p->naxes);
        sweep_strings_free(p->runs[i].cells, p->naxes);
    }
    free(p->runs);
    sweep_strings_free(p->paths, p->naxes);
    sweep_strings_free(p->fixed, p->nfixed);
    sweep_strings_free(p->collect, p->ncollect);
    free(p->sweep);
    free(p->base);
    free(p->version);
    free(p);
}

char *sweep_run_dir(const struct sweep_plan *p, const char *dir, size_t i)
{
    char *runs = path_join(dir, "runs");
    char *d = runs ? path_join(runs, p->runs[i].name) : NULL;
    free(runs);
    return d;
}

char **sweep_run_argv(const struct sweep_plan *p, const char *dir, const char *program, size_t i,
                      char **run_dir)
{
    char **argv = malloc((2 * (p->nfixed + p->naxes) + 7) * sizeof *argv);
    *run_dir = sweep_run_dir(p, dir, i);
    if (!argv || !*run_dir) {
        free(argv);
        free(*run_dir);
        *run_dir = NULL;
        return NULL;
    }
    size_t n = 0;
    argv[n++] = (char *)program;
    argv[n++] = "run";
    argv[n++] = p->base;
    for (size_t f = 0; f < p->nfixed; f++) {
        argv[n++] = "--set";
        argv[n++] = p->fixed[f];
    }
    for (size_t a = 0; a < p->naxes; a++) {
        argv[n++] = "--set";
        argv[n++] = p->runs[i].set[a];
    }
    argv[n++] = "-o";
    argv[n++] = *run_dir;
    argv[n++] = "-q";
    argv[n] = NULL;
    return argv;
}
