/* catena compare, run directories: after the positions, the events (events.csv), the
 * topology changes (topology.csv), the status and the final metrics (summary.json), each
 * with its own tolerance. Each file comes from io/run_file.h, the one place that knows where
 * a run keeps its files. */
#define _POSIX_C_SOURCE 200809L
#include "io/compare.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fmt_double.h"
#include "core/range.h"
#include "core/readfile.h"
#include "io/csv_rows.h"
#include "io/event_log.h"
#include "io/run_file.h"
#include "io/topology.h"

/* A table of things that happen at a step: which columns say what happened (matched
 * exactly) and which hold numbers (matched within a tolerance). */
struct table_spec {
    const char *file, *header;
    int absent_is_empty; /* topology.csv is written only when something can change */
    int id[4], nid;      /* columns that name what happened; id[0] is its kind */
    int val[2], nval;    /* numeric columns */
    int lengths;         /* 1: the values take the positions' tolerance; 0: the metrics' */
};

static const struct table_spec events_spec = {
    "events.csv", EVENT_LOG_HEADER, 0, {2, 3, 4, 5}, 4, {6, 7}, 2, 0};
/* rest lengths and radii in metres; inverse masses are copied from the scenario exactly */
static const struct table_spec topology_spec = {
    "topology.csv", TOPOLOGY_HEADER, 1, {1, 2, 3, 4}, 4, {5}, 1, 1};

/* One side's table: the rows whose step is in the range, in file order. */
struct table {
    int present;
    struct csv_rows rows;
    size_t n;    /* rows in range */
    size_t *row; /* [n] their indices in rows */
    long *step;  /* [n] their steps */
    char *match; /* [n] 1 once matched with a row of the other side */
};

static void table_free(struct table *t)
{
    csv_rows_free(&t->rows);
    free(t->row);
    free(t->step);
    free(t->match);
}

/* A step field: digits only, below 2^62. */
static int parse_step(const char *s, long *step)
{
    if (!*s || strlen(s) > 18 || strspn(s, "0123456789") != strlen(s))
        return -1;
    *step = strtol(s, NULL, 10);
    return 0;
}

/* Reads DIR's table and keeps the rows in the step range, which must come in step order. */
static int table_load(struct table *t, const struct table_spec *sp, const char *dir,
                      const struct compare_options *o, struct catena_error *err)
{
    char *path;
    *t = (struct table){0};
    if (run_file_find(dir, sp->file, &path, err))
        return err->code;
    if (!path)
        return CATENA_OK;
    t->present = 1;
    int rc = csv_rows_read(path, sp->header, &t->rows, err);
    const size_t n = t->rows.nrows ? t->rows.nrows : 1;
    t->row = malloc(n * sizeof *t->row);
    t->step = malloc(n * sizeof *t->step);
    t->match = calloc(n, 1);
    if (!rc && (!t->row || !t->step || !t->match))
        rc = error_set(err, CATENA_EFAIL, "%s: out of memory", path);
    for (size_t r = 0; !rc && r < t->rows.nrows; r++) {
        long step;
        if (parse_step(csv_rows_get(&t->rows, r, 0), &step) || (t->n && step < t->step[t->n - 1]))
            rc = error_set(err, CATENA_EINPUT,
                           "%s:%ld: expected a step number >= 0, not below the row before's", path,
                           t->rows.line[r]);
        else if (step >= o->step_first && step <= o->step_last) {
            t->row[t->n] = r;
            t->step[t->n++] = step;
        }
    }
    free(path);
    return rc;
}

static const char *field(const struct table *t, size_t i, int col)
{
    return csv_rows_get(&t->rows, t->row[i], (size_t)col);
}

static int same_id(const struct table_spec *sp, const struct table *a, size_t i,
                   const struct table *b, size_t j)
{
    for (int k = 0; k < sp->nid; k++)
        if (strcmp(field(a, i, sp->id[k]), field(b, j, sp->id[k])))
            return 0;
    return 1;
}

/* Column col's name in the header, and its length in *len. */
static const char *column_name(const struct table_spec *sp, int col, int *len)
{
    const char *name = sp->header;
    for (int c = 0; c < col; c++)
        name = strchr(name, ',') + 1;
    *len = (int)strcspn(name, ",");
    return name;
}

