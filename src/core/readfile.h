/* Reading a whole file into memory: sweep files, plans, logs and results read back. */
#ifndef CATENA_READFILE_H
#define CATENA_READFILE_H

#include <stddef.h>

/* The whole file, NUL-terminated (*len excludes the NUL), malloc'd; the caller frees it. NULL
 * with *errnum set (an errno value: ENOMEM when out of memory, EINVAL for a file that is not
 * a regular one: a FIFO would hang the reader, a device fill its memory) when it cannot be
 * read. */
char *readfile(const char *path, size_t *len, int *errnum);

/* As readfile, for a file that must be a regular one of at most max bytes, not reached
 * through a symlink: a FIFO or a device (/dev/zero) is never read, so it can neither hang
 * the reader nor fill its memory. *errnum ELOOP for a symlink, EINVAL for a file that is not
 * regular, EFBIG for one larger than max; readfile_strerror says so in words. */
char *readfile_regular(const char *path, size_t max, size_t *len, int *errnum);

/* strerror(e), with readfile_regular's EINVAL and EFBIG said as what they mean there. */
const char *readfile_strerror(int e);

#endif
