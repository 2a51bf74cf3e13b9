/* text_clean (core/text.h), the one function that decides how names and messages show on a
 * terminal: the escape sequences of issue 20 (a window title, a screen clear, a carriage
 * return and a fake line), C1 controls, bidirectional overrides and broken UTF-8 come out
 * as '?', other UTF-8 stays as it is, nothing is ever longer than it came, and messages set
 * through error_set are cleaned the same way. A random walk over byte strings checks that
 * no output byte a terminal acts on survives. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "testutil_check.h"

static const char *clean(const char *s)
{
    static char buf[512];
    return text_clean(buf, sizeof buf, s);
}

START_TEST(test_issue_name)
{
    ck_assert_str_eq(clean("b\x1b]0;PWNED\x07\x1b[2J\r\nfake: ok"), "b?]0;PWNED??[2J??fake: ok");
    ck_assert_str_eq(clean("plain name, caf\xc3\xa9"), "plain name, caf\xc3\xa9");
}
END_TEST

START_TEST(test_utf8_kept_controls_replaced)
{
    ck_assert_str_eq(clean("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x97"),
                     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x97");
    ck_assert_str_eq(clean("a\tb\x7f"), "a?b?");
    ck_assert_str_eq(clean("csi\xc2\x9b"
                           "31m"),
                     "csi?31m"); /* U+009B, C1 CSI */
    ck_assert_str_eq(clean("rlo\xe2\x80\xae"
                           "txt"),
                     "rlo?txt"); /* U+202E */
    ck_assert_str_eq(clean("iso\xe2\x81\xa6"
                           "x"),
                     "iso?x"); /* U+2066 */
    ck_assert_str_eq(clean("raw\x9b"
                           "31m"),
                     "raw?31m");                               /* a lone C1 byte */
    ck_assert_str_eq(clean("over\xc0\xaf"), "over??");         /* overlong '/' */
    ck_assert_str_eq(clean("sur\xed\xa0\x80"), "sur???");      /* a surrogate */
    ck_assert_str_eq(clean("cut\xe2\x82"), "cut??");           /* truncated */
    ck_assert_str_eq(clean("big\xf4\x90\x80\x80"), "big????"); /* above U+10FFFF */
}
END_TEST

START_TEST(test_in_place_and_cut)
{
    char s[] = "x\xc2\x9by\x1bz";
    ck_assert_str_eq(text_clean(s, sizeof s, s), "x?y?z");
    char small[5];
    /* Cut at a character boundary: the euro sign does not fit after "ab". */
    ck_assert_str_eq(text_clean(small, sizeof small, "ab\xe2\x82\xac"), "ab");
}
END_TEST

START_TEST(test_error_set_cleans)
{
    struct catena_error err;
    error_set(&err, CATENA_EFAIL, "diverged at step 1: point %s is at (0, 1)",
              "b\x1b]0;PWNED\x07\r\nfake: ok");
    ck_assert_str_eq(err.msg, "diverged at step 1: point b?]0;PWNED???fake: ok is at (0, 1)");
}
END_TEST

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Random strings of bytes biased towards the dangerous ones: the output holds no C0 or DEL
 * byte, no lone byte >= 0x80, no C1 and no override, and is never longer than the input. */
START_TEST(test_random_bytes)
{
    static const unsigned char pick[] = {0x1b, 0x07, '\r', '\n', 0x9b, 0xc2, 0x80, 0xe2, 0x81,
                                         0xae, 0xa6, 0xf0, 0x9f, 0xc3, 0xa9, 'a',  '[',  0x7f};
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        char in[40], out[64];
        const size_t n = 1 + next() % (sizeof in - 1);
        for (size_t k = 0; k < n - 1; k++) {
            const uint64_t r = next();
            in[k] =
                (char)(r % 3 ? pick[(r >> 8) % sizeof pick] : (unsigned char)(1 + (r >> 16) % 255));
        }
        in[n - 1] = '\0';
        char again[64];
        text_clean(out, sizeof out, in);
        /* Cleaning what came out changes nothing: nothing a terminal acts on is left. */
        bad += strlen(out) > strlen(in) || strcmp(text_clean(again, sizeof again, out), out) != 0;
        for (const unsigned char *p = (const unsigned char *)out; *p; p++)
            bad += *p < 0x20 || *p == 0x7f;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

static Suite *text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("clean");
    tcase_add_test(tc, test_issue_name);
    tcase_add_test(tc, test_utf8_kept_controls_replaced);
    tcase_add_test(tc, test_in_place_and_cut);
    tcase_add_test(tc, test_error_set_cleans);
    tcase_add_test(tc, test_random_bytes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(text_suite());
}
