/* One range syntax for every command (core/range.h). ".." reads "to", with both ends
 * included as in seq, Perl and Ruby, and it is how catena prints its ranges; a colon reads as
 * Python's half-open slice, which these ranges are not, so it is kept only as a deprecated
 * spelling. */
#include "core/range.h"

#include <stdlib.h>
#include <string.h>

/* Digits only, into *out; `open` when empty. */
static int parse_bound(const char *s, size_t n, long open, long *out)
{
    if (n == 0)
        return *out = open, 0;
    if (n > 18 || strspn(s, "0123456789") < n)
        return -1;
    *out = strtol(s, NULL, 10);
    return 0;
}

/* Splits text at its separator (".." or ":"); sep_len 0 when there is none. */
static const char *find_separator(const char *text, size_t *sep_len, int *deprecated)
{
    const char *dots = strstr(text, ".."), *colon = strchr(text, ':');
    *deprecated = 0;
    *sep_len = 0;
    if (dots && !colon)
        return *sep_len = 2, dots;
    if (colon && !dots) {
        *deprecated = 1;
        return *sep_len = 1, colon;
    }
    return NULL;
}

int range_parse(const char *option, const char *text, long *first, long *last, int *deprecated,
                struct catena_error *err)
{
    size_t sep_len, n = strlen(text);
    const char *sep = find_separator(text, &sep_len, deprecated);
    int bad;
    if (!sep)
        bad = n == 0 || parse_bound(text, n, 0, first) || parse_bound(text, n, 0, last);
    else
        bad = parse_bound(text, (size_t)(sep - text), 0, first) ||
              parse_bound(sep + sep_len, strlen(sep + sep_len), RANGE_OPEN, last);
    if (bad)
        return error_set(err, CATENA_EINPUT,
                         "%s: expected N, FIRST..LAST, FIRST.. or ..LAST (integers >= 0, both "
                         "ends included), got '%s'",
                         option, text);
    if (*first > *last)
        return error_set(err, CATENA_EINPUT, "%s: '%s': %ld comes after %ld", option, text, *first,
                         *last);
    return CATENA_OK;
}
