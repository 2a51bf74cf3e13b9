/* The list of warnings (core/warnings.h). */
#include "core/warnings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

static char *copy(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

int warnings_add(struct warnings *w, const char *code, const char *fmt, ...)
{
    if (w->n == w->cap) {
        const size_t cap = w->cap ? 2 * w->cap : 4;
        struct warning *list = realloc(w->list, cap * sizeof *list);
        if (!list)
            return -1;
        w->list = list;
        w->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    const int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *message = len >= 0 ? malloc((size_t)len + 1) : NULL;
    char *c = copy(code);
    if (!message || !c) {
        free(message);
        free(c);
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(message, (size_t)len + 1, fmt, ap);
    va_end(ap);
    /* Printed on stderr and naming bodies and points from the file: one safe line. */
    text_clean(message, (size_t)len + 1, message);
    text_clean(c, strlen(c) + 1, c);
    w->list[w->n++] = (struct warning){.code = c, .message = message};
    return 0;
}

void warnings_clear(struct warnings *w)
{
    for (size_t i = 0; i < w->n; i++) {
        free(w->list[i].code);
        free(w->list[i].message);
    }
    free(w->list);
    *w = (struct warnings){0};
}
