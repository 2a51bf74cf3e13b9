/* breaks.csv (see breaks.h): written by watching the state's alive flags after each step,
 * read back into the step each link broke at. */
#define _POSIX_C_SOURCE 200809L
#include "breaks.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_double.h"
#include "outfile.h"

#define HEADER "step,time,link"

struct break_log {
    struct outfile out;
    const struct model *m;
    unsigned char *alive; /* [nlinks] the flags as last seen */
};

int breaks_possible(const struct model *m)
{
    for (size_t i = 0; i < m->nlinks; i++)
        if (m->links[i].break_stretch > 0 || m->links[i].break_force > 0)
            return 1;
    return 0;
}

struct break_log *break_log_open(const char *dir, const struct model *m, const struct state *s,
                                 struct catena_error *err)
{
    error_clear(err);
    if (!breaks_possible(m))
        return NULL;
    struct break_log *b = calloc(1, sizeof *b);
    unsigned char *alive = malloc(s->nlinks ? s->nlinks : 1);
    if (!b || !alive) {
        free(b);
        free(alive);
        error_set(err, CATENA_EFAIL, "%s/breaks.csv: out of memory", dir);
        return NULL;
    }
    memcpy(alive, s->alive, s->nlinks);
    b->m = m;
    b->alive = alive;
    if (outfile_open(&b->out, dir, "breaks.csv", err)) {
        free(alive);
        free(b);
        return NULL;
    }
    fputs(HEADER "\n", b->out.fp);
    return b;
}

int break_log_step(struct break_log *b, const struct state *s, struct catena_error *err)
{
    (void)err; /* write errors are found when the file is committed */
    for (size_t i = 0; i < s->nlinks; i++) {
        if (b->alive[i] == s->alive[i])
            continue;
        char t[FMT_DOUBLE_SIZE];
        fmt_double(t, s->t);
        fprintf(b->out.fp, "%ld,%s,%zu\n", s->step, t, i);
        b->alive[i] = s->alive[i];
    }
    return CATENA_OK;
}

int break_log_close(struct break_log *b, struct catena_error *err)
{
    const int rc = outfile_commit(&b->out, err);
    free(b->alive);
    free(b);
    return rc;
}

void break_log_abort(struct break_log *b)
{
    if (!b)
        return;
    outfile_abort(&b->out);
    free(b->alive);
    free(b);
}

/* ---- reading ---- */

/* A decimal integer field ending at ',' or the line's end; -1 if it is not one. */
static long long field_integer(const char **p)
{
    const char *s = *p;
    long long v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (LLONG_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    *p = s;
    return v;
}

/* One row "step,time,link": the time is not needed (it is step x dt). */
static int parse_row(const char *line, const struct model *m, long *step, size_t *link)
{
    const char *p = line;
    const long long st = field_integer(&p);
    if (st < 0 || st > LONG_MAX || *p++ != ',')
        return -1;
    p += strcspn(p, ",");
    if (*p++ != ',')
        return -1;
    const long long l = field_integer(&p);
    if (l < 0 || (unsigned long long)l >= m->nlinks || (*p != '\n' && *p != '\0'))
        return -1;
    *step = (long)st;
    *link = (size_t)l;
    return 0;
}

static int read_rows(FILE *fp, const char *path, const struct model *m, long *steps,
                     struct catena_error *err)
{
    char line[256];
    long n = 0;
    if (!fgets(line, sizeof line, fp) || strcmp(line, HEADER "\n") != 0)
        return error_set(err, CATENA_EINPUT, "%s:1: expected the header \"" HEADER "\"", path);
    while (fgets(line, sizeof line, fp)) {
        long step;
        size_t link;
        n++;
        if (parse_row(line, m, &step, &link))
            return error_set(err, CATENA_EINPUT,
                             "%s:%ld: expected STEP,TIME,LINK with a link below %zu", path, n + 1,
                             m->nlinks);
        if (steps[link] != LONG_MAX)
            return error_set(err, CATENA_EINPUT, "%s:%ld: link %zu breaks twice", path, n + 1,
                             link);
        steps[link] = step;
    }
    if (ferror(fp))
        return error_set(err, CATENA_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    return CATENA_OK;
}

long *breaks_read(const char *dir, const struct model *m, struct catena_error *err)
{
    long *steps = malloc((m->nlinks ? m->nlinks : 1) * sizeof *steps);
    const size_t n = strlen(dir) + sizeof "/breaks.csv";
    char *path = malloc(n);
    if (!steps || !path) {
        free(steps);
        free(path);
        error_set(err, CATENA_EFAIL, "%s/breaks.csv: out of memory", dir);
        return NULL;
    }
    for (size_t i = 0; i < m->nlinks; i++)
        steps[i] = LONG_MAX;
    int rc = CATENA_OK;
    if (breaks_possible(m)) {
        snprintf(path, n, "%s/breaks.csv", dir);
        FILE *fp = fopen(path, "r");
        if (!fp) {
            rc = error_set(err, CATENA_EINPUT,
                           "%s: cannot open: %s (a run whose links can break records them there)",
                           path, strerror(errno));
        } else {
            rc = read_rows(fp, path, m, steps, err);
            fclose(fp);
        }
    }
    free(path);
    if (rc == CATENA_OK)
        return steps;
    free(steps);
    return NULL;
}
