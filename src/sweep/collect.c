/* Results of a sweep from its run directories, wherever the runs ran: each run is judged by
 * its summary.json (status, and the scenario hash, overrides and catena version it ran
 * with, and its manifest: io/rundir.h), and the collect paths are read from summary.json,
 * catenary.json or the last row of metrics.csv, as the manifest lists them, into
 * DIR/sweep.csv, one row per run in plan order. */
#define _POSIX_C_SOURCE 200809L
#include "sweep/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "core/outfile.h"
#include "core/path.h"
#include "core/readfile.h"
#include "core/stop.h"
#include "io/rundir.h"
#include "sweep/internal.h"

/* How much of the end of metrics.csv is searched for its last row: rows are a few
 * hundred bytes, the file may be gigabytes. */
#define METRICS_TAIL 65536

const char *sweep_status_name(enum sweep_status s)
{
    switch (s) {
    case SWEEP_OK:
        return "ok";
    case SWEEP_FAILED:
        return "failed";
    case SWEEP_MISSING:
        return "missing";
    case SWEEP_STALE:
        return "stale";
    }
    return "?";
}

/* The largest catenary.json read: a report of many chains is a few hundred kilobytes. */
#define CATENARY_MAX (64u << 20)

/* Run dir's summary.json with its manifest, of any status; NULL with o filled when there is
 * none or it cannot be taken (missing: no summary.json; stale: unreadable, not catena's or
 * changed since). */
static struct rundir *open_run(const char *run_dir, struct sweep_outcome *o)
{
    char *path = path_join(run_dir, RUNDIR_SUMMARY);
    struct stat st;
    const int missing = path && lstat(path, &st) != 0 && errno == ENOENT;
    free(path);
    struct rundir *rd = NULL;
    struct catena_error err;
    if (missing) {
        snprintf(o->why, sizeof o->why, "no summary.json");
    } else if (rundir_open_manifest(run_dir, RUNDIR_SUMMARY, 1, &rd, &err)) {
        o->status = SWEEP_STALE;
        snprintf(o->why, sizeof o->why, "%.500s", err.msg);
    }
    return rd;
}

