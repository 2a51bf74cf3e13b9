/* A whole file into memory (see core/readfile.h). */
#include "core/readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *readfile(const char *path, size_t *len, int *errnum)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f) {
        *errnum = errno;
        return NULL;
    }
    for (;;) {
        if (cap - n < 2) {
            cap = cap ? 2 * cap : 4096;
            char *b = realloc(buf, cap);
            if (!b) {
                *errnum = ENOMEM;
                goto fail;
            }
            buf = b;
        }
        const size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        *errnum = EIO;
        goto fail;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
fail:
    fclose(f);
    free(buf);
    return NULL;
}
