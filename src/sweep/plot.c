/* A sweep drawn (sweep/plot.h): sweep.csv's rows grouped into lines by the --by column (or by
 * every other varied column), each line's points sorted along x. A varied value that is not
 * a number (a method's name) makes x an axis of categories, in the order the sweep lists
 * them. */
#include "sweep/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/path.h"
#include "gfx/png_write.h"
#include "sweep/internal.h"
#include "sweep/sweep.h"

/* The sweep's files and the columns the plot reads. */
struct sheet {
    const char *dir;
    struct sweep_plan *p;
    struct csv *t;
    char *csv_path;
    long x, y, by, status, name; /* columns of t; by is -1 without --by */
    long *key;                   /* [nkey] without --by, the columns that name a line */
    size_t nkey;
    int numeric_x; /* every drawn run's x is a number */
};

/* The path of list[0..n) that name means: itself, or the only one ending in ".NAME". */
static const char *resolve(const char *name, char *const *list, size_t n, const char *option,
                           const char *what, struct catena_error *err)
{
    const char *found = NULL;
    size_t matches = 0;
    const size_t len = strlen(name);
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return list[i];
    for (size_t i = 0; i < n; i++) {
        const size_t l = strlen(list[i]);
        if (l > len && list[i][l - len - 1] == '.' && strcmp(list[i] + l - len, name) == 0) {
            found = list[i];
            matches++;
        }
    }
    if (matches == 1)
        return found;
    struct strbuf b = {0};
    for (size_t i = 0; i < n; i++) {
        strbuf_str(&b, i ? ", " : "");
        strbuf_str(&b, list[i]);
    }
    char *all = strbuf_take(&b);
    error_set(err, CATENA_EINPUT, "%s: %s '%s' among the %s paths (%s)", option,
              matches ? "more than one ends in" : "no", name, what, all ? all : "");
    free(all);
    return NULL;
}

static long column_of(struct sheet *s, const char *path, struct catena_error *err)
{
    const long c = csv_column(s->t, path);
    if (c < 0)
        error_set(err, CATENA_EINPUT, "%s: no column '%s' (run catena sweep collect %s)",
                  s->csv_path, path, s->dir);
    return c;
}

static int sheet_open(struct sheet *s, const char *dir, const struct sweep_plot_options *o,
                      struct catena_error *err)
{
    const char *x, *y, *by = NULL;
    *s = (struct sheet){.dir = dir, .by = -1};
    if (!(s->p = sweep_plan_read(dir, err)))
        return err->code;
    if (!(x = resolve(o->x, s->p->paths, s->p->naxes, "--x", "varied", err)) ||
        !(y = resolve(o->y, s->p->collect, s->p->ncollect, "--y", "collected", err)) ||
        (o->by && !(by = resolve(o->by, s->p->paths, s->p->naxes, "--by", "varied", err))))
        return err->code;
    if (by && strcmp(by, x) == 0)
        return error_set(err, CATENA_EINPUT, "--by: %s is already --x", by);
    if (!(s->csv_path = path_join(dir, "sweep.csv")))
        return error_set(err, CATENA_EFAIL, "out of memory");
    if (!(s->t = csv_read(s->csv_path, err)))
        return err->code;
    if ((s->x = column_of(s, x, err)) < 0 || (s->y = column_of(s, y, err)) < 0 ||
        (by && (s->by = column_of(s, by, err)) < 0) ||
        (s->status = column_of(s, "status", err)) < 0 || (s->name = column_of(s, "name", err)) < 0)
        return err->code;
    return CATENA_OK;
}

static void sheet_close(struct sheet *s)
{
    csv_destroy(s->t);
    free(s->key);
    free(s->csv_path);
    sweep_plan_destroy(s->p);
}

static int is_ok(const struct sheet *s, size_t row)
{
    return strcmp(csv_cell(s->t, row, (size_t)s->status), "ok") == 0;
}

/* The line run row belongs to: the --by value, else "a=1, b=2" over the key columns (their
 * paths' last components), "" when there are none. Malloc'd. */
static char *line_key(const struct sheet *s, size_t row)
{
    if (s->by >= 0) {
        const char *v = csv_cell(s->t, row, (size_t)s->by);
        char *k = malloc(strlen(v) + 1);
        return k ? strcpy(k, v) : NULL;
    }
    struct strbuf b = {0};
    for (size_t k = 0; k < s->nkey; k++) {
        const char *path = s->t->cell[s->key[k]], *dot = strrchr(path, '.');
        strbuf_str(&b, k ? ", " : "");
        strbuf_str(&b, dot ? dot + 1 : path);
        strbuf_str(&b, "=");
        strbuf_str(&b, csv_cell(s->t, row, (size_t)s->key[k]));
    }
    return strbuf_take(&b);
}

