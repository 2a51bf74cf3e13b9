/* Judging a case once its run has ended (see regress/regress.h): how the run exited, the
 * checks its summary.json says failed, and the comparison of the run with its golden
 * (io/compare.h); with --update, whether the golden changed at all and, if so, blessing the
 * fresh run. */
#define _POSIX_C_SOURCE 200809L
#include "regress/regress.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path.h"
#include "core/readfile.h"

/* What a JUnit report keeps of a run's output: its end. */
#define OUTPUT_MAX 65536

static void say(struct regress_case *c, enum regress_verdict v, const char *kind, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));

static void say(struct regress_case *c, enum regress_verdict v, const char *kind, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->message, sizeof c->message, fmt, ap);
    va_end(ap);
    c->verdict = v;
    c->kind = kind;
}

/* The run's output, its last OUTPUT_MAX bytes; NULL when empty or unreadable. */
static char *read_output(const char *log)
{
    size_t len = 0;
    int e;
    char *text = readfile(log, &len, &e);
    if (!text || len == 0) {
        free(text);
        return NULL;
    }
    if (len > OUTPUT_MAX) {
        memmove(text, text + len - OUTPUT_MAX, OUTPUT_MAX + 1);
        len = OUTPUT_MAX;
    }
    return text;
}

/* The last non-empty line of text, without catena's "catena: " prefix. */
static void last_line(const char *text, char *out, size_t size)
{
    size_t end = text ? strlen(text) : 0;
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
        end--;
    size_t start = end;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    if (end - start >= 8 && strncmp(text + start, "catena: ", 8) == 0)
        start += 8;
    snprintf(out, size, "%.*s", (int)(end - start), text ? text + start : "");
}

/* The checks the run's summary.json says failed, written to f (unless NULL) one a line, the
 * first into first; returns how many. */
static size_t failed_checks(const char *run, FILE *f, char *first, size_t size)
{
    char *path = path_join(run, "summary.json");
    size_t len = 0, n = 0;
    int e;
    char *text = path ? readfile(path, &len, &e) : NULL;
    cJSON *root = text ? cJSON_ParseWithLength(text, len) : NULL;
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "checks"), "results");
    const cJSON *r;
    cJSON_ArrayForEach(r, results)
    {
        const char *result = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "result"));
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "name"));
        const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "message"));
        if (!result || strcmp(result, "failed") != 0)
            continue;
        if (n++ == 0)
            snprintf(first, size, "\"%s\" failed: %s", name ? name : "?", msg ? msg : "");
        if (f)
            fprintf(f, "check \"%s\" failed: %s\n", name ? name : "?", msg ? msg : "");
    }
    cJSON_Delete(root);
    free(text);
    free(path);
    return n;
}

/* Compares the fresh run with its golden under opt (io/compare.h: positions on the steps
 * both record, events, topology changes, status and final metrics), printing the report to f
 * (unless NULL) when they differ. Returns compare's status; when they differ, *part names the
 * first part that does and `what` says how, one line, with the other parts that differ. */
static int compare_golden(const struct regress_case *c, const struct compare_options *opt, FILE *f,
                          const char **part, char *what, size_t size, struct catena_error *err)
{
    struct compare_result res;
    const int rc = compare_paths(c->run, c->golden, opt, &res, err);
    *part = NULL;
    what[0] = '\0';
    for (int k = 0; rc != CATENA_EINPUT && k < COMPARE_NPARTS; k++) {
        if (!res.part[k].compared || !res.part[k].differ)
            continue;
        const size_t len = strlen(what);
        if (!*part) {
            *part = compare_part_name((enum compare_part)k);
            compare_describe_part(&res, (enum compare_part)k, what, size);
        } else if (len < size) {
            snprintf(what + len, size - len, "%s %s", strstr(what, "; also in") ? "," : "; also in",
                     compare_part_name((enum compare_part)k));
        }
    }
    if (*part && f)
        compare_print(f, &res);
    compare_result_free(&res);
    return rc;
}

static void say_checks(struct regress_case *c, size_t nfailed, const char *first)
{
    if (nfailed == 1)
        say(c, REGRESS_FAILED, "checks", "check %s", first);
    else
        say(c, REGRESS_FAILED, "checks", "%zu checks failed, the first: check %s", nfailed, first);
}

