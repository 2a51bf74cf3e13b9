/* The JSON scanner (core/json_scan.h): the input (a text, or a file read in chunks that keeps
 * only the value being scanned), the tokens (strings, numbers, literals) and the grammar of
 * containers, one event per call. Messages name what was found and what was expected.
 * Checked strings are decoded in json_scan_string.c. */
#include "core/json_scan.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 1 << 16 }; /* bytes read from a file at a time */

/* What a container expects next: a first member or its close, the colon after a key, a comma
 * or its close. */
enum { ST_OPEN, ST_AFTER_KEY, ST_AFTER_VALUE };

/* ---- input ---- */

/* Advances *line and *col over s[0..n): columns count UTF-8 characters, not bytes. */
static void count_lines(const char *s, size_t n, size_t *line, size_t *col)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

static void reset(struct json_scan *sc, unsigned flags)
{
    memset(sc, 0, offsetof(struct json_scan, stack));
    sc->flags = flags;
    sc->base_line = sc->base_col = 1;
}

void json_scan_text(struct json_scan *sc, const char *text, size_t len, unsigned flags)
{
    reset(sc, flags);
    sc->s = text;
    sc->len = len;
    sc->eof = 1;
}

void json_scan_file(struct json_scan *sc, FILE *fp, unsigned flags)
{
    reset(sc, flags);
    sc->fp = fp;
    sc->s = "";
}

void json_scan_free(struct json_scan *sc)
{
    free(sc->buf);
    sc->buf = NULL;
    sc->s = "";
    sc->len = sc->pos = 0;
}

size_t json_scan_offset(const struct json_scan *sc)
{
    return sc->base + sc->pos;
}

size_t json_scan_length(const struct json_scan *sc)
{
    return sc->base + sc->len;
}

void json_scan_where(const struct json_scan *sc, size_t offset, size_t *line, size_t *col)
{
    *line = sc->base_line;
    *col = sc->base_col;
    if (offset > sc->base)
        count_lines(sc->s, offset - sc->base < sc->len ? offset - sc->base : sc->len, line, col);
}

static int fail_status(struct json_scan *sc, enum json_scan_status status, size_t at,
                       const char *fmt, va_list ap)
{
    if (sc->status) /* a read failed on the way here: that is the error */
        return -1;
    vsnprintf(sc->what, sizeof sc->what, fmt, ap);
    sc->status = status;
    sc->at = at;
    return -1;
}

/* A syntax error at offset at. */
static int fail(struct json_scan *sc, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct json_scan *sc, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_status(sc, JSON_SCAN_SYNTAX, at, fmt, ap);
    va_end(ap);
    return -1;
}

