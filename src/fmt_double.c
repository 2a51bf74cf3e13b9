/* Shortest round-trip formatting of doubles. printf("%.16e") gives the 17 correctly
 * rounded digits; the 15- and 16-digit candidates are derived from them and tested
 * exactly (Clinger's fast path: an integer below 2^53 times or over an exact power of ten
 * is what strtod returns), so the common case costs one printf. The digits are laid out
 * here, so the locale's decimal point never reaches a file. */
#include "fmt_double.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal m * 10^e with m > 0. */
struct decimal {
    uint64_t m;
    int e;
};

/* Writes u in decimal. */
static size_t fmt_unsigned(char *buf, uint64_t u)
{
    char rev[24];
    size_t n = 0, len = 0;
    do {
        rev[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        buf[len++] = rev[--n];
    buf[len] = '\0';
    return len;
}

size_t fmt_long(char *buf, long v)
{
    if (v >= 0)
        return fmt_unsigned(buf, (uint64_t)v);
    buf[0] = '-';
    return 1 + fmt_unsigned(buf + 1, 0 - (uint64_t)v);
}

/* x > 0 rounded to prec significant digits by printf. The digits are picked out around
 * whatever decimal point the locale uses. */
static struct decimal rounded(double x, int prec)
{
    char s[48];
    snprintf(s, sizeof s, "%.*e", prec - 1, x);
    struct decimal d = {0, 0};
    const char *p = s;
    for (; *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            d.m = d.m * 10 + (uint64_t)(*p - '0');
    d.e = atoi(p + 1) - (prec - 1);
    return d;
}

/* Whether strtod reads d back as exactly x. */
static int reads_back(struct decimal d, double x)
{
#if FLT_EVAL_METHOD == 0 /* no excess precision, so one division rounds once */
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (d.m <= UINT64_C(1) << 53 && d.e >= -22 && d.e <= 22)
        return (d.e >= 0 ? (double)d.m * pow10[d.e] : (double)d.m / pow10[-d.e]) == x;
#endif
    char s[48]; /* no decimal point, so the locale does not matter */
    snprintf(s, sizeof s, "%" PRIu64 "e%d", d.m, d.e);
    return strtod(s, NULL) == x;
}

/* The shortest correctly rounded decimal that reads back as x > 0, x normal. */
static struct decimal shortest_normal(double x)
{
    struct decimal d17 = rounded(x, 17); /* always reads back */
    /* A normal double's rounding interval is narrower than the gap between 15-digit
     * decimals, so at most one 15-digit decimal reads back, and any shorter one padded
     * with zeros is that one. It is one of the two around x. */
    struct decimal lo = {d17.m / 100, d17.e + 2}, hi = {lo.m + 1, lo.e};
    if (reads_back(lo, x))
        return lo;
    if (reads_back(hi, x))
        return hi;
    /* The 16-digit rounding of x, read off the 17th digit unless that is a 5, where
     * rounding twice could differ from rounding once. */
    uint64_t last = d17.m % 10;
    struct decimal d16 = {d17.m / 10 + (last > 5), d17.e + 1};
    if (last == 5)
        d16 = rounded(x, 16);
    return reads_back(d16, x) ? d16 : d17;
}

/* Subnormals carry fewer bits, so fewer digits may do: search up from 1. */
static struct decimal shortest_subnormal(double x)
{
    for (int prec = 1;; prec++) {
        struct decimal d = rounded(x, prec);
        if (reads_back(d, x))
            return d;
    }
}

/* Lays out sign and digits as Python's repr does (without the ".0" of integers). */
static size_t layout(char *buf, int negative, struct decimal d)
{
    while (d.m % 10 == 0) {
        d.m /= 10;
        d.e++;
    }
    char digits[24];
    int n = (int)fmt_unsigned(digits, d.m);
    int exp = d.e + n - 1; /* the power of ten of the first digit */
    char *p = buf;
    if (negative)
        *p++ = '-';
    if (exp < -4 || exp >= 16) {
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)n - 1);
            p += n - 1;
        }
        *p++ = 'e';
        *p++ = exp < 0 ? '-' : '+';
        if (abs(exp) < 10)
            *p++ = '0';
        p += fmt_unsigned(p, (uint64_t)abs(exp));
    } else if (exp < 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = -1; i > exp; i--)
            *p++ = '0';
        memcpy(p, digits, (size_t)n);
        p += n;
    } else {
        for (int i = 0; i <= exp || i < n; i++) {
            if (i == exp + 1)
                *p++ = '.';
            *p++ = i < n ? digits[i] : '0';
        }
    }
    *p = '\0';
    return (size_t)(p - buf);
}

size_t fmt_double(char *buf, double x)
{
    if (isnan(x) || isinf(x)) {
        const char *s = isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
        strcpy(buf, s);
        return strlen(s);
    }
    if (x == 0) {
        strcpy(buf, signbit(x) ? "-0" : "0");
        return signbit(x) ? 2 : 1;
    }
    double a = fabs(x);
    /* Integers below 2^53 are exact, so their digits are already the shortest form. */
    if (a < 0x1p53 && a == (double)(uint64_t)a)
        return layout(buf, x < 0, (struct decimal){(uint64_t)a, 0});
    return layout(buf, x < 0, a >= DBL_MIN ? shortest_normal(a) : shortest_subnormal(a));
}
