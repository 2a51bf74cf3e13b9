/* A CSV file read whole, as catena writes them (metrics.csv, sweep.csv): a header line, then
 * rows of as many fields, separated by commas; a field in double quotes may hold commas,
 * line breaks and doubled quotes (RFC 4180). Lines end in LF or CRLF. */
#ifndef CATENA_CSV_H
#define CATENA_CSV_H

#include <stddef.h>

#include "core/error.h"

struct csv {
    size_t ncols; /* fields per line, the header's */
    size_t nrows; /* data rows, the header not counted */
    char **cell;  /* [(nrows + 1) * ncols] row by row, the header first; unquoted */
    char *text;   /* the file's bytes, which the cells point into */
};

/* Reads path. NULL with err set (CATENA_EINPUT) when it cannot be read, is empty, or a line
 * holds another number of fields than the header or ends inside quotes ("PATH:LINE: ...").
 * The caller frees the table with csv_destroy. */
struct csv *csv_read(const char *path, struct catena_error *err);

/* Frees t; NULL is a no-op. */
void csv_destroy(struct csv *t);

/* The column named name in the header, or -1. */
long csv_column(const struct csv *t, const char *name);

/* Data row row's field in column col (row 0 is the first line after the header). */
const char *csv_cell(const struct csv *t, size_t row, size_t col);

/* Data row row's field in column col as a number: 0, or -1 when it is not one (empty, or
 * anything strtod does not read whole). */
int csv_number(const struct csv *t, size_t row, size_t col, double *out);

#endif
