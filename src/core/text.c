/* Text made safe to show on a terminal (core/text.h): a small UTF-8 decoder that keeps
 * printable characters and replaces controls and broken bytes by '?'. */
#include "core/text.h"

#include <string.h>

/* The length of the valid UTF-8 character at s (1..4; shortest form, no surrogates, at most
 * U+10FFFF), or 0 when the bytes there are not one. */
static size_t utf8_length(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n;
    unsigned long cp;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        n = 2;
        cp = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        n = 3;
        cp = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        n = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) /* the NUL at the end stops here too */
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* The code point of a valid character of n bytes. */
static unsigned long utf8_decode(const unsigned char *s, size_t n)
{
    static const unsigned char lead_mask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    unsigned long cp = s[0] & lead_mask[n];
    for (size_t i = 1; i < n; i++)
        cp = cp << 6 | (s[i] & 0x3Fu);
    return cp;
}

/* Characters a terminal may act on instead of showing. */
static int steers_terminal(unsigned long cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

char *text_clean(char *dst, size_t size, const char *src)
{
    if (size == 0)
        return dst;
    const unsigned char *s = (const unsigned char *)src;
    size_t out = 0;
    while (*s) {
        size_t n = utf8_length(s);
        const int bad = n == 0 || steers_terminal(utf8_decode(s, n));
        const size_t put = bad ? 1 : n;
        if (out + put >= size)
            break;
        if (bad)
            dst[out] = '?';
        else
            memmove(dst + out, s, n);
        out += put;
        s += n ? n : 1;
    }
    dst[out] = '\0';
    return dst;
}
