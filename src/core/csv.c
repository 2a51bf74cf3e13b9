/* CSV tables (core/csv.h): the file read whole, then split in place, each field's end
 * overwritten with a NUL and quoted fields unescaped over themselves (a field never grows). */
#include "core/csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/readfile.h"

/* A table being filled: cells in a growing array. */
struct fill {
    struct csv *t;
    size_t n, cap; /* cells so far */
    const char *path;
};

static int push(struct fill *f, char *cell)
{
    if (f->n == f->cap) {
        const size_t cap = f->cap ? 2 * f->cap : 64;
        char **c = realloc(f->t->cell, cap * sizeof *c);
        if (!c)
            return -1;
        f->t->cell = c;
        f->cap = cap;
    }
    f->t->cell[f->n++] = cell;
    return 0;
}

/* Splits one field starting at *p; leaves *p on the character after it (',', '\n', '\r' or
 * the NUL) and returns that character, or -1 for a quote left open. *line counts the line
 * breaks inside quotes. */
static int field(char **p, char **start, long *line)
{
    char *r = *p, *w = r;
    *start = r;
    if (*r == '"') {
        r++;
        for (;;) {
            if (*r == '\0')
                return -1;
            if (*r == '"' && r[1] == '"') {
                *w++ = '"';
                r += 2;
            } else if (*r == '"') {
                r++;
                break;
            } else {
                *line += *r == '\n';
                *w++ = *r++;
            }
        }
    }
    while (*r != ',' && *r != '\n' && *r != '\r' && *r != '\0')
        *w++ = *r++;
    const int end = (unsigned char)*r;
    *w = '\0'; /* w <= r: the separator, or a byte already copied back */
    *p = r;
    return end;
}

/* Splits the text into cells, line by line, checking each line's field count. */
static int split(struct fill *f, struct catena_error *err)
{
    struct csv *t = f->t;
    char *p = t->text;
    long line = 1;
    while (*p) {
        const long first = line;
        size_t nfields = 0;
        for (;;) {
            char *start;
            const int end = field(&p, &start, &line);
            if (end < 0)
                return error_set(err, CATENA_EINPUT, "%s:%ld: a quoted field is not closed",
                                 f->path, first);
            if (push(f, start))
                return error_set(err, CATENA_EFAIL, "%s: out of memory", f->path);
            nfields++;
            if (end == ',') {
                p++;
                continue;
            }
            p += end == '\r' && p[1] == '\n' ? 2 : end ? 1 : 0;
            break;
        }
        if (first == 1)
            t->ncols = nfields;
        else if (nfields != t->ncols)
            return error_set(err, CATENA_EINPUT, "%s:%ld: %zu fields where the header has %zu",
                             f->path, first, nfields, t->ncols);
        else
            t->nrows++;
        line++;
    }
    if (!t->ncols)
        return error_set(err, CATENA_EINPUT, "%s: empty, not even a header line", f->path);
    return CATENA_OK;
}

struct csv *csv_read(const char *path, struct catena_error *err)
{
    struct csv *t = calloc(1, sizeof *t);
    size_t len;
    int e = 0;
    if (!t) {
        error_set(err, CATENA_EFAIL, "%s: out of memory", path);
        return NULL;
    }
    if (!(t->text = readfile(path, &len, &e))) {
        error_set(err, e == ENOMEM ? CATENA_EFAIL : CATENA_EINPUT, "%s: cannot read: %s", path,
                  strerror(e));
        csv_destroy(t);
        return NULL;
    }
    if (memchr(t->text, '\0', len)) {
        error_set(err, CATENA_EINPUT, "%s: not a CSV file (it holds NUL bytes)", path);
        csv_destroy(t);
        return NULL;
    }
    struct fill f = {.t = t, .path = path};
    if (split(&f, err)) {
        csv_destroy(t);
        return NULL;
    }
    return t;
}

void csv_destroy(struct csv *t)
{
    if (!t)
        return;
    free(t->cell);
    free(t->text);
    free(t);
}

long csv_column(const struct csv *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cell[c], name) == 0)
            return (long)c;
    return -1;
}

const char *csv_cell(const struct csv *t, size_t row, size_t col)
{
    return t->cell[(row + 1) * t->ncols + col];
}

int csv_number(const struct csv *t, size_t row, size_t col, double *out)
{
    const char *s = csv_cell(t, row, col);
    char *end;
    const double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}
