/* fmt_double against its definition, over every exponent: the text reads back bit for bit
 * through strtod, no decimal with one significant digit fewer reads back (so none shorter
 * does: padding with zeros would give one), and when the correctly rounded decimal of the
 * same length reads back, it is the one written (the nearest). printf("%.*e") and strtod
 * are the independent oracles; powers of two, whose lower neighbour is twice as close as
 * their upper one, subnormals and short decimals get checked on purpose. */
#include <check.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "testutil_check.h"

static uint64_t rng = 0x2545f4914f6cdd1du; /* xorshift64: the same values on every run */

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The significant digits of a number's text as an integer, and how many there are; *exp10
 * gets the power of ten of the last one. strip: trailing zeros dropped. */
static int digits_of(const char *s, int strip, uint64_t *m, int *exp10)
{
    int n = 0, frac = 0, seen_point = 0;
    *m = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s == '.') {
            seen_point = 1;
        } else if (*s >= '0' && *s <= '9') {
            if (seen_point)
                frac++;
            if (n > 0 || *s != '0') {
                *m = *m * 10 + (uint64_t)(*s - '0');
                n++;
            }
        }
    }
    *exp10 = (*s == 'e' ? atoi(s + 1) : 0) - frac;
    while (strip && n > 1 && *m % 10 == 0) {
        *m /= 10;
        ++*exp10;
        n--;
    }
    return n;
}

static int reads_back(uint64_t m, int e, double x)
{
    char s[48];
    snprintf(s, sizeof s, "%" PRIu64 "e%d", m, e);
    return same_bits(strtod(s, NULL), x);
}

/* x > 0 correctly rounded to prec significant digits by printf, zeros kept: m +- 1 are the
 * neighbours on the same grid. */
static void rounded(double x, int prec, uint64_t *m, int *e)
{
    char s[48];
    snprintf(s, sizeof s, "%.*e", prec - 1, x);
    digits_of(s, 0, m, e);
}

/* Every property of fmt_double(x) for a finite x != 0; counts the failures. */
static int check_one(double x)
{
    char buf[FMT_DOUBLE_SIZE];
    const size_t len = fmt_double(buf, x);
    if (len != strlen(buf) || !same_bits(strtod(buf, NULL), x)) {
        fprintf(stderr, "%a: '%s' does not read back\n", x, buf);
        return 1;
    }
    const double a = fabs(x);
    uint64_t m, rm;
    int e, re;
    const int n = digits_of(buf, 1, &m, &e);
    /* The two decimals of n - 1 digits around x are the rounded one and a neighbour. (Just
     * below a power of ten the lower neighbour is on a finer grid, but it is farther from x
     * than the rounded one, which reads back first: the interval is never narrower above x.) */
    if (n > 1) {
        rounded(a, n - 1, &rm, &re);
        if (reads_back(rm, re, a) || reads_back(rm + 1, re, a) || reads_back(rm - 1, re, a)) {
            fprintf(stderr, "%a: '%s' is not the shortest\n", x, buf);
            return 1;
        }
    }
    rounded(a, n, &rm, &re);
    while (rm % 10 == 0) { /* compared as m and e are, without trailing zeros */
        rm /= 10;
        re++;
    }
    if (reads_back(rm, re, a) && (rm != m || re != e)) {
        fprintf(stderr, "%a: '%s' is not the nearest of %d digits\n", x, buf, n);
        return 1;
    }
    return 0;
}

/* Every power of two and its two neighbours, every exponent: the boundaries of the format. */
START_TEST(test_powers_of_two)
{
    int bad = 0;
    for (uint64_t be = 0; be < 0x7ff; be++) {
        const uint64_t p = be << 52;
        if (be > 0)
            bad += check_one(from_bits(p)) + check_one(from_bits(p - 1));
        bad += check_one(from_bits(p + 1)) + check_one(-from_bits(p + 1));
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* The smallest subnormals carry a few bits only: 1 to 4 significant digits. */
START_TEST(test_subnormals)
{
    int bad = 0;
    for (uint64_t c = 1; c < 5000; c++)
        bad += check_one(from_bits(c));
    for (int i = 0; i < 20000; i++)
        bad += check_one(from_bits(next() & ((UINT64_C(1) << 52) - 1)));
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* 100 random significands at every exponent. */
START_TEST(test_every_exponent)
{
    int bad = 0;
    for (uint64_t be = 1; be < 0x7ff; be++)
        for (int i = 0; i < 100; i++)
            bad += check_one(from_bits(be << 52 | (next() & ((UINT64_C(1) << 52) - 1))));
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* The doubles nearest to decimals of 1 to 17 digits: where the short answers are, so where a
 * wrong choice between the multiple of ten and its neighbours would show. */
START_TEST(test_short_decimals)
{
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        const int ndigits = 1 + (int)(next() % 17);
        uint64_t m = next() % UINT64_C(100000000000000000);
        for (int d = 17; d > ndigits; d--)
            m /= 10;
        if (m == 0)
            continue;
        char s[48];
        snprintf(s, sizeof s, "%" PRIu64 "e%d", m, (int)(next() % 640) - 330);
        const double x = strtod(s, NULL);
        if (x != 0 && isfinite(x))
            bad += check_one(x);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* Random bit patterns and values in a simulation's range. */
START_TEST(test_random)
{
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        const uint64_t u = next();
        const double x = i % 2 ? from_bits(u) : ((double)(u >> 11) * 0x1p-53 - 0.5) * 200.0;
        if (x != 0 && isfinite(x))
            bad += check_one(x);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

static Suite *fmt_suite(void)
{
    Suite *s = suite_create("fmt");
    TCase *tc = tcase_create("shortest");
    tcase_add_test(tc, test_powers_of_two);
    tcase_add_test(tc, test_subnormals);
    tcase_add_test(tc, test_every_exponent);
    tcase_add_test(tc, test_short_decimals);
    tcase_add_test(tc, test_random);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(fmt_suite());
}
