/* A suite's cases and orphans (see regress/regress.h): the scenario files under SUITE found
 * depth first without following links to folders, SUITE/golden/ and hidden names left out,
 * sorted by name bytewise so that the order never depends on the file system or the locale;
 * then the folders under SUITE/golden/ that are no case's golden and hold none. */
#define _POSIX_C_SOURCE 200809L
#include "regress/regress.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path.h"

/* Deeper folders than this are not searched (a loop of bind mounts, a mistake). */
#define DEPTH_MAX 32

/* A growing list of names. */
struct names {
    char **v;
    size_t n, cap;
};

static int names_add(struct names *l, char *s)
{
    if (!s)
        return -1;
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            free(s);
            return -1;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

static void names_free(struct names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (struct names){0};
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), t = strlen(tail);
    return n > t && strcmp(s + n - t, tail) == 0;
}

/* "REL/NAME", or NAME at the top; malloc'd. */
static char *rel_join(const char *rel, const char *name)
{
    return *rel ? path_join(rel, name) : strdup(name);
}

/* Visits every entry under ROOT/REL (in `skip` left out at the top) with visit(ctx, REL,
 * NAME, is_dir), which returns 0, 1 to descend into a folder, or -1 when out of memory.
 * Returns 0, -1 when out of memory, or CATENA_EINPUT with err naming a folder that cannot be
 * read. */
static int walk(const char *root, const char *rel, const char *skip, int depth,
                int (*visit)(void *ctx, const char *rel, const char *name, int is_dir), void *ctx,
                struct catena_error *err)
{
    char *path = *rel ? path_join(root, rel) : strdup(root);
    if (!path)
        return -1;
    DIR *d = opendir(path);
    int rc = 0;
    if (!d)
        rc = error_set(err, CATENA_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    for (struct dirent *e; rc == 0 && d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || (!*rel && skip && strcmp(e->d_name, skip) == 0))
            continue;
        char *full = path_join(path, e->d_name);
        struct stat st;
        if (!full)
            rc = -1;
        else if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode))
            rc = visit(ctx, rel, e->d_name, 1);
        else if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
            rc = visit(ctx, rel, e->d_name, 0);
        free(full);
        if (rc == 1) {
            char *sub = rel_join(rel, e->d_name);
            rc = !sub                ? -1
                 : depth < DEPTH_MAX ? walk(root, sub, skip, depth + 1, visit, ctx, err)
                                     : 0;
            free(sub);
        }
    }
    if (d)
        closedir(d);
    free(path);
    return rc;
}

/* What the scenario walk needs: the suite's folder, and the names found. */
struct scenario_walk {
    const char *root;
    struct names names;
};

/* kind 0: scenario files become names; folders are searched, but for run directories (a
 * folder holding a summary.json: runs kept inside the suite with -o), whose scenario.json
 * and summary.json are no cases. */
static int visit_scenario(void *ctx, const char *rel, const char *name, int is_dir)
{
    struct scenario_walk *w = ctx;
    if (is_dir) {
        char *dir = rel_join(rel, name), *full = dir ? path_join(w->root, dir) : NULL;
        char *summary = full ? path_join(full, "summary.json") : NULL;
        struct stat st;
        const int run = summary && stat(summary, &st) == 0;
        free(dir);
        free(full);
        free(summary);
        return summary ? !run : -1;
    }
    if (!ends_with(name, ".json"))
        return 0;
    char *full = rel_join(rel, name);
    if (full)
        full[strlen(full) - 5] = '\0';
    return names_add(&w->names, full);
}

/* What the golden walk needs: the cases' names, sorted, and the orphans found. */
struct golden_walk {
    const struct names *cases;
    struct names orphans;
};

/* Whether some case's name starts with "prefix/". */
static int holds_case(const struct names *cases, const char *prefix)
{
    const size_t n = strlen(prefix);
    for (size_t i = 0; i < cases->n; i++)
        if (strncmp(cases->v[i], prefix, n) == 0 && cases->v[i][n] == '/')
            return 1;
    return 0;
}

