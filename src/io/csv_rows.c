/* Small CSV tables read whole and cut in place (io/csv_rows.h): events and topology changes
 * are few, a handful to a few thousand rows, so one read and one pass is simplest. */
#define _POSIX_C_SOURCE 200809L
#include "io/csv_rows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/readfile.h"

/* Cuts the line at s (up to '\n' or the end, a '\r' before it dropped) into fields at the
 * commas; returns the number of fields (stored while there is room) and sets *next. */
static size_t cut_line(char *s, char **fields, size_t room, char **next)
{
    char *end = strchr(s, '\n');
    *next = end ? end + 1 : s + strlen(s);
    if (end)
        *end = '\0';
    if (end > s && end[-1] == '\r')
        end[-1] = '\0';
    size_t n = 0;
    for (char *f = s;; n++) {
        char *comma = strchr(f, ',');
        if (n < room)
            fields[n] = f;
        if (!comma)
            return n + 1;
        *comma = '\0';
        f = comma + 1;
    }
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; n++) {
        const char *nl = strchr(s, '\n');
        s = nl ? nl + 1 : s + strlen(s);
    }
    return n;
}

static int check_header(char *line, const char *header, const char *path, struct catena_error *err)
{
    char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    if (n > 0 && line[n - 1] == '\r')
        n--;
    if (n == strlen(header) && !strncmp(line, header, n))
        return CATENA_OK;
    return error_set(err, CATENA_EINPUT, "%s:1: expected the header \"%s\"", path, header);
}

int csv_rows_read(const char *path, const char *header, struct csv_rows *t,
                  struct catena_error *err)
{
    *t = (struct csv_rows){0};
    size_t len;
    int e;
    if (!(t->text = readfile(path, &len, &e)))
        return error_set(err, e == ENOMEM ? CATENA_EFAIL : CATENA_EINPUT, "%s: cannot read: %s",
                         path, strerror(e));
    if (strlen(t->text) != len) {
        csv_rows_free(t);
        return error_set(err, CATENA_EINPUT, "%s: a NUL byte in the file", path);
    }
    if (check_header(t->text, header, path, err)) {
        csv_rows_free(t);
        return CATENA_EINPUT;
    }
    t->ncols = 1;
    for (const char *c = header; *c; c++)
        t->ncols += *c == ',';
    char *s = strchr(t->text, '\n');
    s = s ? s + 1 : t->text + len;
    const size_t rows = count_lines(s);
    t->field = malloc((rows ? rows : 1) * t->ncols * sizeof *t->field);
    t->line = malloc((rows ? rows : 1) * sizeof *t->line);
    if (!t->field || !t->line) {
        csv_rows_free(t);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", path);
    }
    for (long line = 2; *s; line++) {
        char *next;
        const size_t n = cut_line(s, t->field + t->nrows * t->ncols, t->ncols, &next);
        if (n != t->ncols) {
            error_set(err, CATENA_EINPUT, "%s:%ld: %zu fields, expected %zu (%s)", path, line, n,
                      t->ncols, header);
            csv_rows_free(t);
            return CATENA_EINPUT;
        }
        t->line[t->nrows++] = line;
        s = next;
    }
    return CATENA_OK;
}

const char *csv_rows_get(const struct csv_rows *t, size_t r, size_t c)
{
    return t->field[r * t->ncols + c];
}

void csv_rows_free(struct csv_rows *t)
{
    free(t->text);
    free(t->field);
    free(t->line);
    *t = (struct csv_rows){0};
}
