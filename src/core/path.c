/* File names from a directory and a name (see core/path.h). */
#define _XOPEN_SOURCE 700 /* realpath */
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

int path_is_root(const char *p)
{
    if (!*p)
        return 0;
    char *abs = realpath(p, NULL);
    const int root = abs && strcmp(abs, "/") == 0;
    free(abs);
    return root;
}