/* After a run that went to its end: its checks, and its golden. */
static void judge_completed(const struct regress_options *o, struct regress_case *c, FILE *f)
{
    char first[700] = "";
    const size_t nfailed = failed_checks(c->run, f, first, sizeof first);
    struct stat st;
    if (stat(c->golden, &st) != 0) {
        if (nfailed)
            say_checks(c, nfailed, first);
        else
            say(c, REGRESS_FAILED, "golden", "no golden run %s (catena regress --update writes it)",
                c->golden);
        return;
    }
    struct catena_error err;
    const char *part = NULL;
    char files[900], what[1200];
    const int rc = regress_golden_files_differ(c->run, c->golden, 1, files, sizeof files)
                       ? CATENA_OK
                       : compare_golden(c, &o->cmp, f, &part, what, sizeof what, &err);
    if (nfailed)
        say_checks(c, nfailed, first);
    else if (files[0])
        say(c, REGRESS_FAILED, "files", "%s", files);
    else if (part)
        say(c, REGRESS_FAILED, part, "%s: %s", part, what);
    else if (rc != CATENA_OK) /* another shape (points, no step in common) is a difference too */
        say(c, REGRESS_FAILED, "compare", "cannot be compared with its golden: %.1900s", err.msg);
    else
        say(c, REGRESS_PASSED, NULL, "%s", "");
}

void regress_judge(const struct regress_options *o, struct regress_case *c)
{
    char line[900];
    size_t n = 0;
    FILE *f = open_memstream(&c->report, &n);
    c->output = read_output(c->log);
    last_line(c->output, line, sizeof line);
    if (c->exit_code < 0) {
        char why[sizeof c->message];
        memcpy(why, c->message, sizeof why); /* why it could not start, if it was tried */
        say(c, REGRESS_ERROR, "run", "not run: %s",
            why[0] ? why : "a run before it could not start");
    } else if (c->exit_code == CATENA_EINPUT)
        say(c, REGRESS_ERROR, "scenario", "the scenario was refused: %s", line);
    else if (c->exit_code != 0 && c->exit_code != CATENA_EFAIL)
        say(c, REGRESS_FAILED, "run", "catena run exited with status %d: %s", c->exit_code, line);
    else if (c->exit_code == CATENA_EFAIL && failed_checks(c->run, NULL, line, 0) == 0)
        say(c, REGRESS_FAILED, "run", "the run failed: %s", line); /* diverged, say */
    else
        judge_completed(o, c, f); /* ran to its end; its checks may have failed */
    if (f)
        fclose(f);
    if (c->report && !c->report[0]) {
        free(c->report);
        c->report = NULL;
    }
}

int regress_bless(const struct regress_options *o, struct regress_case *c, struct catena_error *err)
{
    struct stat st;
    char files[900];
    if (stat(c->golden, &st) == 0 &&
        regress_golden_files_differ(c->run, c->golden, 0, files, sizeof files)) {
        snprintf(c->change, sizeof c->change, "%s", files);
        c->blessing = REGRESS_CHANGED;
    } else if (stat(c->golden, &st) == 0) {
        struct compare_options exact = o->cmp;
        exact.atol = exact.rtol = exact.metric_atol = exact.metric_rtol = 0.0;
        exact.step_tol = 0;
        struct catena_error why;
        const char *part = NULL;
        char what[900];
        const int rc = compare_golden(c, &exact, NULL, &part, what, sizeof what, &why);
        if (rc == CATENA_OK) {
            c->blessing = REGRESS_UNCHANGED;
            return CATENA_OK;
        }
        /* how far: within the suite's tolerance (rounding) or beyond (physics) */
        snprintf(c->change, sizeof c->change, "%s%s%.700s; %s the tolerance (atol %g, rtol %g)",
                 part ? part : "cannot be compared with its golden", ": ", part ? what : why.msg,
                 c->verdict == REGRESS_PASSED ? "within" : "beyond", o->cmp.atol, o->cmp.rtol);
        c->blessing = REGRESS_CHANGED;
    } else {
        c->blessing = REGRESS_NEW;
    }
    const int rc = regress_golden_write(c->run, c->golden, err);
    if (rc == CATENA_OK) {
        /* the golden is the fresh run now */
        say(c, REGRESS_PASSED, NULL, "%s", "");
        free(c->report);
        c->report = NULL;
    }
    return rc;
}
