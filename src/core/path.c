/* File names from a directory and a name (see core/path.h). */
#include "core/path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *path_join(const char *a, const char *b)
{
    const size_t na = strlen(a), n = na + strlen(b) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", a, na && a[na - 1] != '/' ? "/" : "", b);
    return p;
}
