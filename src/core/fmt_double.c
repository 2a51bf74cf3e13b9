/* Shortest round-trip formatting of doubles with Schubfach (R. Giulietti, "The Schubfach way
 * to render doubles", 2020). x = c 2^q rounds back from every decimal in its rounding
 * interval; scaled by 10^-k (k = floor(log10 2^q)) the interval is 1 to 10 units wide, so the
 * answer is the one multiple of ten inside it if there is one, else the integer inside it
 * nearest to x. Three 64 x 128-bit products with a 128-bit power of ten (src/fmt_pow10.h,
 * made by scripts/gen-pow10-table), rounded to odd so that they compare exactly with integers,
 * find the interval's ends: no printf, no big numbers, no loop. The digits are laid out here,
 * so the locale's decimal point never reaches a file. */
#include "core/fmt_double.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/fmt_pow10.h"

/* A decimal m * 10^e with m > 0. */
struct decimal {
    uint64_t m;
    int e;
};

/* "00" to "99": two digits per division. */
static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930"
                                  "31323334353637383940414243444546474849505152535455565758596061"
                                  "6263646566676869707172737475767778798081828384858687888990919293"
                                  "949596979899";

/* The number of decimal digits of u (1 for 0). */
static int count_digits(uint64_t u)
{
    int n = 1;
    for (; u >= 100; u /= 100)
        n += 2;
    return n + (u >= 10);
}

/* Writes the n = count_digits(u) digits of u at buf, from the right. */
static void put_digits(char *buf, int n, uint64_t u)
{
    char *p = buf + n;
    for (; u >= 100; u /= 100) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * (u % 100), 2);
    }
    if (u >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * u, 2);
    } else {
        *--p = (char)('0' + u);
    }
}

/* Writes u in decimal. */
static size_t fmt_unsigned(char *buf, uint64_t u)
{
    const int n = count_digits(u);
    put_digits(buf, n, u);
    buf[n] = '\0';
    return (size_t)n;
}

size_t fmt_long(char *buf, long v)
{
    if (v >= 0)
        return fmt_unsigned(buf, (uint64_t)v);
    buf[0] = '-';
    return 1 + fmt_unsigned(buf + 1, 0 - (uint64_t)v);
}

/* floor(v / 2^s), also for negative v (>> of a negative number is implementation-defined). */
static int floor_shift(int64_t v, int s)
{
    return (int)(v >= 0 ? v >> s : ~(~v >> s));
}

/* floor(log10 2^q), floor(log10 (3/4) 2^q) and floor(log2 10^e): integer approximations of
 * the logarithms, checked exact over every exponent a double needs by gen-pow10-table. */
static int floor_log10_pow2(int q)
{
    return floor_shift((int64_t)q * 315653, 20);
}

static int floor_log10_three_quarters_pow2(int q)
{
    return floor_shift((int64_t)q * 315653 - 131237, 20);
}

static int floor_log2_pow10(int e)
{
    return floor_shift((int64_t)e * 1741647, 19);
}

/* The high half of the 128-bit product a b; *lo gets the low half. */
static uint64_t mul_64(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ const unsigned __int128 p = (unsigned __int128)a * b;
    *lo = (uint64_t)p;
    return (uint64_t)(p >> 64);
#else
    const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* floor(g cp / 2^128), rounded to odd: the lowest bit is set when the product's fraction is
 * at least 2^-64. g exceeds the true power of ten by less than 2^-127 relative, so with
 * cp < 2^60 the product exceeds the exact value by less than 2^-68; Giulietti shows that the
 * exact value of a double's scaled bounds is an integer or lies well clear of one, so the
 * floor is exact and the odd bit tells exactly whether the value was an integer. */
static uint64_t round_to_odd(const uint64_t g[2], uint64_t cp)
{
    uint64_t lo1, lo0;
    const uint64_t hi1 = mul_64(g[0], cp, &lo1);
    const uint64_t hi0 = mul_64(g[1], cp, &lo0);
    (void)lo0; /* below 2^-64 of a unit: cannot decide anything */
    const uint64_t mid = lo1 + hi0;
    const uint64_t top = hi1 + (mid < lo1);
    return top | (mid != 0);
}

/* The shortest decimal in the rounding interval of x = c 2^q > 0, the nearest to x among
 * the shortest (ties to even). Values are scaled by 4 (cb = 4c) so that the interval's ends
 * (c -+ 1/2, or c - 1/4 below a power of two whose lower neighbour is closer) are integers;
 * they belong to the interval when c is even, as strtod rounds ties to even. */
static struct decimal shortest(uint64_t c, int q)
{
    const uint64_t out = c & 1; /* 1: the ends round away from x */
    const uint64_t cb = c << 2, cbr = cb + 2;
    uint64_t cbl;
    int k;
    if (c != UINT64_C(1) << 52 || q == -1074) {
        cbl = cb - 2;
        k = floor_log10_pow2(q);
    } else {
        cbl = cb - 1;
        k = floor_log10_three_quarters_pow2(q);
    }
    /* g 2^h is 10^-k in units of 2^-(128 + q): the products below are 4 x 10^-k c 2^q. */
    const int h = q + floor_log2_pow10(-k) + 1;
    const uint64_t *g = fmt_pow10[-k - FMT_POW10_MIN];
    const uint64_t vb = round_to_odd(g, cb << h);
    const uint64_t vbl = round_to_odd(g, cbl << h);
    const uint64_t vbr = round_to_odd(g, cbr << h);

    /* x 10^-k lies in [s, s + 1); the interval holds at most one multiple of ten. */
    const uint64_t s = vb >> 2;
    const uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    const int upin = vbl + out <= sp10 << 2, wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin)
        return (struct decimal){upin ? sp10 : tp10, k};
    /* None: s or s + 1, whichever is inside, or the nearer when both are. */
    const uint64_t t = s + 1;
    const int uin = vbl + out <= s << 2, win = (t << 2) + out <= vbr;
    if (uin != win)
        return (struct decimal){uin ? s : t, k};
    const uint64_t mid = (s + t) << 1; /* 4 (s + 1/2) */
    return (struct decimal){vb < mid || (vb == mid && (s & 1) == 0) ? s : t, k};
}

