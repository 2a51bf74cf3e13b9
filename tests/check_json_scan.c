/* The JSON scanner (core/json_scan.h) on its own: the events of a document, strings decoded,
 * which errors are truncation and where every error is (LINE:COL in UTF-8 characters), and a
 * file streamed through it: values far apart in a long file, each held alone (the buffer stays
 * at a chunk or two), lines still counted right; a value over max_value refused; a read that
 * fails. The messages themselves are checked through the loader (check_scenario) and the
 * trajectory reader (check_compare). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_scan.h"
#include "testutil_check.h"

/* A file holding text, positioned at its start. */
static FILE *file_of(const char *text, size_t len)
{
    FILE *fp = tmpfile();
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
    rewind(fp);
    return fp;
}

START_TEST(test_events)
{
    static const char text[] =
        "{\"a\": [1, -2.5e3, true, false, null, \"s\\u00e9\\ud83d\\ude00\\n\"], \"b\": {}}";
    static const enum json_event want[] = {
        JSON_BEGIN_OBJECT, JSON_KEY,          JSON_BEGIN_ARRAY, JSON_NUMBER,     JSON_NUMBER,
        JSON_TRUE,         JSON_FALSE,        JSON_NULL,        JSON_STRING,     JSON_END_ARRAY,
        JSON_KEY,          JSON_BEGIN_OBJECT, JSON_END_OBJECT,  JSON_END_OBJECT,
    };
    struct json_scan sc;
    json_scan_text(&sc, text, strlen(text), 0);
    double numbers[2];
    int n = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        enum json_event ev;
        ck_assert_int_eq(json_scan_next(&sc, &ev), 0);
        ck_assert_int_eq(ev, want[i]);
        if (ev == JSON_NUMBER)
            numbers[n++] = sc.number;
        if (ev == JSON_STRING) {
            char str[16];
            /* s, e-acute (2 bytes), the grinning face (a surrogate pair, 4 bytes), \n */
            ck_assert_uint_eq(json_scan_string(&sc, str, sizeof str), 8);
            ck_assert_str_eq(str, "s\xC3\xA9\xF0\x9F\x98\x80\n");
            char cut[4];
            ck_assert_uint_eq(json_scan_string(&sc, cut, sizeof cut), 8);
            ck_assert_str_eq(cut, "s\xC3\xA9");
        }
        ck_assert_int_eq(sc.depth == 0, i + 1 == sizeof want / sizeof want[0]);
    }
    ck_assert_double_eq(numbers[0], 1);
    ck_assert_double_eq(numbers[1], -2500);
}
END_TEST

START_TEST(test_keys)
{
    static const char text[] = "{\"\\u0078\": 1, \"st\\u0065p\": 2, \"x\": 3, \"xy\": 4, \"\": 5}";
    static const char *const is[] = {"x", "step", "x", "xy", ""};
    struct json_scan sc;
    enum json_event ev;
    json_scan_text(&sc, text, strlen(text), 0);
    ck_assert_int_eq(json_scan_next(&sc, &ev), 0);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(json_scan_next(&sc, &ev), 0);
        ck_assert_int_eq(ev, JSON_KEY);
        ck_assert(json_scan_string_is(&sc, is[i]));
        ck_assert(!json_scan_string_is(&sc, "time"));
        ck_assert(i == 4 || !json_scan_string_is(&sc, ""));
        ck_assert_int_eq(json_scan_next(&sc, &ev), 0);
        ck_assert_double_eq(sc.number, i + 1);
    }
}
END_TEST

/* Each text: whether the whole document is refused as truncated (the input ended inside a
 * value) or as a syntax error, and where the message points. */
