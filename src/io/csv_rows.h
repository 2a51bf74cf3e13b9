/* The small CSV tables of a run (events.csv, topology.csv) read whole: a header line that
 * must be the expected one, then rows of comma-separated fields without quotes, each with
 * as many fields as the header. */
#ifndef CATENA_CSV_ROWS_H
#define CATENA_CSV_ROWS_H

#include <stddef.h>

#include "core/error.h"

struct csv_rows {
    char *text;          /* the file, cut into NUL-terminated fields in place */
    size_t nrows, ncols; /* rows after the header; fields per row */
    char **field;        /* [nrows * ncols]: row r's field c is field[r * ncols + c] */
    long *line;          /* [nrows]: each row's line number in the file, for messages */
};

/* Reads path, whose first line must be `header`. CATENA_EINPUT with "FILE:LINE: ..." for
 * another header or a row with another number of fields, or when it cannot be read;
 * CATENA_EFAIL out of memory. t is empty (and safe to free) on failure. */
int csv_rows_read(const char *path, const char *header, struct csv_rows *t,
                  struct catena_error *err);

/* Row r's field c. */
const char *csv_rows_get(const struct csv_rows *t, size_t r, size_t c);

/* Frees what csv_rows_read allocated; safe on an empty table and twice. */
void csv_rows_free(struct csv_rows *t);

#endif