static const char *json_string(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Whether the summary's scenario.overrides are exactly run r's: the fixed ones, then the
 * varied ones, as sweep_run_argv passes them. */
static int same_overrides(const struct sweep_plan *p, size_t r, const cJSON *ov)
{
    if (!cJSON_IsArray(ov) || (size_t)cJSON_GetArraySize(ov) != p->nfixed + p->naxes)
        return 0;
    size_t k = 0;
    for (const cJSON *c = ov->child; c; c = c->next, k++) {
        const char *want = k < p->nfixed ? p->fixed[k] : p->runs[r].set[k - p->nfixed];
        if (!cJSON_IsString(c) || strcmp(c->valuestring, want) != 0)
            return 0;
    }
    return 1;
}

static void judge(const struct sweep_plan *p, size_t i, const cJSON *sum, struct sweep_outcome *o)
{
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(sum, "scenario");
    const char *version = json_string(sum, "catena_version"), *sha = json_string(sc, "sha256");
    const char *status = json_string(sum, "status");
    o->status = SWEEP_STALE;
    if (!version || strcmp(version, p->version) != 0) {
        snprintf(o->why, sizeof o->why, "summary.json is from catena %s, the plan from %s",
                 version ? version : "(unknown)", p->version);
    } else if (!sha || strcmp(sha, p->base_sha256) != 0) {
        snprintf(o->why, sizeof o->why,
                 "summary.json is from another version of %s (its sha256 %.12s..., the plan's "
                 "%.12s...)",
                 p->base, sha ? sha : "(none)", p->base_sha256);
    } else if (!same_overrides(p, i, cJSON_GetObjectItemCaseSensitive(sc, "overrides"))) {
        snprintf(o->why, sizeof o->why, "summary.json is from a run with other overrides");
    } else if (status && strcmp(status, "ok") == 0) {
        o->status = SWEEP_OK;
        o->exit_code = 0;
    } else {
        o->status = SWEEP_FAILED;
        o->exit_code = status && strcmp(status, "diverged") == 0 ? 1 : -1;
        const cJSON *dv = cJSON_GetObjectItemCaseSensitive(sum, "diverged");
        const cJSON *step = cJSON_GetObjectItemCaseSensitive(dv, "step");
        if (cJSON_IsNumber(step))
            snprintf(o->why, sizeof o->why, "diverged at step %.0f", step->valuedouble);
        else
            snprintf(o->why, sizeof o->why, "status %s", status ? status : "(none)");
    }
}

void sweep_check_run(const struct sweep_plan *p, const char *dir, size_t i, struct sweep_outcome *o)
{
    char *run_dir = sweep_run_dir(p, dir, i);
    *o = (struct sweep_outcome){.status = SWEEP_MISSING, .exit_code = -1};
    struct rundir *rd = run_dir ? open_run(run_dir, o) : NULL;
    if (!run_dir)
        snprintf(o->why, sizeof o->why, "out of memory");
    if (rd)
        judge(p, i, rd->json, o);
    rundir_close(rd);
    free(run_dir);
}

/* ---- collected values ---- */

/* The files of one run directory, as its manifest lists them, read when a collect path
 * first needs them. */
struct run_files {
    struct rundir *rd; /* NULL: the run has none to give */
    cJSON *catenary;
    int tried[2]; /* catenary, metrics */
    char *metrics_header, *metrics_row;
};

static void run_files_free(struct run_files *f)
{
    rundir_close(f->rd);
    cJSON_Delete(f->catenary);
    free(f->metrics_header);
    free(f->metrics_row);
}

/* The path of the listed file name, checked against the manifest; NULL when the run wrote
 * none or it changed since (then it gives no value). */
static char *listed(struct run_files *f, const char *name)
{
    struct catena_error err;
    return f->rd && rundir_find(f->rd, name) ? rundir_path(f->rd, name, &err) : NULL;
}

/* The first line of metrics.csv and its last non-empty line (the last step's values). */
static void read_metrics(struct run_files *f)
{
    char *path = listed(f, "metrics.csv");
    FILE *fp = path ? fopen(path, "rb") : NULL;
    free(path);
    if (!fp)
        return;
    size_t cap = 0;
    char *line = NULL, *tail = malloc(METRICS_TAIL + 1);
    ssize_t n = getline(&line, &cap, fp);
    if (n > 0 && tail && fseek(fp, 0, SEEK_END) == 0) {
        long size = ftell(fp);
        long from = size > METRICS_TAIL ? size - METRICS_TAIL : 0;
        size_t got = 0;
        if (from < n)
            from = n; /* the header is not a row */
        if (size > from && fseek(fp, from, SEEK_SET) == 0)
            got = fread(tail, 1, (size_t)(size - from), fp);
        tail[got] = '\0';
        while (got && (tail[got - 1] == '\n' || tail[got - 1] == '\r'))
            tail[--got] = '\0';
        char *last = strrchr(tail, '\n');
        line[strcspn(line, "\r\n")] = '\0';
        if (got) {
            f->metrics_header = line;
            f->metrics_row = strdup(last ? last + 1 : tail);
            line = NULL;
        }
    }
    free(line);
    free(tail);
    fclose(fp);
}

/* Field k of a comma-separated line, into a malloc'd string. */
static char *csv_field(const char *line, size_t k)
{
    for (; k > 0 && line; k--)
        line = (line = strchr(line, ',')) ? line + 1 : NULL;
    return line ? strndup(line, strcspn(line, ",")) : NULL;
}

static char *metrics_value(struct run_files *f, const char *column)
{
    if (!f->tried[1]) {
        f->tried[1] = 1;
        read_metrics(f);
    }
    if (!f->metrics_header)
        return NULL;
    const char *h = f->metrics_header;
    for (size_t k = 0;; k++) {
        const size_t n = strcspn(h, ",");
        if (n == strlen(column) && strncmp(h, column, n) == 0)
            return csv_field(f->metrics_row, k);
        if (!h[n])
            return NULL;
        h += n + 1;
    }
}

/* The value at a dotted path in a JSON tree (numeric components index arrays). */
static const cJSON *json_at(const cJSON *node, const char *path)
{
    while (node && *path) {
        const size_t n = strcspn(path, ".");
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(n < 255 ? n : 255), path);
        if (cJSON_IsArray(node) && strspn(key, "0123456789") == n && n > 0 && n < 10)
            node = cJSON_GetArrayItem(node, atoi(key));
        else if (cJSON_IsObject(node))
            node = cJSON_GetObjectItemCaseSensitive(node, key);
        else
            node = NULL;
        path += n + (path[n] == '.');
    }
    return node;
}

/* The cell for a JSON value: as in run names; null is an empty cell. */
static char *json_cell(const cJSON *v)
{
    return cJSON_IsNull(v) ? strdup("") : sweep_value_cell(v);
}

/* What a collect path found in the runs, bit by bit. */
enum { FOUND_FILE = 1, FOUND_VALUE = 2 };

/* The value of collect path "FILE.PATH" for one run, malloc'd; NULL when it is not there.
 * *found gets FOUND_FILE when the run has the file. */
/* catenary.json, parsed, when the run lists it. */
static const cJSON *catenary_json(struct run_files *f)
{
    if (f->tried[0])
        return f->catenary;
    f->tried[0] = 1;
    char *path = listed(f, "catenary.json"), *text = NULL;
    size_t len = 0;
    int e;
    if (path && (text = readfile_regular(path, CATENARY_MAX, &len, &e)))
        f->catenary = cJSON_ParseWithLength(text, len);
    free(text);
    free(path);
    return f->catenary;
}

