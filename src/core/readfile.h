/* Reading a whole file into memory: sweep files, plans, logs and results read back. */
#ifndef CATENA_READFILE_H
#define CATENA_READFILE_H

#include <stddef.h>

/* The whole file, NUL-terminated (*len excludes the NUL), malloc'd; the caller frees it. NULL
 * with *errnum set (an errno value: ENOMEM when out of memory) when it cannot be read. */
char *readfile(const char *path, size_t *len, int *errnum);

#endif
