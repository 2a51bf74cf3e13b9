/* Allocation of arrays sized by a model or a file, which may be empty. */
#ifndef CATENA_ALLOC_H
#define CATENA_ALLOC_H

#include <stdlib.h>

/* n zeroed elements of size bytes; calloc that also succeeds for n = 0 (calloc(0) may return
 * NULL, which would read as out of memory). The caller frees it. */
static inline void *alloc_array(size_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

#endif
