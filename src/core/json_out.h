/* JSON documents that catena writes through cJSON (summary.json, plan.json): numbers in the
 * shortest form that reads back to the same double (core/fmt_double.h), as in every other output,
 * and the file written whole or not at all (core/outfile.h). */
#ifndef CATENA_JSON_OUT_H
#define CATENA_JSON_OUT_H

#include <cjson/cJSON.h>

#include "core/error.h"

/* x as a JSON number in its shortest exact form, or null when x is not finite (JSON has no
 * NaN or infinity; cJSON prints them as null too). NULL when out of memory. */
cJSON *json_out_number(double x);

/* Adds json_out_number(x) to obj under key; returns it, or NULL when out of memory. */
cJSON *json_out_add_number(cJSON *obj, const char *key, double x);

/* Writes root, indented, with a final newline, to DIR/NAME. */
int json_out_write(const char *dir, const char *name, const cJSON *root, struct catena_error *err);

#endif
