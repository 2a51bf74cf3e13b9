/* File names from a directory and a name, and split back (see core/path.h). */
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

char *path_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    const size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

const char *path_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
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