/* Whether column c takes one value wherever x and the key columns so far agree (over the
 * ok runs): then it tells no lines apart (a zipped value that goes with x or with another
 * key, as a damping chosen per method). Pairs of runs compared: sweeps are small enough. */
static int determined(const struct sheet *s, long c)
{
    const struct csv *t = s->t;
    for (size_t i = 0; i < t->nrows; i++)
        for (size_t j = i + 1; j < t->nrows; j++) {
            if (!is_ok(s, i) || !is_ok(s, j) ||
                strcmp(csv_cell(t, i, (size_t)s->x), csv_cell(t, j, (size_t)s->x)) != 0)
                continue;
            size_t k = 0;
            while (k < s->nkey && strcmp(csv_cell(t, i, (size_t)s->key[k]),
                                         csv_cell(t, j, (size_t)s->key[k])) == 0)
                k++;
            if (k == s->nkey && strcmp(csv_cell(t, i, (size_t)c), csv_cell(t, j, (size_t)c)) != 0)
                return 0;
        }
    return 1;
}

/* Without --by: the varied columns other than x that tell lines apart, in the sweep's
 * order. */
static int choose_key(struct sheet *s, struct catena_error *err)
{
    if (s->by >= 0)
        return CATENA_OK;
    if (!(s->key = malloc((s->p->naxes ? s->p->naxes : 1) * sizeof *s->key)))
        return error_set(err, CATENA_EFAIL, "out of memory");
    for (size_t a = 0; a < s->p->naxes; a++) {
        const long c = csv_column(s->t, s->p->paths[a]);
        if (c >= 0 && c != s->x && !determined(s, c))
            s->key[s->nkey++] = c;
    }
    return CATENA_OK;
}

/* A drawn run: its line, x (a category's index when x is not numeric), y and csv row. */
struct point {
    size_t line, row;
    double x, y;
};

struct points {
    size_t n;
    struct point *pt; /* [n], sorted by line then x once gathered */
    char **keys;      /* [nlines] */
    size_t nlines;
    const char **cats; /* [ncats] x's categories, cells of the csv */
    size_t ncats;
};

static void points_free(struct points *pt)
{
    for (size_t i = 0; i < pt->nlines; i++)
        free(pt->keys[i]);
    free(pt->keys);
    free(pt->pt);
    free(pt->cats);
}

/* The index of key among the lines, adding it (taking it over) if new. */
static size_t line_index(struct points *pt, char *key)
{
    for (size_t i = 0; i < pt->nlines; i++)
        if (strcmp(pt->keys[i], key) == 0) {
            free(key);
            return i;
        }
    pt->keys[pt->nlines] = key;
    return pt->nlines++;
}

static size_t category(struct points *pt, const char *cell)
{
    for (size_t i = 0; i < pt->ncats; i++)
        if (strcmp(pt->cats[i], cell) == 0)
            return i;
    pt->cats[pt->ncats] = cell;
    return pt->ncats++;
}

/* Whether every ok run's x cell is a number. */
static int numeric_x(const struct sheet *s)
{
    for (size_t r = 0; r < s->t->nrows; r++) {
        double v;
        if (is_ok(s, r) && csv_number(s->t, r, (size_t)s->x, &v))
            return 0;
    }
    return 1;
}

static int by_line_then_x(const void *a, const void *b)
{
    const struct point *p = a, *q = b;
    if (p->line != q->line)
        return p->line < q->line ? -1 : 1;
    return (p->x > q->x) - (p->x < q->x);
}

static int gather(struct sheet *s, struct points *pt, struct sweep_plot_result *res,
                  struct catena_error *err)
{
    const size_t n = s->t->nrows ? s->t->nrows : 1;
    pt->pt = malloc(n * sizeof *pt->pt);
    pt->keys = malloc(n * sizeof *pt->keys);
    pt->cats = malloc(n * sizeof *pt->cats);
    if (!pt->pt || !pt->keys || !pt->cats)
        return error_set(err, CATENA_EFAIL, "out of memory");
    s->numeric_x = numeric_x(s);
    for (size_t r = 0; r < s->t->nrows; r++) {
        double y;
        if (!is_ok(s, r) || csv_number(s->t, r, (size_t)s->y, &y)) {
            res->skipped++;
            continue;
        }
        char *key = line_key(s, r);
        if (!key)
            return error_set(err, CATENA_EFAIL, "out of memory");
        struct point *q = &pt->pt[pt->n++];
        *q = (struct point){.line = line_index(pt, key), .row = r, .y = y};
        if (s->numeric_x)
            csv_number(s->t, r, (size_t)s->x, &q->x);
        else
            q->x = (double)category(pt, csv_cell(s->t, r, (size_t)s->x));
    }
    qsort(pt->pt, pt->n, sizeof *pt->pt, by_line_then_x);
    return CATENA_OK;
}

