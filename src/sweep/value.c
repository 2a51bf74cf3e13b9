/* JSON values of a sweep file as text (sweep/internal.h): the cells of sweep.csv and run names,
 * and the VALUE of --set PATH=VALUE. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "sweep/internal.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/fmt_double.h"

char *sweep_value_cell(const cJSON *v)
{
    if (cJSON_IsNumber(v)) {
        char num[FMT_DOUBLE_SIZE];
        fmt_double(num, v->valuedouble);
        return strdup(num);
    }
    if (cJSON_IsString(v))
        return strdup(v->valuestring);
    return cJSON_PrintUnformatted(v);
}

char *sweep_value_set(const cJSON *v)
{
    if (cJSON_IsString(v)) {
        const char *end = NULL;
        cJSON *parsed = cJSON_ParseWithOpts(v->valuestring, &end, 1);
        cJSON_Delete(parsed);
        if (parsed)
            return cJSON_PrintUnformatted(v);
    }
    return sweep_value_cell(v);
}
