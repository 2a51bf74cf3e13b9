/* Scenario key of the direct projection (catena-scenario(5)): solver.global, true to solve the
 * distance links of each connected body at once (solver/direct/direct.h) under any method. */
#include "scenario/loader.h"

int scenario_read_direct(struct loader *ld)
{
    char p[SJSON_PATH_MAX];
    const cJSON *it = sjson_child(sjson_child(ld->root, "solver"), "global");
    if (!it)
        return 0;
    if (!cJSON_IsBool(it))
        return sjson_error(&ld->cx, sjson_path_key(p, "solver", "global"),
                           "expected true or false, got %s", sjson_type_name(it));
    ld->m->global = cJSON_IsTrue(it);
    return 0;
}