/* The 8 digits of u < 10^8, leading zeros included. */
static void put8(char *p, uint32_t u)
{
    const uint32_t hi = u / 10000, lo = u % 10000;
    memcpy(p, digit_pairs + 2 * (hi / 100), 2);
    memcpy(p + 2, digit_pairs + 2 * (hi % 100), 2);
    memcpy(p + 4, digit_pairs + 2 * (lo / 100), 2);
    memcpy(p + 6, digit_pairs + 2 * (lo % 100), 2);
}

/* Lays out sign and digits as Python's repr does (without the ".0" of integers). The 17
 * digits of d.m < 10^17 are written once, zeros included, in 32-bit pieces (cheaper than
 * dividing 64-bit numbers), and copied into place. */
static size_t layout(char *buf, int negative, struct decimal d)
{
    char dig[17];
    const uint64_t hi = d.m / 100000000; /* < 10^9 */
    dig[0] = (char)('0' + hi / 100000000);
    put8(dig + 1, (uint32_t)(hi % 100000000));
    put8(dig + 9, (uint32_t)(d.m - hi * 100000000));
    int first = 0, last = 16;
    while (dig[first] == '0')
        first++;
    while (dig[last] == '0')
        last--;
    const char *digits = dig + first;
    const int n = last - first + 1;
    const int exp = d.e + 16 - first; /* the power of ten of the first digit */
    char *p = buf;
    if (negative)
        *p++ = '-';
    if (exp < -4 || exp >= 16) {
        /* d.ddde-XX */
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)n - 1);
            p += n - 1;
        }
        *p++ = 'e';
        *p++ = exp < 0 ? '-' : '+';
        const int a = exp < 0 ? -exp : exp;
        if (a < 10)
            *p++ = '0';
        p += fmt_unsigned(p, (uint64_t)a);
        return (size_t)(p - buf);
    }
    if (exp < 0) {
        /* 0.000ddd */
        const int zeros = -exp - 1;
        memcpy(p, "0.0000", (size_t)(2 + zeros));
        p += 2 + zeros;
        memcpy(p, digits, (size_t)n);
        p += n;
    } else if (n <= exp + 1) {
        /* ddd000: an integer */
        memcpy(p, digits, (size_t)n);
        memset(p + n, '0', (size_t)(exp + 1 - n));
        p += exp + 1;
    } else {
        /* ddd.ddd */
        memcpy(p, digits, (size_t)exp + 1);
        p[exp + 1] = '.';
        memcpy(p + exp + 2, digits + exp + 1, (size_t)(n - exp - 1));
        p += n + 1;
    }
    *p = '\0';
    return (size_t)(p - buf);
}

size_t fmt_double(char *buf, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    const int negative = (int)(bits >> 63);
    const uint64_t t = bits & ((UINT64_C(1) << 52) - 1);
    const int be = (int)(bits >> 52) & 0x7ff;
    if (be == 0x7ff) {
        const char *s = t ? "nan" : negative ? "-inf" : "inf";
        strcpy(buf, s);
        return strlen(s);
    }
    if (be == 0 && t == 0) {
        strcpy(buf, negative ? "-0" : "0");
        return negative ? 2 : 1;
    }
    const uint64_t c = be ? t | UINT64_C(1) << 52 : t;
    const int q = be ? be - 1075 : -1074;
    /* Integers below 2^53 are exact, so their digits are already the shortest form. */
    if (q <= 0 && q > -53 && (c & ((UINT64_C(1) << -q) - 1)) == 0)
        return layout(buf, negative, (struct decimal){c >> -q, 0});
    return layout(buf, negative, shortest(c, q));
}