/* "break, link 30, point_a 16, point_b 0": the kind, then the other naming fields given. */
static void describe_row(char *buf, size_t size, const struct table_spec *sp, const struct table *t,
                         size_t i)
{
    size_t n = (size_t)snprintf(buf, size, "%s", field(t, i, sp->id[0]));
    for (int k = 1; k < sp->nid && n < size; k++) {
        const char *v = field(t, i, sp->id[k]);
        int len;
        const char *name = column_name(sp, sp->id[k], &len);
        if (*v)
            n += (size_t)snprintf(buf + n, size - n, ", %.*s %s", len, name, v);
    }
}

/* Counts a difference, keeping the one at the earliest step as the first. */
static struct compare_diff *record(struct compare_part_result *p, long step)
{
    p->differ++;
    if (p->differ > 1 && step >= p->first.step)
        return NULL;
    p->first = (struct compare_diff){.step = step};
    return &p->first;
}

/* Equal, both empty or both NaN, or within atol + rtol |b|. */
static int numbers_match(const char *sa, const char *sb, double atol, double rtol)
{
    if (!strcmp(sa, sb))
        return 1;
    char *ea, *eb;
    const double a = strtod(sa, &ea), b = strtod(sb, &eb);
    if (!*sa || !*sb || *ea || *eb)
        return 0;
    if ((isnan(a) && isnan(b)) || a == b)
        return 1;
    return isfinite(a) && isfinite(b) && fabs(a - b) <= atol + rtol * fabs(b);
}

/* The numbers of two matched rows. */
static void compare_values(const struct table_spec *sp, const struct table *a, size_t i,
                           const struct table *b, size_t j, const struct compare_options *o,
                           struct compare_part_result *p)
{
    const double atol = sp->lengths ? o->atol : o->metric_atol;
    const double rtol = sp->lengths ? o->rtol : o->metric_rtol;
    for (int k = 0; k < sp->nval; k++) {
        const char *va = field(a, i, sp->val[k]), *vb = field(b, j, sp->val[k]);
        if (numbers_match(va, vb, atol, rtol))
            continue;
        struct compare_diff *d = record(p, b->step[j]);
        if (!d)
            continue;
        char what[160];
        int len;
        const char *name = column_name(sp, sp->val[k], &len);
        describe_row(what, sizeof what, sp, b, j);
        snprintf(d->what, sizeof d->what, "%.*s of %s at step %ld", len, name, what, b->step[j]);
        snprintf(d->a, sizeof d->a, "%s", *va ? va : "(empty)");
        snprintf(d->b, sizeof d->b, "%s", *vb ? vb : "(empty)");
    }
}

/* The unmatched row of a naming what b's row j names nearest to its step, or -1. */
static long nearest(const struct table_spec *sp, const struct table *a, const struct table *b,
                    size_t j)
{
    long best = -1;
    for (size_t i = 0; i < a->n; i++)
        if (!a->match[i] && same_id(sp, a, i, b, j) &&
            (best < 0 || labs(a->step[i] - b->step[j]) < labs(a->step[best] - b->step[j])))
            best = (long)i;
    return best;
}

/* What b's row j names happens in A at another step (row i), or not at all (i < 0). */
static void moved(const struct table_spec *sp, struct table *a, long i, struct table *b, size_t j,
                  struct compare_part_result *p)
{
    const long step = i >= 0 && a->step[i] < b->step[j] ? a->step[i] : b->step[j];
    struct compare_diff *d = record(p, step);
    b->match[j] = 1;
    if (i >= 0)
        a->match[i] = 1;
    if (!d)
        return;
    describe_row(d->what, sizeof d->what, sp, b, j);
    if (i >= 0)
        snprintf(d->a, sizeof d->a, "at step %ld", a->step[i]);
    else
        snprintf(d->a, sizeof d->a, "(none)");
    snprintf(d->b, sizeof d->b, "at step %ld", b->step[j]);
}

/* A's rows left unmatched: in A only. */
static void only_in_a(const struct table_spec *sp, const struct table *a,
                      struct compare_part_result *p)
{
    for (size_t i = 0; i < a->n; i++) {
        struct compare_diff *d = a->match[i] ? NULL : record(p, a->step[i]);
        if (!d)
            continue;
        describe_row(d->what, sizeof d->what, sp, a, i);
        snprintf(d->a, sizeof d->a, "at step %ld", a->step[i]);
        snprintf(d->b, sizeof d->b, "(none)");
    }
}

