/* topology.csv (see io/topology.h): written by comparing the run's working model and state with
 * what was last written, after every step boundary; replayed row by row as a reader moves
 * through the recorded steps. */
#define _POSIX_C_SOURCE 200809L
#include "io/topology.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "core/outfile.h"

#define HEADER TOPOLOGY_HEADER

int topology_can_change(const struct model *m)
{
    if (m->nevents > 0 || m->nreserved_links > 0)
        return 1;
    for (size_t i = 0; i < m->nlinks; i++)
        if (m->links[i].break_stretch > 0 || m->links[i].break_force > 0)
            return 1;
    return 0;
}

/* The scenario's own links, all live, its inverse masses and radii (a model may have no
 * links, and then no links array to copy from). */
static void copy_baseline(const struct model *m, struct link *links, unsigned char *alive,
                          double *inv_mass, double *radius)
{
    if (m->nlinks) {
        memcpy(links, m->links, m->nlinks * sizeof *links);
        memset(alive, 1, m->nlinks);
    }
    if (m->npoints) {
        memcpy(inv_mass, m->inv_mass, m->npoints * sizeof *inv_mass);
        memcpy(radius, m->radius, m->npoints * sizeof *radius);
    }
}

/* ---- writing ---- */

struct topology_log {
    struct outfile out;
    size_t nlinks, npoints;
    struct link *links;   /* [nlinks] as last written */
    unsigned char *alive; /* [nlinks] */
    double *inv_mass;     /* [npoints] */
    double *radius;       /* [npoints] */
};

static void log_free(struct topology_log *t)
{
    free(t->links);
    free(t->alive);
    free(t->inv_mass);
    free(t->radius);
    free(t);
}

struct topology_log *topology_log_open(const char *dir, const struct model *m,
                                       struct catena_error *err)
{
    error_clear(err);
    if (!topology_can_change(m))
        return NULL;
    struct topology_log *t = calloc(1, sizeof *t);
    if (t) {
        t->nlinks = m->nlinks;
        t->npoints = m->npoints;
        t->links = malloc((m->nlinks ? m->nlinks : 1) * sizeof *t->links);
        t->alive = malloc(m->nlinks ? m->nlinks : 1);
        t->inv_mass = malloc((m->npoints ? m->npoints : 1) * sizeof *t->inv_mass);
        t->radius = malloc((m->npoints ? m->npoints : 1) * sizeof *t->radius);
    }
    if (!t || !t->links || !t->alive || !t->inv_mass || !t->radius) {
        if (t)
            log_free(t);
        error_set(err, CATENA_EFAIL, "%s/topology.csv: out of memory", dir);
        return NULL;
    }
    copy_baseline(m, t->links, t->alive, t->inv_mass, t->radius);
    if (outfile_open(&t->out, dir, "topology.csv", err)) {
        log_free(t);
        return NULL;
    }
    fputs(HEADER "\n", t->out.fp);
    return t;
}

static void write_row(struct topology_log *t, long step, const char *kind, size_t index,
                      const struct link *l, double value, int has_value)
{
    char v[FMT_DOUBLE_SIZE] = "";
    if (has_value)
        fmt_double(v, value);
    if (l)
        fprintf(t->out.fp, "%ld,%s,%zu,%u,%u,%s\n", step, kind, index, l->a, l->b, v);
    else
        fprintf(t->out.fp, "%ld,%s,%zu,,,%s\n", step, kind, index, v);
}

void topology_log_step(struct topology_log *t, const struct model *lm, const unsigned char *alive,
                       long step)
{
    for (size_t i = 0; i < t->nlinks; i++) {
        const struct link *l = &lm->links[i], *was = &t->links[i];
        const int live = alive[i] != 0;
        const int moved = l->a != was->a || l->b != was->b || l->rest != was->rest;
        if (live == t->alive[i] && !(live && moved))
            continue;
        if (live)
            write_row(t, step, "link", i, l, l->rest, 1);
        else
            write_row(t, step, "dead", i, NULL, 0, 0);
        t->alive[i] = (unsigned char)live;
        t->links[i] = *l;
    }
    for (size_t p = 0; p < t->npoints; p++) {
        if (lm->inv_mass[p] == t->inv_mass[p])
            continue;
        write_row(t, step, "w", p, NULL, lm->inv_mass[p], 1);
        t->inv_mass[p] = lm->inv_mass[p];
    }
    for (size_t p = 0; p < t->npoints; p++) {
        if (lm->radius[p] == t->radius[p])
            continue;
        write_row(t, step, "radius", p, NULL, lm->radius[p], 1);
        t->radius[p] = lm->radius[p];
    }
}

int topology_log_close(struct topology_log *t, struct catena_error *err)
{
    const int rc = outfile_commit(&t->out, err);
    log_free(t);
    return rc;
}

void topology_log_abort(struct topology_log *t)
{
    if (!t)
        return;
    outfile_abort(&t->out);
    log_free(t);
}

/* ---- replaying ---- */

