/* What a run writes (see scenario/output.h): the defaults, and the scenario's "output"
 * section but for output.render (scenario/output_render.c): the trajectory formats, every
 * (the steps recorded), metrics (metrics.csv) and the reports a run writes into its
 * directory when it ends ("catenary": the catenary fit of analysis/report_catenary.h). */
#include "scenario/output.h"

#include <stdlib.h>

#include "scenario/loader.h"

// clang-format off
const struct sjson_key scenario_output_keys[] = {
    {"trajectory", 0},
    {"every", 0},
    {"render", 0},
    {"metrics", 0},
    {"reports", 0},
    {NULL, 0},
};
// clang-format on

/* Names as the file writes them: entry i is the bit 1 << i of enum output_format, and of
 * enum report_kind. */
const char *const scenario_format_names[] = {"csv", "json", "npy", NULL};
const char *const scenario_report_names[] = {"catenary", NULL};

struct scenario_output scenario_output_default(void)
{
    return (struct scenario_output){.formats = FORMAT_CSV, .every = 1, .metrics = 1};
}

int scenario_output_enable_render(struct scenario_output *o, struct catena_error *err)
{
    if (!o->render) {
        if (!(o->render = malloc(sizeof *o->render)))
            return error_set(err, CATENA_EFAIL, "out of memory");
        *o->render = render_opts_default();
    }
    if (!o->formats)
        o->formats = FORMAT_NPY;
    return CATENA_OK;
}

/* output.trajectory: a list of format names, none twice, into bits. */
static int read_formats(struct loader *ld, const cJSON *list, unsigned *bits)
{
    *bits = 0;
    size_t i = 0;
    for (const cJSON *e = list->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        int k = 0;
        if (sjson_enum(&ld->cx, e, sjson_path_index(p, "output.trajectory", i),
                       scenario_format_names, &k))
            return CATENA_EINPUT;
        if (*bits & (1u << k))
            return sjson_error(&ld->cx, p, "\"%s\" is listed twice", scenario_format_names[k]);
        *bits |= 1u << k;
    }
    return 0;
}

int scenario_read_output(struct loader *ld)
{
    const cJSON *o, *traj = NULL;
    long long every = ld->out->every;
    if (sjson_object(&ld->cx, ld->root, "", "output", scenario_output_keys, &o) ||
        sjson_array(&ld->cx, o, "output", "trajectory", &traj) ||
        sjson_get_integer(&ld->cx, o, "output", "every", 1, SCENARIO_MAX_COUNT, &every) ||
        (traj && read_formats(ld, traj, &ld->out->formats)) ||
        loader_get_bool(ld, o, "output", "metrics", &ld->out->metrics))
        return CATENA_EINPUT;
    ld->out->every = (long)every;
    return 0;
}

static int has_hanging_rope(const struct model *m)
{
    for (size_t i = 0; i < m->nbodies; i++)
        if (model_body_hangs(m, &m->bodies[i]))
            return 1;
    return 0;
}

int scenario_read_reports(struct loader *ld)
{
    const cJSON *list;
    if (sjson_array(&ld->cx, sjson_child(ld->root, "output"), "output", "reports", &list))
        return CATENA_EINPUT;
    unsigned reports = 0;
    size_t i = 0;
    for (const cJSON *e = list ? list->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        int r = 0;
        if (sjson_enum(&ld->cx, e, sjson_path_index(p, "output.reports", i), scenario_report_names,
                       &r))
            return CATENA_EINPUT;
        if (reports & (1u << r))
            return sjson_error(&ld->cx, p, "\"%s\" is listed twice", scenario_report_names[r]);
        reports |= 1u << r;
        if ((1u << r) == REPORT_CATENARY && !has_hanging_rope(ld->m))
            return sjson_error(&ld->cx, p,
                               "the catenary report needs a rope body of at least 2 segments "
                               "with both ends pinned (pins: [\"first\", \"last\"]); this "
                               "scenario has none");
    }
    ld->out->reports = reports;
    return 0;
}