static const struct {
    const char *text;
    enum json_scan_status status;
    size_t line, col;
} errors[] = {
    {"[1, 2", JSON_SCAN_TRUNCATED, 1, 6},
    {"[1, 2x]", JSON_SCAN_SYNTAX, 1, 6},
    {"{\"a\": nul", JSON_SCAN_TRUNCATED, 1, 7},
    {"{\"a\": nul}", JSON_SCAN_SYNTAX, 1, 7},
    {"{\"a\": \"abc", JSON_SCAN_TRUNCATED, 1, 7},
    {"[1.", JSON_SCAN_TRUNCATED, 1, 4},
    {"[1.]", JSON_SCAN_SYNTAX, 1, 4},
    {"[\"\\u12", JSON_SCAN_TRUNCATED, 1, 3},
    {"[\"\\u12x4\"]", JSON_SCAN_SYNTAX, 1, 3},
    {"[\"\\ud83d\\u", JSON_SCAN_TRUNCATED, 1, 3},
    {"[\"\\ud83dx\"]", JSON_SCAN_SYNTAX, 1, 3},
    {"[1,\n 2,]", JSON_SCAN_SYNTAX, 2, 3},
    /* columns count characters: e-acute is one */
    {"[\"\xC3\xA9\xC3\xA9\", x]", JSON_SCAN_SYNTAX, 1, 8},
    {"{\"a\": 1}\n\n  }", JSON_SCAN_SYNTAX, 3, 3},
    {"[[[[", JSON_SCAN_TRUNCATED, 1, 5},
};

START_TEST(test_errors)
{
    struct json_scan sc;
    const char *text = errors[_i].text;
    json_scan_text(&sc, text, strlen(text), 0);
    ck_assert_int_eq(json_scan_document(&sc), -1);
    ck_assert_msg(sc.status == errors[_i].status, "%s: status %d: %s", text, sc.status, sc.what);
    size_t line, col;
    json_scan_where(&sc, sc.at, &line, &col);
    ck_assert_msg(line == errors[_i].line && col == errors[_i].col, "%s: at %zu:%zu: %s", text,
                  line, col, sc.what);
    /* after an error every call fails the same way */
    enum json_event ev;
    ck_assert_int_eq(json_scan_next(&sc, &ev), -1);
    ck_assert_int_eq(sc.status, errors[_i].status);
}
END_TEST

START_TEST(test_raw_control)
{
    static const char text[] = "[\"a\nb\tc\"]";
    struct json_scan sc;
    json_scan_text(&sc, text, strlen(text), 0);
    ck_assert_int_eq(json_scan_document(&sc), -1);
    ck_assert_str_eq(sc.what, "unterminated string (a string cannot contain a line break)");
    json_scan_text(&sc, text, strlen(text), JSON_SCAN_RAW_CONTROL);
    ck_assert_int_eq(json_scan_document(&sc), 0);
}
END_TEST

START_TEST(test_nesting)
{
    char text[2 * JSON_SCAN_MAX_DEPTH + 3];
    for (int deep = JSON_SCAN_MAX_DEPTH; deep <= JSON_SCAN_MAX_DEPTH + 1; deep++) {
        memset(text, '[', (size_t)deep);
        memset(text + deep, ']', (size_t)deep);
        struct json_scan sc;
        json_scan_text(&sc, text, 2 * (size_t)deep, 0);
        ck_assert_int_eq(json_scan_document(&sc), deep > JSON_SCAN_MAX_DEPTH ? -1 : 0);
    }
}
END_TEST

/* Values one after another, as the trajectory reader reads frames: VALUES lines of
 * [i, "i..."], the line BAD broken. */
enum { VALUES = 60000, BAD = 50001 };

static char *long_file_text(size_t *len)
{
    size_t cap = (size_t)VALUES * 64, n = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    for (int i = 1; i <= VALUES; i++)
        n += (size_t)snprintf(text + n, cap - n, i == BAD ? "[%d, \"%d\" x]\n" : "[%d, \"%d\"]\n",
                              i, i);
    *len = n;
    return text;
}