/* Reads the next row into t->row and its step into t->next_step (LONG_MAX at the end). */
static int read_ahead(struct topology *t, struct catena_error *err)
{
    if (!fgets(t->row, sizeof t->row, t->fp)) {
        if (ferror(t->fp))
            return error_set(err, CATENA_EINPUT, "%s: cannot read: %s", t->path, strerror(errno));
        t->next_step = LONG_MAX;
        return CATENA_OK;
    }
    t->line++;
    char *end;
    errno = 0;
    const long step = strtol(t->row, &end, 10);
    if (end == t->row || *end != ',' || errno || step < 0)
        return error_set(err, CATENA_EINPUT, "%s:%ld: expected a step number first", t->path,
                         t->line);
    if (step < t->next_step && t->line > 2)
        return error_set(err, CATENA_EINPUT, "%s:%ld: steps go backwards", t->path, t->line);
    t->next_step = step;
    return CATENA_OK;
}

/* An unsigned field ending at ',' below limit, or -1. */
static long long field_index(char **p, size_t limit)
{
    char *end;
    if (**p < '0' || **p > '9')
        return -1;
    errno = 0;
    const unsigned long long v = strtoull(*p, &end, 10);
    if (errno || *end != ',' || v >= limit)
        return -1;
    *p = end + 1;
    return (long long)v;
}

/* A number field ending the row. */
static int field_value(char *p, double *v)
{
    char *end;
    *v = strtod(p, &end);
    return end != p && (*end == '\n' || *end == '\0') ? 0 : -1;
}

static int apply_row(struct topology *t, struct catena_error *err)
{
    const struct model *m = t->m;
    char *p = strchr(t->row, ',') + 1, *kind = p;
    p += strcspn(p, ",");
    if (*p != ',')
        goto bad;
    *p++ = '\0';
    const int link = !strcmp(kind, "link"), dead = !strcmp(kind, "dead"), w = !strcmp(kind, "w"),
              radius = !strcmp(kind, "radius");
    const long long i = field_index(&p, w || radius ? m->npoints : m->nlinks);
    if (i < 0)
        goto bad;
    if (link) {
        const long long a = field_index(&p, m->npoints), b = field_index(&p, m->npoints);
        double rest;
        if (a < 0 || b < 0 || field_value(p, &rest) || !(rest > 0))
            goto bad;
        t->links[i].a = (uint32_t)a;
        t->links[i].b = (uint32_t)b;
        t->links[i].rest = rest;
        t->alive[i] = 1;
    } else if (dead && !strcmp(p, ",,\n")) {
        t->alive[i] = 0;
    } else if (w && !strncmp(p, ",,", 2) && !field_value(p + 2, &t->inv_mass[i]) &&
               t->inv_mass[i] >= 0) {
    } else if (radius && !strncmp(p, ",,", 2) && !field_value(p + 2, &t->radius[i]) &&
               t->radius[i] >= 0 && isfinite(t->radius[i])) {
    } else {
        goto bad;
    }
    t->changed++;
    return CATENA_OK;
bad:
    return error_set(err, CATENA_EINPUT,
                     "%s:%ld: expected STEP,link,LINK,A,B,REST, STEP,dead,LINK,,, "
                     "STEP,w,POINT,,,INVERSE_MASS or STEP,radius,POINT,,,RADIUS with indices in "
                     "range",
                     t->path, t->line);
}

int topology_open(struct topology *t, const struct model *m, const char *run_dir,
                  struct catena_error *err)
{
    *t = (struct topology){.m = m, .next_step = LONG_MAX};
    const size_t n = strlen(run_dir) + sizeof "/topology.csv";
    t->links = malloc((m->nlinks ? m->nlinks : 1) * sizeof *t->links);
    t->alive = malloc(m->nlinks ? m->nlinks : 1);
    t->inv_mass = malloc((m->npoints ? m->npoints : 1) * sizeof *t->inv_mass);
    t->radius = malloc((m->npoints ? m->npoints : 1) * sizeof *t->radius);
    t->path = malloc(n);
    if (!t->links || !t->alive || !t->inv_mass || !t->radius || !t->path) {
        topology_close(t);
        return error_set(err, CATENA_EFAIL, "out of memory for the links");
    }
    copy_baseline(m, t->links, t->alive, t->inv_mass, t->radius);
    snprintf(t->path, n, "%s/topology.csv", run_dir);
    if (!topology_can_change(m))
        return CATENA_OK;
    int rc = CATENA_OK;
    if (!(t->fp = fopen(t->path, "r")))
        rc = error_set(err, CATENA_EINPUT,
                       "%s: cannot open: %s (a run whose links or pins can change records the "
                       "changes there)",
                       t->path, strerror(errno));
    else if (!fgets(t->row, sizeof t->row, t->fp) || strcmp(t->row, HEADER "\n") != 0)
        rc = error_set(err, CATENA_EINPUT, "%s:1: expected the header \"" HEADER "\"", t->path);
    else {
        t->line = 1;
        rc = read_ahead(t, err);
    }
    if (rc)
        topology_close(t);
    return rc;
}

int topology_advance(struct topology *t, double step, struct catena_error *err)
{
    while ((double)t->next_step <= step) {
        if (apply_row(t, err) || read_ahead(t, err))
            return CATENA_EINPUT;
    }
    return CATENA_OK;
}

void topology_close(struct topology *t)
{
    if (t->fp)
        fclose(t->fp);
    free(t->links);
    free(t->alive);
    free(t->inv_mass);
    free(t->radius);
    free(t->path);
    t->fp = NULL;
    t->links = NULL;
    t->alive = NULL;
    t->inv_mass = NULL;
    t->radius = NULL;
    t->path = NULL;
}
