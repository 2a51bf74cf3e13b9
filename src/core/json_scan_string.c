/* Strings the scanner has checked (core/json_scan.h), decoded: escapes to their characters,
 * \u escapes (surrogate pairs joined) to UTF-8. Only a checked string is decoded, so a
 * backslash is always followed by a valid escape. */
#include "core/json_scan.h"

#include <stdlib.h>
#include <string.h>

/* Appends code point u as UTF-8 to out[0..size) at *n, counting what does not fit. */
static void put_utf8(char *out, size_t size, size_t *n, unsigned long u)
{
    unsigned char b[4];
    size_t k;
    if (u < 0x80) {
        b[0] = (unsigned char)u;
        k = 1;
    } else if (u < 0x800) {
        b[0] = (unsigned char)(0xC0 | u >> 6);
        b[1] = (unsigned char)(0x80 | (u & 0x3F));
        k = 2;
    } else if (u < 0x10000) {
        b[0] = (unsigned char)(0xE0 | u >> 12);
        b[1] = (unsigned char)(0x80 | (u >> 6 & 0x3F));
        b[2] = (unsigned char)(0x80 | (u & 0x3F));
        k = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | u >> 18);
        b[1] = (unsigned char)(0x80 | (u >> 12 & 0x3F));
        b[2] = (unsigned char)(0x80 | (u >> 6 & 0x3F));
        b[3] = (unsigned char)(0x80 | (u & 0x3F));
        k = 4;
    }
    for (size_t i = 0; i < k; i++, ++*n)
        if (*n + 1 < size)
            out[*n] = (char)b[i];
}

static unsigned long hex_value(const char *p)
{
    return strtoul((char[5]){p[0], p[1], p[2], p[3], '\0'}, NULL, 16);
}

size_t json_scan_string(const struct json_scan *sc, char *out, size_t size)
{
    const char *p = sc->s + (sc->tok - sc->base) + 1, *end = sc->s + (sc->tok_end - sc->base) - 1;
    size_t n = 0;
    while (p < end) {
        if (*p != '\\') {
            if (n + 1 < size)
                out[n] = *p;
            n++;
            p++;
            continue;
        }
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char e = p[1];
        p += 2;
        if (e != 'u') {
            if (n + 1 < size)
                out[n] = to[strchr(from, e) - from];
            n++;
            continue;
        }
        unsigned long u = hex_value(p);
        p += 4;
        if (u >= 0xD800 && u <= 0xDBFF) { /* the scan saw the second half follow */
            u = 0x10000 + ((u - 0xD800) << 10) + (hex_value(p + 2) - 0xDC00);
            p += 6;
        }
        put_utf8(out, size, &n, u);
    }
    if (size > 0)
        out[n < size ? n : size - 1] = '\0';
    return n;
}

int json_scan_string_is(const struct json_scan *sc, const char *text)
{
    const size_t k = strlen(text), raw = sc->tok_end - sc->tok - 2;
    if (!sc->tok_escaped)
        return raw == k && memcmp(sc->s + (sc->tok - sc->base) + 1, text, k) == 0;
    char buf[64];
    if (k >= sizeof buf || raw < k) /* an escape is never shorter than what it stands for */
        return 0;
    return json_scan_string(sc, buf, sizeof buf) == k && memcmp(buf, text, k) == 0;
}
