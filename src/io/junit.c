/* JUnit XML reports (see io/junit.h): the document is written through an outfile, so that a
 * CI job never reads half a report, and every string goes through junit_escape, which
 * decodes UTF-8 strictly and writes what XML 1.0 cannot hold as visible \xNN text. */
#define _POSIX_C_SOURCE 200809L
#include "io/junit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/outfile.h"

/* The length of the UTF-8 sequence at s with its code point in *cp, or 0 when s does not
 * start a valid one: a stray continuation byte, an overlong form, a surrogate, a code point
 * beyond U+10FFFF, or a sequence cut short (by the terminating NUL among others). */
static int utf8_decode(const unsigned char *s, unsigned long *cp)
{
    const unsigned c = s[0];
    unsigned long v, min;
    int n;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

/* One decoded character: markup as entities, whitespace that an attribute would lose as a
 * reference, what XML 1.0 forbids as visible text, C1 controls (allowed but invisible) as
 * references, anything else as its own bytes. */
static void escape_char(FILE *out, const unsigned char *p, int n, unsigned long cp, int attribute)
{
    switch (cp) {
    case '&':
        fputs("&amp;", out);
        return;
    case '<':
        fputs("&lt;", out);
        return;
    case '>':
        fputs("&gt;", out);
        return;
    case '"':
        fputs("&quot;", out);
        return;
    case '\'':
        fputs("&apos;", out);
        return;
    case '\t':
    case '\n':
        if (attribute)
            fprintf(out, "&#%lu;", cp);
        else
            fputc((int)cp, out);
        return;
    case '\r':
        fputs("&#13;", out); /* a raw one would read back as a newline */
        return;
    }
    if (cp < 0x20)
        fprintf(out, "\\x%02lX", cp);
    else if (cp == 0xFFFE || cp == 0xFFFF)
        fprintf(out, "\\u%04lX", cp);
    else if (cp >= 0x7F && cp <= 0x9F)
        fprintf(out, "&#x%lX;", cp);
    else
        fwrite(p, 1, (size_t)n, out);
}

void junit_escape(FILE *out, const char *s, int attribute)
{
    if (!s)
        return;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned long cp;
        const int n = utf8_decode(p, &cp);
        if (n == 0) {
            fprintf(out, "\\x%02X", *p++);
            continue;
        }
        escape_char(out, p, n, cp, attribute);
        p += n;
    }
}

static void attr(FILE *f, const char *key, const char *value)
{
    if (!value)
        return;
    fprintf(f, " %s=\"", key);
    junit_escape(f, value, 1);
    fputc('"', f);
}

/* Seconds as the schema's time type reads them: digits, a point, three decimals. */
static void attr_time(FILE *f, double t)
{
    if (t >= 0 && isfinite(t))
        fprintf(f, " time=\"%.3f\"", t);
}

static void attr_counts(FILE *f, const struct junit_suite *s)
{
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < s->ncases; i++) {
        failures += s->cases[i].outcome == JUNIT_FAILED;
        errors += s->cases[i].outcome == JUNIT_ERROR;
    }
    fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\"", s->ncases, failures, errors);
}

static void write_case(FILE *f, const struct junit_case *c)
{
    fputs("    <testcase", f);
    attr(f, "name", c->name ? c->name : "");
    attr(f, "classname", c->classname ? c->classname : "");
    attr_time(f, c->time);
    if (c->outcome == JUNIT_PASSED && !c->output) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    if (c->outcome != JUNIT_PASSED) {
        const char *element = c->outcome == JUNIT_FAILED ? "failure" : "error";
        fprintf(f, "      <%s", element);
        attr(f, "type", c->type);
        attr(f, "message", c->message ? c->message : "");
        fputc('>', f);
        junit_escape(f, c->text, 0);
        fprintf(f, "</%s>\n", element);
    }
    if (c->output) {
        fputs("      <system-err>", f);
        junit_escape(f, c->output, 0);
        fputs("</system-err>\n", f);
    }
    fputs("    </testcase>\n", f);
}

static void write_document(FILE *f, const struct junit_suite *s)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", f);
    attr(f, "name", s->name);
    attr_counts(f, s);
    attr_time(f, s->time);
    fputs(">\n  <testsuite", f);
    attr(f, "name", s->name);
    attr_counts(f, s);
    fputs(" skipped=\"0\"", f);
    attr_time(f, s->time);
    fputs(">\n", f);
    for (size_t i = 0; i < s->ncases; i++)
        write_case(f, &s->cases[i]);
    fputs("  </testsuite>\n</testsuites>\n", f);
}

int junit_write(const char *path, const struct junit_suite *suite, struct catena_error *err)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (!*name)
        return error_set(err, CATENA_EFAIL, "%s: expected a file name for the JUnit report", path);
    char *dir = strdup(path);
    if (!dir)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", path);
    /* "/name" lives in "/", "name" in the current directory. */
    dir[slash ? (size_t)(slash - path) + (slash == path) : 0] = '\0';
    struct outfile f;
    int rc = outfile_open(&f, dir, name, err);
    if (rc == CATENA_OK) {
        write_document(f.fp, suite);
        rc = outfile_commit(&f, err);
    }
    free(dir);
    return rc;
}