/* kind 1: a folder that is a case's golden ends the search there; one that holds goldens is
 * searched; any other is an orphan. Files are left alone. */
static int visit_golden(void *ctx, const char *rel, const char *name, int is_dir)
{
    struct golden_walk *g = ctx;
    if (!is_dir)
        return 0;
    char *full = rel_join(rel, name);
    if (!full)
        return -1;
    const int known =
        bsearch(&full, g->cases->v, g->cases->n, sizeof *g->cases->v, by_bytes) != NULL;
    if (known || holds_case(g->cases, full)) {
        free(full);
        return known ? 0 : 1;
    }
    return names_add(&g->orphans, full);
}

/* A case whose name is a folder of other cases ("a" and "a/b"): a's golden would hold b's. */
static int check_nesting(const char *suite, const struct names *cases, struct catena_error *err)
{
    for (size_t i = 0; i < cases->n; i++)
        for (size_t k = 0; k < cases->n; k++) {
            const size_t n = strlen(cases->v[i]);
            if (k != i && strncmp(cases->v[k], cases->v[i], n) == 0 && cases->v[k][n] == '/')
                return error_set(err, CATENA_EINPUT,
                                 "%s: %s.json and %s.json: the golden of the second would lie "
                                 "inside the first's (golden/%s/); rename one of them",
                                 suite, cases->v[i], cases->v[k], cases->v[i]);
        }
    return CATENA_OK;
}

static int fill_cases(const char *suite, struct names *found, struct regress_result *r)
{
    if (!(r->cases = calloc(found->n, sizeof *r->cases)))
        return -1;
    r->n = found->n;
    for (size_t i = 0; i < found->n; i++) {
        struct regress_case *c = &r->cases[i];
        const size_t n = strlen(found->v[i]) + sizeof ".json";
        c->name = found->v[i];
        found->v[i] = NULL;
        c->exit_code = -1;
        char *golden = path_join(suite, "golden");
        c->golden = golden ? path_join(golden, c->name) : NULL;
        free(golden);
        if ((c->scenario = malloc(n)))
            snprintf(c->scenario, n, "%s.json", c->name);
        char *rel = c->scenario;
        c->scenario = rel ? path_join(suite, rel) : NULL;
        free(rel);
        if (!c->golden || !c->scenario)
            return -1;
    }
    return 0;
}

int regress_find(const char *suite, struct regress_result *r, struct catena_error *err)
{
    struct scenario_walk w = {.root = suite};
    struct names *found = &w.names;
    struct golden_walk g = {.cases = found};
    struct stat st;
    *r = (struct regress_result){0};
    if (stat(suite, &st) != 0)
        return error_set(err, CATENA_EINPUT, "%s: %s", suite, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return error_set(err, CATENA_EINPUT,
                         "%s: not a folder (a suite is a folder of scenario files)", suite);
    char *golden = path_join(suite, "golden");
    int rc = golden ? walk(suite, "", "golden", 0, visit_scenario, &w, err) : -1;
    if (rc == 0 && found->n == 0)
        rc = error_set(err, CATENA_EINPUT, "%s: no scenario file (*.json) in the suite", suite);
    if (rc == 0) {
        qsort(found->v, found->n, sizeof *found->v, by_bytes);
        rc = check_nesting(suite, found, err);
    }
    if (rc == 0 && stat(golden, &st) == 0 && S_ISDIR(st.st_mode))
        rc = walk(golden, "", NULL, 0, visit_golden, &g, err);
    if (rc == 0) {
        if (g.orphans.n > 1)
            qsort(g.orphans.v, g.orphans.n, sizeof *g.orphans.v, by_bytes);
        rc = fill_cases(suite, found, r);
    }
    if (rc < 0)
        rc = error_set(err, CATENA_EFAIL, "%s: out of memory", suite);
    if (rc == 0) {
        r->orphans = g.orphans.v;
        r->norphans = g.orphans.n;
        g.orphans = (struct names){0};
    } else {
        regress_free(r);
    }
    free(golden);
    names_free(found);
    names_free(&g.orphans);
    return rc;
}