/* An error because the input ended: the message says what is missing. */
static int fail_range(struct json_scan *sc, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_range(struct json_scan *sc, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_status(sc, JSON_SCAN_RANGE, at, fmt, ap);
    va_end(ap);
    return -1;
}
static int fail_eof(struct json_scan *sc, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_eof(struct json_scan *sc, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_status(sc, JSON_SCAN_TRUNCATED, at, fmt, ap);
    va_end(ap);
    return -1;
}

/* The input failed (status READ, NOMEM or TOO_LONG) at offset at; returns 0 for more(). */
static int fail_input(struct json_scan *sc, enum json_scan_status status, int errnum, size_t at)
{
    sc->status = status;
    sc->read_errno = errnum;
    sc->at = at;
    return 0;
}

/* Drops the bytes before the value being scanned (or before pos between values), counting
 * their lines, so that the buffer holds one value whatever the length of the file. */
static void drop_scanned(struct json_scan *sc)
{
    const size_t keep = sc->in_value ? sc->value_start - sc->base : sc->pos;
    if (keep == 0)
        return;
    count_lines(sc->buf, keep, &sc->base_line, &sc->base_col);
    memmove(sc->buf, sc->buf + keep, sc->len - keep);
    sc->base += keep;
    sc->len -= keep;
    sc->pos -= keep;
}

/* Reads from the file until n bytes from pos are there or the file ends; 0 when they are not
 * there (the file ended, or status says why). */
static int more(struct json_scan *sc, size_t n)
{
    while (sc->len - sc->pos < n) {
        if (sc->eof || sc->status)
            return 0;
        if (sc->in_value && sc->max_value && json_scan_offset(sc) - sc->value_start > sc->max_value)
            return fail_input(sc, JSON_SCAN_TOO_LONG, 0, sc->value_start);
        drop_scanned(sc);
        if (sc->cap - sc->len < CHUNK + 1) {
            size_t ncap = sc->cap + sc->cap / 2;
            if (ncap < sc->len + CHUNK + 1)
                ncap = sc->len + CHUNK + 1;
            char *b = realloc(sc->buf, ncap);
            if (!b)
                return fail_input(sc, JSON_SCAN_NOMEM, ENOMEM, json_scan_offset(sc));
            sc->buf = b;
            sc->cap = ncap;
        }
        const size_t got = fread(sc->buf + sc->len, 1, sc->cap - 1 - sc->len, sc->fp);
        sc->len += got;
        sc->buf[sc->len] = '\0';
        sc->s = sc->buf;
        if (got == 0 && ferror(sc->fp))
            return fail_input(sc, JSON_SCAN_READ, errno ? errno : EIO, json_scan_offset(sc));
        sc->eof = got == 0;
    }
    return 1;
}

/* Whether n bytes from pos are there (reading more of a file when needed). */
static inline int have(struct json_scan *sc, size_t n)
{
    return sc->len - sc->pos >= n || more(sc, n);
}

static inline unsigned char byte(const struct json_scan *sc, size_t i)
{
    return (unsigned char)sc->s[sc->pos + i];
}

static int is_ws(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_ws(struct json_scan *sc)
{
    while (have(sc, 1) && is_ws(byte(sc, 0)))
        sc->pos++;
}

static int is_word_char(int c)
{
    return isalnum(c) || c == '_';
}

/* Whether the word w stands at pos, not followed by a letter, digit or '_'. */
static int word_at(struct json_scan *sc, const char *w)
{
    const size_t k = strlen(w);
    return have(sc, k) && memcmp(sc->s + sc->pos, w, k) == 0 &&
           (!have(sc, k + 1) || !is_word_char(byte(sc, k)));
}

/* Describes what is at pos for "expected X, got Y": end of file, a word, a character. */
static const char *found(struct json_scan *sc, char *buf, size_t size)
{
    if (!have(sc, 1))
        return "end of file";
    const unsigned char c = byte(sc, 0);
    if (isalpha(c)) {
        size_t n = 0;
        while (n < 32 && have(sc, n + 1) && is_word_char(byte(sc, n)))
            n++;
        snprintf(buf, size, "\"%.*s\"", (int)n, sc->s + sc->pos);
    } else if (c >= 0x20 && c < 0x7F) {
        snprintf(buf, size, "'%c'", c);
    } else {
        snprintf(buf, size, "byte 0x%02X", c);
    }
    return buf;
}

/* ---- tokens ---- */

/* The 4 hex digits from pos + i: the value, -1 if one is not a hex digit, -2 if the input
 * ends first. */
static long hex4(struct json_scan *sc, size_t i)
{
    long v = 0;
    for (size_t k = i; k < i + 4; k++) {
        if (!have(sc, k + 1))
            return -2;
        const int c = tolower(byte(sc, k));
        if (!isxdigit(c))
            return -1;
        v = 16 * v + (isdigit(c) ? c - '0' : c - 'a' + 10);
    }
    return v;
}

/* A \u escape whose backslash is at offset esc; pos is just after the 'u'. cJSON fails
 * without a reason on a broken surrogate pair, and stops a string at \u0000 (so that
 * "a\u0000b" would silently read as "a"): both are refused here, with the reason. */
static int unicode_escape(struct json_scan *sc, size_t esc)
{
    const long u = hex4(sc, 0);
    if (u < 0)
        return (u == -2 ? fail_eof : fail)(sc, esc, "invalid escape (\\u needs 4 hex digits)");
    sc->pos += 4;
    if (u == 0)
        return fail(sc, esc, "\\u0000 (a NUL character) is not allowed in a string");
    if (u >= 0xDC00 && u <= 0xDFFF)
        return fail(sc, esc,
                    "invalid escape \\u%04lX (the second half of a surrogate pair, "
                    "without a first)",
                    u);
    if (u < 0xD800 || u > 0xDBFF)
        return 0;
    const int slash = have(sc, 1) && byte(sc, 0) == '\\',
              u2 = slash && have(sc, 2) && byte(sc, 1) == 'u';
    const long low = u2 ? hex4(sc, 2) : !have(sc, 1 + slash) ? -2 : -1;
    if (low < 0xDC00 || low > 0xDFFF)
        return (low == -2 ? fail_eof : fail)(sc, esc,
                                             "invalid escape \\u%04lX (the first half of a "
                                             "surrogate pair: \\uDC00 to \\uDFFF must follow)",
                                             u);
    sc->pos += 6;
    return 0;
}

/* After a backslash at offset esc (pos on the byte after it). */
static int escape(struct json_scan *sc, size_t esc, size_t start)
{
    if (!have(sc, 1))
        return fail_eof(sc, start, "unterminated string");
    const unsigned char e = byte(sc, 0);
    sc->pos++;
    if (e == 'u')
        return unicode_escape(sc, esc);
    if (e && strchr("\"\\/bfnrt", e))
        return 0;
    if (e > 0x20 && e < 0x7F)
        return fail(sc, esc, "invalid escape '\\%c' in a string", e);
    return fail(sc, esc, "invalid escape in a string ('\\' followed by byte 0x%02X)", e);
}

/* A string from its opening quote at pos; tok and tok_end get its quotes. */
static int string(struct json_scan *sc)
{
    const size_t start = json_scan_offset(sc);
    const int raw_control = sc->flags & JSON_SCAN_RAW_CONTROL;
    sc->tok_escaped = 0;
    sc->pos++;
    for (;;) {
        if (!have(sc, 1))
            return fail_eof(sc, start, "unterminated string");
        const unsigned char *p = (const unsigned char *)sc->s + sc->pos;
        const unsigned char *end = (const unsigned char *)sc->s + sc->len;
        while (p < end && *p != '"' && *p != '\\' && (*p >= 0x20 || raw_control))
            p++;
        sc->pos = (size_t)(p - (const unsigned char *)sc->s);
        if (p == end)
            continue;
        if (*p == '"') {
            sc->pos++;
            sc->tok = start;
            sc->tok_end = json_scan_offset(sc);
            return 0;
        }
        if (*p == '\n' || *p == '\r')
            return fail(sc, start, "unterminated string (a string cannot contain a line break)");
        if (*p < 0x20)
            return fail(sc, json_scan_offset(sc), "unescaped control character 0x%02X in a string",
                        *p);
        sc->tok_escaped = 1;
        const size_t esc = json_scan_offset(sc);
        sc->pos++;
        if (escape(sc, esc, start))
            return -1;
    }
}

static int digits(struct json_scan *sc, const char *after)
{
    if (!have(sc, 1))
        return fail_eof(sc, json_scan_offset(sc), "expected a digit after %s", after);
    if (!isdigit(byte(sc, 0)))
        return fail(sc, json_scan_offset(sc), "expected a digit after %s", after);
    while (have(sc, 1) && isdigit(byte(sc, 0)))
        sc->pos++;
    return 0;
}

/* Whether the significand of the number text[0..end) has a digit other than 0: a number
 * that reads as 0 without being 0 has underflowed. */
static int nonzero_digits(const char *text, const char *end)
{
    for (const char *c = text; c < end && *c != 'e' && *c != 'E'; c++)
        if (*c >= '1' && *c <= '9')
            return 1;
    return 0;
}

/* A number beyond a double's range, shown cut short so that the reason stays in the message
 * however long the number (a 5000-digit one). */
static int out_of_range(struct json_scan *sc, size_t start, const char *text, const char *end,
                        int too_large)
{
    enum { SHOWN = 40 };
    const int n = (int)(end - text);
    const char *reason = too_large ? "is out of range (beyond 1.8e308)"
                                   : "is too small for a double (it would read as 0; write 0 "
                                     "if that is meant)";
    if (n <= SHOWN)
        return fail_range(sc, start, "number %.*s %s", n, text, reason);
    return fail_range(sc, start, "number %.*s... (%d characters) %s", SHOWN, text, n, reason);
}

static int number(struct json_scan *sc)
{
    const size_t start = json_scan_offset(sc);
    if (byte(sc, 0) == '-')
        sc->pos++;
    if (have(sc, 2) && byte(sc, 0) == '0' && isdigit(byte(sc, 1)))
        return fail(sc, json_scan_offset(sc), "numbers cannot have leading zeros");
    if (digits(sc, "'-'"))
        return -1;
    if (have(sc, 1) && byte(sc, 0) == '.') {
        sc->pos++;
        if (digits(sc, "'.'"))
            return -1;
    }
    if (have(sc, 1) && (byte(sc, 0) == 'e' || byte(sc, 0) == 'E')) {
        sc->pos++;
        if (have(sc, 1) && (byte(sc, 0) == '+' || byte(sc, 0) == '-'))
            sc->pos++;
        if (digits(sc, "the exponent mark"))
            return -1;
    }
    /* The number is in the buffer with the byte after it (or the final NUL), where strtod
     * stops. It reads on only into hexadecimal ("0x1p3"), which JSON does not have: the
     * token is then 0 or -0 and the 'x' after it is the caller's syntax error. */
    const char *text = sc->s + (start - sc->base), *end = NULL;
    const double v = strtod(text, (char **)&end);
    if (end != sc->s + sc->pos) {
        sc->number = *text == '-' ? -0.0 : 0.0;
        return 0;
    }
    if (isinf(v) || (v == 0 && nonzero_digits(text, end)))
        return out_of_range(sc, start, text, end, isinf(v));
    sc->number = v;
    return 0;
}

/* NaN and Infinity (as JavaScript or Python write them) are not JSON; say so. */
static int non_finite_word(struct json_scan *sc, size_t *n)
{
    static const char *const words[] = {"NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"};
    const int c = byte(sc, 0);
    if (c == '-' ? !have(sc, 2) || (byte(sc, 1) != 'I' && byte(sc, 1) != 'i')
                 : c != 'N' && c != 'I' && c != 'n' && c != 'i')
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        if (word_at(sc, words[i])) {
            *n = strlen(words[i]);
            return 1;
        }
    }
    return 0;
}

/* Whether the input ends inside a literal ("nu" at the end of a file cut short). */
static int literal_cut(struct json_scan *sc)
{
    static const char *const literals[] = {"true", "false", "null"};
    if (have(sc, 5))
        return 0;
    const size_t n = sc->len - sc->pos;
    for (size_t i = 0; i < 3; i++)
        if (n < strlen(literals[i]) && memcmp(sc->s + sc->pos, literals[i], n) == 0)
            return 1;
    return 0;
}

/* ---- grammar ---- */

/* A value is complete: a file's buffer may drop it from now on. */
static int value_done(struct json_scan *sc)
{
    sc->in_value = 0;
    if (sc->status)
        return -1;
    if (sc->max_value && json_scan_offset(sc) - sc->value_start > sc->max_value) {
        sc->status = JSON_SCAN_TOO_LONG;
        sc->at = sc->value_start;
        return -1;
    }
    return 0;
}

static int scalar(struct json_scan *sc, enum json_event *ev, enum json_event which)
{
    *ev = which;
    return sc->depth == 0 ? value_done(sc) : 0;
}

static int open_container(struct json_scan *sc, enum json_event *ev, char close)
{
    const size_t open = json_scan_offset(sc);
    sc->pos++;
    if (sc->depth == JSON_SCAN_MAX_DEPTH)
        return fail(sc, open, "nesting deeper than %d levels", JSON_SCAN_MAX_DEPTH);
    sc->stack[sc->depth++] = (struct json_scan_level){open, close, ST_OPEN};
    *ev = close == '}' ? JSON_BEGIN_OBJECT : JSON_BEGIN_ARRAY;
    return 0;
}

static int close_container(struct json_scan *sc, enum json_event *ev)
{
    sc->pos++;
    *ev = sc->stack[--sc->depth].close == '}' ? JSON_END_OBJECT : JSON_END_ARRAY;
    return sc->depth == 0 ? value_done(sc) : 0;
}

/* The value at pos. */
static int value(struct json_scan *sc, enum json_event *ev)
{
    char buf[48];
    size_t n;
    if (!have(sc, 1))
        return fail_eof(sc, json_scan_offset(sc), "expected a value, got end of file");
    const char c = (char)byte(sc, 0);
    if (c == '{' || c == '[')
        return open_container(sc, ev, c == '{' ? '}' : ']');
    if (c == '"')
        return string(sc) ? -1 : scalar(sc, ev, JSON_STRING);
    if (non_finite_word(sc, &n))
        return fail(sc, json_scan_offset(sc), "%.*s is not allowed (JSON numbers are finite)",
                    (int)n, sc->s + sc->pos);
    if (c == '-' || isdigit((unsigned char)c))
        return number(sc) ? -1 : scalar(sc, ev, JSON_NUMBER);
    static const struct {
        const char *word;
        enum json_event ev;
    } literals[] = {{"true", JSON_TRUE}, {"false", JSON_FALSE}, {"null", JSON_NULL}};
    for (size_t i = 0; i < 3; i++) {
        if (word_at(sc, literals[i].word)) {
            sc->pos += strlen(literals[i].word);
            return scalar(sc, ev, literals[i].ev);
        }
    }
    if (c == '\'')
        return fail(sc, json_scan_offset(sc), "strings must be in double quotes");
    if (c == '/')
        return fail(sc, json_scan_offset(sc), "comments are not allowed in JSON");
    return (literal_cut(sc) ? fail_eof : fail)(sc, json_scan_offset(sc), "expected a value, got %s",
                                               found(sc, buf, sizeof buf));
}

/* "unexpected end of file (the object opened at 3:5 is not closed)" or "expected X, got Y". */
static int expected(struct json_scan *sc, const char *what)
{
    const struct json_scan_level *top = &sc->stack[sc->depth - 1];
    char buf[48];
    if (!have(sc, 1)) {
        size_t line, col;
        json_scan_where(sc, top->open, &line, &col);
        return fail_eof(sc, json_scan_offset(sc),
                        "unexpected end of file (the %s opened at %zu:%zu is not closed)",
                        top->close == '}' ? "object" : "array", line, col);
    }
    if (byte(sc, 0) == '\'')
        return fail(sc, json_scan_offset(sc), "strings must be in double quotes");
    return fail(sc, json_scan_offset(sc), "expected %s, got %s", what, found(sc, buf, sizeof buf));
}

/* The next member of the innermost container: a key in an object, a value in an array. */
static int member(struct json_scan *sc, struct json_scan_level *top, enum json_event *ev)
{
    if (top->close == '}') {
        if (!have(sc, 1) || byte(sc, 0) != '"')
            return expected(sc, "a key in double quotes");
        if (string(sc))
            return -1;
        top->state = ST_AFTER_KEY;
        *ev = JSON_KEY;
        return 0;
    }
    if (!have(sc, 1))
        return expected(sc, "a value");
    top->state = ST_AFTER_VALUE;
    return value(sc, ev);
}

static int next_event(struct json_scan *sc, enum json_event *ev)
{
    skip_ws(sc);
    if (sc->depth == 0) {
        sc->in_value = 1;
        sc->value_start = json_scan_offset(sc);
        return value(sc, ev);
    }
    struct json_scan_level *top = &sc->stack[sc->depth - 1];
    const int next = have(sc, 1) ? byte(sc, 0) : JSON_SCAN_END;
    switch (top->state) {
    case ST_OPEN:
        return next == top->close ? close_container(sc, ev) : member(sc, top, ev);
    case ST_AFTER_KEY:
        if (next != ':')
            return expected(sc, "':' after the key");
        sc->pos++;
        skip_ws(sc);
        if (!have(sc, 1))
            return expected(sc, "a value");
        top->state = ST_AFTER_VALUE;
        return value(sc, ev);
    default: /* ST_AFTER_VALUE */
        if (next == top->close)
            return close_container(sc, ev);
        if (next != ',')
            return expected(sc, top->close == '}' ? "',' or '}'" : "',' or ']'");
        const size_t comma = json_scan_offset(sc);
        sc->pos++;
        skip_ws(sc);
        if (have(sc, 1) && byte(sc, 0) == top->close)
            return fail(sc, comma, "trailing comma before '%c'", top->close);
        return member(sc, top, ev);
    }
}

int json_scan_next(struct json_scan *sc, enum json_event *ev)
{
    /* A read that failed on the way may have looked like the end of the input. */
    if (sc->status || next_event(sc, ev) || sc->status)
        return -1;
    sc->values += *ev != JSON_END_OBJECT && *ev != JSON_END_ARRAY && *ev != JSON_KEY;
    sc->numbers += *ev == JSON_NUMBER;
    if (*ev == JSON_KEY || *ev == JSON_STRING) {
        sc->strings++;
        sc->string_bytes += sc->tok_end - sc->tok;
    }
    return 0;
}

int json_scan_skip(struct json_scan *sc, enum json_event ev)
{
    if (ev != JSON_BEGIN_OBJECT && ev != JSON_BEGIN_ARRAY)
        return 0;
    const int depth = sc->depth - 1;
    while (sc->depth > depth)
        if (json_scan_next(sc, &ev))
            return -1;
    return 0;
}

int json_scan_document(struct json_scan *sc)
{
    enum json_event ev;
    if (have(sc, 3) && memcmp(sc->s, "\xEF\xBB\xBF", 3) == 0 && sc->base == 0)
        return fail(sc, 0, "a byte order mark is not allowed (save the file as UTF-8 without BOM)");
    if (json_scan_next(sc, &ev) || json_scan_skip(sc, ev))
        return -1;
    skip_ws(sc);
    if (have(sc, 1)) {
        char buf[48];
        return fail(sc, json_scan_offset(sc), "unexpected %s after the top-level value",
                    found(sc, buf, sizeof buf));
    }
    return sc->status ? -1 : 0;
}

int json_scan_peek(struct json_scan *sc)
{
    skip_ws(sc);
    if (sc->status)
        return JSON_SCAN_ERROR;
    return have(sc, 1) ? byte(sc, 0) : JSON_SCAN_END;
}

void json_scan_take(struct json_scan *sc)
{
    sc->pos++;
}