START_TEST(test_file_streams)
{
    size_t len;
    char *text = long_file_text(&len);
    FILE *fp = file_of(text, len);
    struct json_scan sc;
    json_scan_file(&sc, fp, 0);
    size_t cap = 0;
    int values = 0;
    while (json_scan_peek(&sc) == '[') {
        enum json_event ev;
        if (json_scan_next(&sc, &ev) || json_scan_skip(&sc, ev))
            break;
        values++;
        cap = sc.cap > cap ? sc.cap : cap;
    }
    /* the broken value is found on its line, after all those before it were dropped */
    ck_assert_int_eq(values, BAD - 1);
    ck_assert_int_eq(sc.status, JSON_SCAN_SYNTAX);
    ck_assert_str_eq(sc.what, "expected ',' or ']', got \"x\"");
    size_t line, col;
    json_scan_where(&sc, sc.at, &line, &col);
    ck_assert_uint_eq(line, BAD);
    ck_assert_uint_eq(col, 17);
    /* the file is about a megabyte; the buffer held a chunk (64 KiB) and a value */
    ck_assert_uint_lt(cap, 2 * 65536);
    ck_assert_uint_lt(cap, len / 4);
    json_scan_free(&sc);
    fclose(fp);
    free(text);
}
END_TEST

/* A string value of n bytes (quotes included) read from a file with max_value = max. */
static enum json_scan_status long_value(size_t n, size_t max, size_t *cap)
{
    char *text = malloc(n + 2);
    ck_assert_ptr_nonnull(text);
    text[0] = ' ';
    text[1] = '"';
    memset(text + 2, 'x', n - 2);
    text[n] = '"';
    text[n + 1] = ' ';
    FILE *fp = file_of(text, n + 2);
    struct json_scan sc;
    enum json_event ev;
    json_scan_file(&sc, fp, 0);
    sc.max_value = max;
    const int rc = json_scan_next(&sc, &ev);
    const enum json_scan_status status = sc.status;
    ck_assert_int_eq(rc, status ? -1 : 0);
    if (status == JSON_SCAN_TOO_LONG)
        ck_assert_uint_eq(sc.at, 1); /* where the value starts */
    *cap = sc.cap;
    json_scan_free(&sc);
    fclose(fp);
    free(text);
    return status;
}

START_TEST(test_max_value)
{
    size_t cap;
    ck_assert_int_eq(long_value(100, 100, &cap), JSON_SCAN_OK);
    ck_assert_int_eq(long_value(101, 100, &cap), JSON_SCAN_TOO_LONG);
    ck_assert_int_eq(long_value(1 << 20, 1 << 20, &cap), JSON_SCAN_OK);
    /* refused once max_value is passed, without reading the rest of the value */
    ck_assert_int_eq(long_value(8 << 20, 1 << 20, &cap), JSON_SCAN_TOO_LONG);
    ck_assert_uint_lt(cap, 3 << 20);
}
END_TEST

START_TEST(test_read_error)
{
    FILE *fp = fopen(".", "r"); /* a directory: opens, but reading it fails (EISDIR) */
    ck_assert_ptr_nonnull(fp);
    struct json_scan sc;
    json_scan_file(&sc, fp, 0);
    ck_assert_int_eq(json_scan_peek(&sc), JSON_SCAN_ERROR);
    ck_assert_int_eq(sc.status, JSON_SCAN_READ);
    ck_assert_int_eq(sc.read_errno, EISDIR);
    json_scan_free(&sc);
    fclose(fp);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("json_scan");
    TCase *tc = tu_tcase(suite, "text", NULL, NULL);
    tcase_add_test(tc, test_events);
    tcase_add_test(tc, test_keys);
    tcase_add_loop_test(tc, test_errors, 0, sizeof errors / sizeof errors[0]);
    tcase_add_test(tc, test_raw_control);
    tcase_add_test(tc, test_nesting);
    tc = tu_tcase(suite, "file", NULL, NULL);
    tcase_add_test(tc, test_file_streams);
    tcase_add_test(tc, test_max_value);
    tcase_add_test(tc, test_read_error);
    return tu_run(suite);
}
