/* output.reports: the analysis reports a run writes into its directory when it ends
 * (catena-scenario(5)); "catenary" is the catenary fit of analysis/report_catenary.h. */
#include "analysis/report_catenary.h"
#include "scenario/loader.h"

/* Report names as the file writes them; entry i is the bit 1 << i of enum report_kind. */
static const char *const report_names[] = {"catenary", NULL};

static int has_hanging_rope(const struct model *m)
{
    for (size_t i = 0; i < m->nbodies; i++)
        if (report_catenary_hangs(m, &m->bodies[i]))
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
        if (sjson_enum(&ld->cx, e, sjson_path_index(p, "output.reports", i), report_names, &r))
            return CATENA_EINPUT;
        if (reports & (1u << r))
            return sjson_error(&ld->cx, p, "\"%s\" is listed twice", report_names[r]);
        reports |= 1u << r;
        if ((1u << r) == REPORT_CATENARY && !has_hanging_rope(ld->m))
            return sjson_error(&ld->cx, p,
                               "the catenary report needs a rope body of at least 2 segments "
                               "with both ends pinned (pins: [\"first\", \"last\"]); this "
                               "scenario has none");
    }
    ld->m->reports = reports;
    return 0;
}
