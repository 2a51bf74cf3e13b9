/* Did-you-mean hints (core/spell.h): Wagner-Fischer's dynamic programme for the edit distance,
 * with a swap of two neighbouring characters counted as one edit (the optimal string
 * alignment distance), three rows at a time. */
#include "core/spell.h"

#include <ctype.h>
#include <string.h>

size_t spell_distance(const char *a, const char *b)
{
    enum { MAXW = 64 };
    const size_t na = strlen(a), nb = strlen(b);
    if (na > MAXW || nb > MAXW)
        return (size_t)-1;
    /* Three rows of the table: the one before last is what a transposition reaches back to. */
    size_t before[MAXW + 1] = {0}, prev[MAXW + 1], cur[MAXW + 1];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            const int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
            const size_t sub = prev[j - 1] + (ai != bj);
            const size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            size_t d = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == bj && before[j - 2] + 1 < d)
                d = before[j - 2] + 1; /* two neighbours swapped: "rnu" for "run" */
            cur[j] = d;
        }
        memcpy(before, prev, (nb + 1) * sizeof *prev);
        memcpy(prev, cur, (nb + 1) * sizeof *prev);
    }
    return prev[nb];
}

int spell_is_close(const char *word, const char *candidate)
{
    const size_t n = strlen(candidate);
    const size_t limit = n <= 3 ? 1 : n <= 6 ? 2 : 3;
    return spell_distance(word, candidate) <= limit;
}

const char *spell_closest(const char *word, const char *const *names, size_t stride)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0;; i++) {
        const char *name = *(const char *const *)((const char *)names + i * stride);
        if (!name)
            break;
        const size_t d = spell_distance(word, name);
        if (d < best_d && spell_is_close(word, name)) {
            best = name;
            best_d = d;
        }
    }
    return best;
}