/* Two runs on one line at one x would be drawn as one point: refused, naming a varied path
 * that tells them apart. Sorted, they are neighbours. */
static int check_distinct(const struct sheet *s, const struct points *pt, struct catena_error *err)
{
    for (size_t i = 1; i < pt->n; i++) {
        const struct point *p = &pt->pt[i - 1], *q = &pt->pt[i];
        if (p->line != q->line || p->x != q->x)
            continue;
        const char *differ = "nothing varied";
        for (size_t a = 0; a < s->p->naxes; a++) {
            const long c = csv_column(s->t, s->p->paths[a]);
            if (c >= 0 &&
                strcmp(csv_cell(s->t, p->row, (size_t)c), csv_cell(s->t, q->row, (size_t)c)) != 0) {
                differ = s->p->paths[a];
                break;
            }
        }
        return error_set(err, CATENA_EINPUT,
                         "%s: runs %s and %s would be one point: they differ in %s (give --by "
                         "%s)",
                         s->csv_path, csv_cell(s->t, p->row, (size_t)s->name),
                         csv_cell(s->t, q->row, (size_t)s->name), differ, differ);
    }
    return CATENA_OK;
}

/* The series, one per line, over the sorted points copied into xs and ys. */
static void build_series(const struct points *pt, struct chart_series *series, double *xs,
                         double *ys)
{
    for (size_t i = 0; i < pt->n; i++) {
        xs[i] = pt->pt[i].x;
        ys[i] = pt->pt[i].y;
    }
    size_t at = 0;
    for (size_t k = 0; k < pt->nlines; k++) {
        struct chart_series *c = &series[k];
        *c = (struct chart_series){
            .name = pt->keys[k][0] ? pt->keys[k] : NULL, .x = xs + at, .y = ys + at, .markers = 1};
        while (at + c->n < pt->n && pt->pt[at + c->n].line == k)
            c->n++;
        at += c->n;
    }
}

/* "sweep NAME", NAME the sweep file's without ".json". */
static void title(const struct sheet *s, char *buf, size_t size)
{
    const char *slash = strrchr(s->p->sweep, '/'), *name = slash ? slash + 1 : s->p->sweep;
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, ".json") == 0)
        n -= 5;
    snprintf(buf, size, "sweep %.*s", (int)n, name);
}

static int draw(const struct sheet *s, const struct points *pt, const struct sweep_plot_options *o,
                const char *out_dir, const char *out_name, struct catena_error *err)
{
    const int w = o->width > 0 ? o->width : 900, h = o->height > 0 ? o->height : 600;
    struct chart_series *series = calloc(pt->nlines ? pt->nlines : 1, sizeof *series);
    double *xs = malloc((pt->n ? pt->n : 1) * sizeof *xs);
    double *ys = malloc((pt->n ? pt->n : 1) * sizeof *ys);
    struct raster *r = NULL;
    int rc = CATENA_OK;
    if (!series || !xs || !ys) {
        rc = error_set(err, CATENA_EFAIL, "out of memory");
        goto done;
    }
    build_series(pt, series, xs, ys);
    const char *xpath = s->t->cell[s->x], *ypath = s->t->cell[s->y];
    char head[512];
    title(s, head, sizeof head);
    const struct chart c = {
        .title = head,
        .x = {.title = xpath,
              .scale = o->xscale,
              .names = s->numeric_x ? NULL : pt->cats,
              .nnames = s->numeric_x ? 0 : pt->ncats},
        .y = {.title = ypath, .scale = o->yscale},
        .series = series,
        .nseries = pt->nlines,
        .text_scale = 2,
    };
    if (!(r = raster_create(w, h, err))) {
        rc = err->code;
        goto done;
    }
    chart_draw(r, 0, 0, w, h, &c);
    rc = png_write_raster(r, out_dir, out_name, NULL, err);
done:
    raster_destroy(r);
    free(series);
    free(xs);
    free(ys);
    return rc;
}

int sweep_plot(const char *dir, const struct sweep_plot_options *o, const char *out_dir,
               const char *out_name, struct sweep_plot_result *res, struct catena_error *err)
{
    struct sheet s;
    struct points pt = {0};
    *res = (struct sweep_plot_result){0};
    error_clear(err);
    int rc = sheet_open(&s, dir, o, err);
    if (rc == CATENA_OK)
        rc = choose_key(&s, err);
    if (rc == CATENA_OK)
        rc = gather(&s, &pt, res, err);
    if (rc == CATENA_OK)
        rc = check_distinct(&s, &pt, err);
    if (rc == CATENA_OK)
        rc = draw(&s, &pt, o, out_dir, out_name, err);
    if (rc == CATENA_OK) {
        res->lines = pt.nlines;
        res->points = pt.n;
    }
    points_free(&pt);
    sheet_close(&s);
    return rc;
}
