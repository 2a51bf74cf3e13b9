/* JSON documents in catena's number form (see core/json_out.h). The numbers are raw cJSON items
 * holding fmt_double's text, which cJSON prints as it is. */
#include "core/json_out.h"

#include <math.h>
#include <stdlib.h>

#include "core/fmt_double.h"
#include "core/outfile.h"

cJSON *json_out_number(double x)
{
    if (!isfinite(x))
        return cJSON_CreateNull();
    char text[FMT_DOUBLE_SIZE];
    fmt_double(text, x);
    return cJSON_CreateRaw(text);
}

cJSON *json_out_add_number(cJSON *obj, const char *key, double x)
{
    cJSON *item = json_out_number(x);
    if (item && !cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        item = NULL;
    }
    return item;
}

int json_out_write(const char *dir, const char *name, const cJSON *root, struct catena_error *err)
{
    char *text = cJSON_Print(root);
    if (!text)
        return error_set(err, CATENA_EFAIL, "%s/%s: out of memory", dir, name);
    struct outfile f;
    int rc = outfile_open(&f, dir, name, err);
    if (rc == CATENA_OK) {
        fputs(text, f.fp);
        fputc('\n', f.fp);
        rc = outfile_commit(&f, err);
    }
    free(text);
    return rc;
}