static char *collect_value(struct run_files *f, const char *what, char *found)
{
    const size_t n = strcspn(what, ".");
    const char *rest = what + n + 1;
    if (strncmp(what, "metrics", n) == 0) {
        char *v = metrics_value(f, rest);
        *found |= f->metrics_header ? FOUND_FILE : 0;
        return v;
    }
    const cJSON *doc =
        strncmp(what, "summary", n) == 0 ? (f->rd ? f->rd->json : NULL) : catenary_json(f);
    *found |= doc ? FOUND_FILE : 0;
    const cJSON *v = json_at(doc, rest);
    return v ? json_cell(v) : NULL;
}

/* ---- sweep.csv ---- */

/* A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
static void csv_put(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

/* The fields of a row are separated by commas: before every field but the first. */
static void field(FILE *fp, size_t *k, const char *s)
{
    if ((*k)++)
        fputc(',', fp);
    csv_put(fp, s);
}

/* The run's name comes last: it repeats the values, and it holds commas, which tools that
 * split lines at commas (cut, awk -F,) would stumble on before the values. */
static void write_header(FILE *fp, const struct sweep_plan *p)
{
    size_t k = 0;
    for (size_t a = 0; a < p->naxes; a++)
        field(fp, &k, p->paths[a]);
    for (size_t c = 0; c < p->ncollect; c++)
        field(fp, &k, p->collect[c]);
    fputs(",status,exit_code,name\n", fp);
}

/* One row; found[c] collects what this run had for collect path c. */
static int write_row(FILE *fp, const struct sweep_plan *p, const char *dir, size_t i,
                     const struct sweep_outcome *o, char *found)
{
    char *run_dir = sweep_run_dir(p, dir, i);
    if (!run_dir)
        return -1;
    /* A stale or missing run's files do not belong to this run. */
    const int has_data = o->status == SWEEP_OK || o->status == SWEEP_FAILED;
    struct sweep_outcome again;
    struct run_files f = {.rd = has_data ? open_run(run_dir, &again) : NULL};
    size_t k = 0;
    for (size_t a = 0; a < p->naxes; a++)
        field(fp, &k, p->runs[i].cells[a]);
    for (size_t c = 0; c < p->ncollect; c++) {
        char *v = has_data ? collect_value(&f, p->collect[c], &found[c]) : NULL;
        field(fp, &k, v ? v : "");
        found[c] |= v ? FOUND_VALUE : 0;
        free(v);
    }
    fprintf(fp, ",%s,", sweep_status_name(o->status));
    if (o->exit_code >= 0)
        fprintf(fp, "%d", o->exit_code);
    fputc(',', fp);
    csv_put(fp, p->runs[i].name);
    fputc('\n', fp);
    run_files_free(&f);
    free(run_dir);
    return 0;
}

/* One line per collect path that no run provided although some had its file: a typo in the
 * path, most likely. (A file that no run wrote, as when every run failed to start or the
 * scenario writes no metrics, is no news.) */
static char *unfound_report(const struct sweep_plan *p, const char *found)
{
    char *s = NULL;
    size_t len = 0;
    for (size_t c = 0; c < p->ncollect; c++) {
        if (found[c] != FOUND_FILE)
            continue;
        const size_t n = strcspn(p->collect[c], ".");
        const char *file = strncmp(p->collect[c], "metrics", n) == 0   ? "metrics.csv"
                           : strncmp(p->collect[c], "summary", n) == 0 ? "summary.json"
                                                                       : "catenary.json";
        char line[1024];
        const int w = snprintf(line, sizeof line,
                               "%s: collect[%zu]: \"%s\" is in no run's %s (its column is empty)\n",
                               p->sweep, c, p->collect[c], file);
        char *t = realloc(s, len + (size_t)w + 1);
        if (!t)
            break;
        s = t;
        memcpy(s + len, line, (size_t)w + 1);
        len += (size_t)w;
    }
    return s;
}

int sweep_write_csv(const struct sweep_plan *p, const char *dir, const struct sweep_outcome *out,
                    char **unfound, struct catena_error *err)
{
    char *found = calloc(p->ncollect + 1, 1);
    struct outfile f;
    *unfound = NULL;
    if (!found)
        return error_set(err, CATENA_EFAIL, "%s/sweep.csv: out of memory", dir);
    int rc = outfile_open(&f, dir, "sweep.csv", err);
    if (rc == CATENA_OK) {
        write_header(f.fp, p);
        for (size_t i = 0; i <= p->nruns && rc == CATENA_OK; i++) {
            if (stop_requested()) { /* before each row, and before the commit */
                outfile_abort(&f);
                rc = error_set(err, CATENA_EFAIL, "%s/sweep.csv: interrupted by %s", dir,
                               stop_signal_name(stop_requested()));
            } else if (i < p->nruns && write_row(f.fp, p, dir, i, &out[i], found)) {
                outfile_abort(&f);
                rc = error_set(err, CATENA_EFAIL, "%s/sweep.csv: out of memory", dir);
            }
        }
        if (rc == CATENA_OK)
            rc = outfile_commit(&f, err);
    }
    if (rc == CATENA_OK)
        *unfound = unfound_report(p, found);
    free(found);
    return rc;
}
