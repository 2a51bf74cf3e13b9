/* A growing string (sweep/internal.h): appending never fails on the spot, so building a name
 * reads as a list of appends and out of memory is checked once, by strbuf_take. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "sweep/internal.h"

#include <stdlib.h>
#include <string.h>

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void strbuf_str(struct strbuf *b, const char *s)
{
    strbuf_add(b, s, strlen(s));
}

char *strbuf_take(struct strbuf *b)
{
    if (b->oom || !b->s) {
        free(b->s);
        return b->oom ? NULL : strdup("");
    }
    return b->s;
}
