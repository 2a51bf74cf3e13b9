/* io/junit: the escaping of any byte into well-formed XML 1.0 text and attributes, and the
 * report's counts. (tests/junit.sh parses the reports catena writes with xmllint against the
 * schema in tests/data/junit.xsd.) */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "io/junit.h"
#include "testutil.h"
#include "testutil_check.h"

/* s escaped, malloc'd. */
static char *escaped(const char *s, int attribute)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ck_assert_ptr_nonnull(f);
    junit_escape(f, s, attribute);
    fclose(f);
    return buf;
}

static void expect(const char *in, int attribute, const char *want)
{
    char *got = escaped(in, attribute);
    ck_assert_msg(strcmp(got, want) == 0, "escaped \"%s\" as \"%s\", expected \"%s\"", in, got,
                  want);
    free(got);
}

START_TEST(test_markup)
{
    expect("a<b & c>d \"e\" 'f'", 0, "a&lt;b &amp; c&gt;d &quot;e&quot; &apos;f&apos;");
    expect("x]]>y", 0, "x]]&gt;y");
    expect("", 0, "");
}
END_TEST

/* Whitespace: raw in text, references in attributes (which normalise raw ones to spaces);
 * a carriage return is a reference everywhere (a raw one reads back as a newline). */
START_TEST(test_whitespace)
{
    expect("a\tb\nc\rd", 0, "a\tb\nc&#13;d");
    expect("a\tb\nc\rd", 1, "a&#9;b&#10;c&#13;d");
}
END_TEST

/* Characters XML 1.0 cannot hold, even as references, become visible text. */
START_TEST(test_forbidden)
{
    expect("\x01\x08\x0b\x0c\x1b\x1f", 0, "\\x01\\x08\\x0B\\x0C\\x1B\\x1F");
    expect("\xef\xbf\xbe|\xef\xbf\xbf", 1, "\\uFFFE|\\uFFFF");
    /* C1 controls are allowed but invisible: references */
    expect("\x7f|\xc2\x80|\xc2\x9f", 0, "&#x7F;|&#x80;|&#x9F;");
}
END_TEST

/* Bytes that are not UTF-8 are written one by one as \xNN; what follows them is kept. */
START_TEST(test_invalid_utf8)
{
    expect("\xff", 0, "\\xFF");
    expect("\xc3(", 0, "\\xC3(");                          /* cut short */
    expect("\xc0\xaf", 0, "\\xC0\\xAF");                   /* overlong '/' */
    expect("\xe0\x80\xaf", 0, "\\xE0\\x80\\xAF");          /* overlong, three bytes */
    expect("\xed\xa0\x80", 0, "\\xED\\xA0\\x80");          /* a surrogate */
    expect("\xf4\x90\x80\x80", 0, "\\xF4\\x90\\x80\\x80"); /* beyond U+10FFFF */
    expect("\x80x", 0, "\\x80x");                          /* a stray continuation */
    expect("\xe2\x82", 0, "\\xE2\\x82");                   /* cut by the end */
}
END_TEST

START_TEST(test_valid_utf8)
{
    expect("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf", 1,
           "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf");
    expect("\xef\xbf\xbd", 0, "\xef\xbf\xbd"); /* U+FFFD itself is fine */
}
END_TEST

/* Every byte alone, escaped: the output holds only characters XML allows, no bare markup. */
START_TEST(test_every_byte)
{
    for (int b = 1; b < 256; b++) {
        const char in[2] = {(char)b, 0};
        for (int attribute = 0; attribute < 2; attribute++) {
            char *out = escaped(in, attribute);
            for (const unsigned char *p = (const unsigned char *)out; *p; p++) {
                ck_assert_msg(*p >= 0x20 || (!attribute && (*p == '\t' || *p == '\n')),
                              "byte 0x%02X escaped to a control character", b);
                ck_assert_msg(*p != '<' && *p != '"' && *p != '\'' && *p != '>',
                              "byte 0x%02X left markup", b);
                ck_assert_msg(*p < 0x80 || b >= 0x80, "byte 0x%02X grew a non-ASCII byte", b);
            }
            /* a lone byte >= 0x80 is never UTF-8 */
            if (b >= 0x80) {
                char want[8];
                snprintf(want, sizeof want, "\\x%02X", b);
                ck_assert_str_eq(out, want);
            }
            free(out);
        }
    }
}
END_TEST

START_TEST(test_document)
{
    char *path = tu_path(dir, "report.xml");
    const struct junit_case cases[] = {
        {.name = "a", .classname = "s", .time = 0.25, .outcome = JUNIT_PASSED},
        {.name = "b\x01",
         .classname = "s",
         .time = 1.0,
         .outcome = JUNIT_FAILED,
         .type = "trajectory",
         .message = "differs",
         .text = "x < y",
         .output = "log"},
        {.name = "c", .classname = "s", .time = -1, .outcome = JUNIT_ERROR, .message = "gone"},
    };
    const struct junit_suite suite = {"suite & co", 2.5, cases, 3};
    struct catena_error err;
    ck_assert_int_eq(junit_write(path, &suite, &err), CATENA_OK);
    char *text = tu_read_file(path, NULL);
    ck_assert_ptr_nonnull(strstr(text, "<testsuites name=\"suite &amp; co\" tests=\"3\" "
                                       "failures=\"1\" errors=\"1\" time=\"2.500\">"));
    ck_assert_ptr_nonnull(strstr(text, "<testcase name=\"a\" classname=\"s\" time=\"0.250\"/>"));
    ck_assert_ptr_nonnull(strstr(text, "<testcase name=\"b\\x01\" classname=\"s\" time=\"1.000\">\n"
                                       "      <failure type=\"trajectory\" message=\"differs\">"
                                       "x &lt; y</failure>\n"
                                       "      <system-err>log</system-err>\n"));
    /* no time when it is not known */
    ck_assert_ptr_nonnull(strstr(text, "<testcase name=\"c\" classname=\"s\">\n"
                                       "      <error message=\"gone\"></error>\n"));
    free(text);
    free(path);
}
END_TEST

START_TEST(test_unwritable)
{
    char *path = tu_path(dir, "missing/report.xml");
    const struct junit_suite suite = {"s", 0, NULL, 0};
    struct catena_error err;
    ck_assert_int_eq(junit_write(path, &suite, &err), CATENA_EFAIL);
    ck_assert_ptr_nonnull(strstr(err.msg, "missing/report.xml: cannot create"));
    ck_assert_int_eq(junit_write(dir, &suite, &err) == CATENA_OK, 0);
    free(path);
}
END_TEST

static Suite *junit_suite(void)
{
    Suite *s = suite_create("junit");
    TCase *tc = tu_tcase(s, "escape", NULL, NULL);
    tcase_add_test(tc, test_markup);
    tcase_add_test(tc, test_whitespace);
    tcase_add_test(tc, test_forbidden);
    tcase_add_test(tc, test_invalid_utf8);
    tcase_add_test(tc, test_valid_utf8);
    tcase_add_test(tc, test_every_byte);
    tc = tu_tcase(s, "write", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(tc, test_document);
    tcase_add_test(tc, test_unwritable);
    return s;
}

int main(void)
{
    return tu_run(junit_suite());
}
