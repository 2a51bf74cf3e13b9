/* The sweep file's schema (catena-sweep(5)), from the sweep loader's key table (sweep/load.c)
 * through scenario/schema.h. The paths under "set" and "vary" are the scenario's, checked
 * when the sweep loads its base scenario, so here they are any keys. */
#include "scenario/schema.h"
#include "sweep/internal.h"
#include "sweep/sweep.h"

static const struct schema_object sweep = {
    .name = "sweep",
    .tables = (const struct sjson_key *const[]){sweep_keys, NULL},
    .holds = (const struct schema_key *const[]){(const struct schema_key[]){
                                                    {"description", HOLD_STRING, NULL},
                                                    {"base", HOLD_STRING, NULL},
                                                    {"set", HOLD_OPEN, NULL},
                                                    {"vary", HOLD_LISTS, NULL},
                                                    {"mode", HOLD_ENUM, sweep_mode_names},
                                                    {"collect", HOLD_STRINGS, NULL},
                                                    {NULL, HOLD_ANY, NULL},
                                                },
                                                NULL},
};

cJSON *sweep_schema(struct catena_error *err)
{
    return schema_document(&sweep, "catena sweep file (catena-sweep(5))", err);
}