/* Pairs each of B's rows with the first unmatched row of A that names the same thing at most
 * step_tol steps away. Then each of B's rows left is paired with the nearest of A's left that
 * names the same thing (one difference: it happened at another step) or with none; A's rows
 * left after that are A's alone. */
static void match_tables(const struct table_spec *sp, struct table *a, struct table *b,
                         const struct compare_options *o, struct compare_part_result *p)
{
    size_t lo = 0;
    for (size_t j = 0; j < b->n; j++) {
        const long s = b->step[j], tol = o->step_tol; /* steps are >= 0: s - tol cannot wrap */
        const long hi = tol > LONG_MAX - s ? LONG_MAX : s + tol;
        while (lo < a->n && a->step[lo] < s - tol)
            lo++;
        for (size_t i = lo; i < a->n && a->step[i] <= hi; i++) {
            if (a->match[i] || !same_id(sp, a, i, b, j))
                continue;
            a->match[i] = b->match[j] = 1;
            compare_values(sp, a, i, b, j, o, p);
            break;
        }
    }
    for (size_t j = 0; j < b->n; j++)
        if (!b->match[j])
            moved(sp, a, nearest(sp, a, b, j), b, j, p);
    only_in_a(sp, a, p);
}

static int compare_table(const struct table_spec *sp, const char *da, const char *db,
                         const struct compare_options *o, struct compare_part_result *p,
                         struct catena_error *err)
{
    struct table a, b = {0};
    int rc = table_load(&a, sp, da, o, err);
    if (!rc)
        rc = table_load(&b, sp, db, o, err);
    if (!rc && !a.present && !b.present) {
        snprintf(p->why, sizeof p->why, "neither run has %s", sp->file);
    } else if (!rc && a.present != b.present && !sp->absent_is_empty) {
        rc = error_set(err, CATENA_EINPUT, "cannot compare: %s has %s, %s has none",
                       a.present ? da : db, sp->file, a.present ? db : da);
    } else if (!rc) {
        p->compared = 1;
        p->na = a.n;
        p->nb = b.n;
        match_tables(sp, &a, &b, o, p);
    }
    table_free(&a);
    table_free(&b);
    return rc;
}

/* DIR's summary.json parsed, or NULL (CATENA_OK) when the run has none. */
static int summary_load(const char *dir, cJSON **json, struct catena_error *err)
{
    char *path;
    *json = NULL;
    int rc = run_file_find(dir, "summary.json", &path, err);
    if (rc || !path)
        return rc;
    size_t len;
    int e;
    char *text = readfile(path, &len, &e);
    if (!text)
        rc = error_set(err, e == ENOMEM ? CATENA_EFAIL : CATENA_EINPUT, "%s: cannot read: %s", path,
                       strerror(e));
    else if (!(*json = cJSON_ParseWithLength(text, len)) || !cJSON_IsObject(*json))
        rc = error_set(err, CATENA_EINPUT, "%s: not a JSON object", path);
    if (rc) {
        cJSON_Delete(*json);
        *json = NULL;
    }
    free(text);
    free(path);
    return rc;
}

/* A summary's value as text: strings as they are, numbers in the shortest form that reads
 * back, "(none)" when missing. */
static void json_text(char *buf, size_t size, const cJSON *v)
{
    if (!v)
        snprintf(buf, size, "(none)");
    else if (cJSON_IsString(v))
        snprintf(buf, size, "%s", v->valuestring);
    else if (cJSON_IsNumber(v) && size >= FMT_DOUBLE_SIZE)
        fmt_double(buf, v->valuedouble);
    else if (cJSON_IsNull(v))
        snprintf(buf, size, "null");
    else
        snprintf(buf, size, "(%s)", cJSON_IsObject(v) ? "object" : "not a number or string");
}

