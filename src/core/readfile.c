/* A whole file into memory (see core/readfile.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The rest of f, at most max bytes (EFBIG past them), into a malloc'd NUL-terminated
 * buffer; NULL with *errnum on failure. Closes f. */
static char *read_all(FILE *f, size_t max, size_t *len, int *errnum)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
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
        if (n > max) { /* it grew while being read */
            *errnum = EFBIG;
            goto fail;
        }
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

/* Opens path for reading only if it is a regular file of at most max bytes (see
 * readfile_regular's errnum values); extra adds O_NOFOLLOW. */
static FILE *open_regular(const char *path, int extra, size_t max, int *errnum)
{
    /* O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused right after */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | extra);
    struct stat st;
    FILE *f = NULL;
    if (fd < 0) {
        *errnum = errno;
        return NULL;
    }
    if (fstat(fd, &st) != 0)
        *errnum = errno;
    else if (!S_ISREG(st.st_mode))
        *errnum = EINVAL;
    else if ((unsigned long long)st.st_size > max)
        *errnum = EFBIG;
    else if (!(f = fdopen(fd, "rb")))
        *errnum = errno;
    if (!f)
        close(fd);
    return f;
}

char *readfile(const char *path, size_t *len, int *errnum)
{
    FILE *f = open_regular(path, 0, SIZE_MAX, errnum);
    return f ? read_all(f, SIZE_MAX, len, errnum) : NULL;
}

char *readfile_regular(const char *path, size_t max, size_t *len, int *errnum)
{
    FILE *f = open_regular(path, O_NOFOLLOW, max, errnum);
    return f ? read_all(f, max, len, errnum) : NULL;
}

const char *readfile_strerror(int e)
{
    if (e == EINVAL)
        return "not a regular file";
    if (e == EFBIG)
        return "too large";
    if (e == ELOOP)
        return "a symbolic link (catena writes none)";
    return strerror(e);
}