/* status and steps_done: the same words and the same count, exactly. */
static void compare_status(const cJSON *sa, const cJSON *sb, struct compare_part_result *p)
{
    static const char *const keys[] = {"status", "steps_done"};
    p->compared = 1;
    p->na = p->nb = 2;
    for (int k = 0; k < 2; k++) {
        char ta[64], tb[64];
        json_text(ta, sizeof ta, cJSON_GetObjectItemCaseSensitive(sa, keys[k]));
        json_text(tb, sizeof tb, cJSON_GetObjectItemCaseSensitive(sb, keys[k]));
        if (!strcmp(ta, tb))
            continue;
        struct compare_diff *d = record(p, -1);
        if (!d)
            continue;
        snprintf(d->what, sizeof d->what, "%s", keys[k]);
        memcpy(d->a, ta, sizeof d->a);
        memcpy(d->b, tb, sizeof d->b);
    }
}

/* A metric's value: a number, or NaN for null (JSON has no NaN; a diverged run's metrics
 * are written as null). *ok = 0 for anything else. */
static double metric_value(const cJSON *v, int *ok)
{
    *ok = cJSON_IsNumber(v) || cJSON_IsNull(v);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* One metric of B's against A's (item NULL when A lacks it). */
static void compare_metric(const cJSON *va, const cJSON *vb, const char *key,
                           const struct compare_options *o, struct compare_part_result *p)
{
    int oka, okb;
    const double a = metric_value(va, &oka), b = metric_value(vb, &okb);
    const int same = oka && okb && (a == b || (isnan(a) && isnan(b)));
    const int match = same || (oka && okb && isfinite(a) && isfinite(b) &&
                               fabs(a - b) <= o->metric_atol + o->metric_rtol * fabs(b));
    const double rel = same                                                 ? 0
                       : oka && okb && isfinite(a) && b != 0 && isfinite(b) ? fabs(a - b) / fabs(b)
                                                                            : INFINITY;
    struct compare_diff d = {.step = -1};
    snprintf(d.what, sizeof d.what, "%s", key);
    json_text(d.a, sizeof d.a, va);
    json_text(d.b, sizeof d.b, vb);
    if (rel > p->worst) {
        p->worst = rel;
        p->worst_at = d;
    }
    struct compare_diff *first = match ? NULL : record(p, -1);
    if (first)
        *first = d;
}

/* The final metrics: each of B's within the metrics' tolerance of A's, and none of A's
 * missing from B. */
static void compare_metrics(const cJSON *sa, const cJSON *sb, const struct compare_options *o,
                            struct compare_part_result *p)
{
    const cJSON *fa = cJSON_GetObjectItemCaseSensitive(sa, "final");
    const cJSON *fb = cJSON_GetObjectItemCaseSensitive(sb, "final");
    p->compared = 1;
    p->na = (size_t)cJSON_GetArraySize(fa);
    p->nb = (size_t)cJSON_GetArraySize(fb);
    const cJSON *v;
    cJSON_ArrayForEach(v, fb)
    {
        compare_metric(cJSON_GetObjectItemCaseSensitive(fa, v->string), v, v->string, o, p);
    }
    cJSON_ArrayForEach(v, fa)
    {
        if (!cJSON_GetObjectItemCaseSensitive(fb, v->string))
            compare_metric(v, NULL, v->string, o, p);
    }
}

/* Status and final metrics, from both runs' summary.json. */
static int compare_summaries(const char *da, const char *db, struct compare_result *res,
                             struct catena_error *err)
{
    struct compare_part_result *st = &res->part[COMPARE_STATUS], *me = &res->part[COMPARE_METRICS];
    const unsigned parts = res->opt.parts;
    if (res->opt.step_last != RANGE_OPEN) {
        snprintf(st->why, sizeof st->why, "--steps ends at step %ld", res->opt.step_last);
        memcpy(me->why, st->why, sizeof me->why);
        return CATENA_OK;
    }
    cJSON *sa = NULL, *sb = NULL;
    int rc = summary_load(da, &sa, err);
    if (!rc)
        rc = summary_load(db, &sb, err);
    if (!rc && !sa && !sb) {
        snprintf(st->why, sizeof st->why, "neither run has summary.json");
        memcpy(me->why, st->why, sizeof me->why);
    } else if (!rc && (!sa || !sb)) {
        rc = error_set(err, CATENA_EINPUT, "cannot compare: %s has summary.json, %s has none",
                       sa ? da : db, sa ? db : da);
    } else if (!rc) {
        if (parts & 1u << COMPARE_STATUS)
            compare_status(sa, sb, st);
        if (parts & 1u << COMPARE_METRICS)
            compare_metrics(sa, sb, &res->opt, me);
    }
    cJSON_Delete(sa);
    cJSON_Delete(sb);
    return rc;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The parts after the positions, for two run directories. */
static int compare_run_parts(const char *da, const char *db, struct compare_result *res,
                             struct catena_error *err)
{
    const unsigned parts = res->opt.parts;
    int rc = CATENA_OK;
    if (parts & 1u << COMPARE_EVENTS)
        rc = compare_table(&events_spec, da, db, &res->opt, &res->part[COMPARE_EVENTS], err);
    if (!rc && parts & 1u << COMPARE_TOPOLOGY)
        rc = compare_table(&topology_spec, da, db, &res->opt, &res->part[COMPARE_TOPOLOGY], err);
    if (!rc && parts & (1u << COMPARE_STATUS | 1u << COMPARE_METRICS))
        rc = compare_summaries(da, db, res, err);
    return rc;
}

/* err for two runs that differ: the positions' message when they differ, else the first
 * part that does; then the other parts that differ. */
static int differ_error(const char *a, const char *b, const struct compare_result *res,
                        struct catena_error *err)
{
    char msg[sizeof err->msg], also[128] = "";
    const int positions = res->part[COMPARE_POSITIONS].differ > 0;
    int first = -1;
    size_t n = 0;
    for (int k = 0; k < COMPARE_NPARTS; k++) {
        if (!res->part[k].compared || !res->part[k].differ)
            continue;
        if (first < 0)
            first = k;
        else
            n += (size_t)snprintf(also + n, sizeof also - n, "%s%s", n ? ", " : "; also in ",
                                  compare_part_name(k));
        if (n >= sizeof also)
            n = sizeof also - 1;
    }
    if (positions) {
        snprintf(msg, sizeof msg, "%s%s", err->msg, also);
    } else {
        char verdict[512];
        compare_describe_part(res, first, verdict, sizeof verdict);
        snprintf(msg, sizeof msg, "%s and %s differ in %s: %s%s", a, b, compare_part_name(first),
                 verdict, also);
    }
    return error_set(err, CATENA_EFAIL, "%s", msg);
}

/* The positions, from both trajectories (read through a run directory's when given one). */
static int compare_positions(const char *a, const char *b, const struct compare_options *opt,
                             struct compare_result *res, struct catena_error *err)
{
    struct traj_reader *ra = traj_read_open(a, err), *rb = ra ? traj_read_open(b, err) : NULL;
    int rc = rb ? compare_traj(ra, rb, opt, res, err) : CATENA_EINPUT;
    traj_read_close(ra);
    traj_read_close(rb);
    return rc;
}

int compare_paths(const char *a, const char *b, const struct compare_options *opt,
                  struct compare_result *res, struct catena_error *err)
{
    *res = (struct compare_result){.opt = *opt};
    snprintf(res->a, sizeof res->a, "%s", a);
    snprintf(res->b, sizeof res->b, "%s", b);
    int rc = compare_check_options(opt, err);
    if (rc)
        return rc;
    if (opt->parts & 1u << COMPARE_POSITIONS) {
        rc = compare_positions(a, b, opt, res, err);
        if (rc == CATENA_EINPUT || (rc && !compare_differs(res)))
            return rc;
    } else {
        snprintf(res->part[COMPARE_POSITIONS].why, sizeof res->part[0].why, "left out");
    }
    const int dirs = is_dir(a) && is_dir(b);
    for (int k = COMPARE_EVENTS; k < COMPARE_NPARTS; k++) {
        if (!(opt->parts & 1u << k))
            snprintf(res->part[k].why, sizeof res->part[k].why, "left out");
        else if (!dirs)
            snprintf(res->part[k].why, sizeof res->part[k].why,
                     "%s is a trajectory file, not a run directory", is_dir(a) ? "B" : "A");
    }
    if (dirs && (rc = compare_run_parts(a, b, res, err)))
        return rc;
    return compare_differs(res) ? differ_error(a, b, res, err) : CATENA_OK;
}
