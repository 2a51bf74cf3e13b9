/* Memory sizes (core/memory.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/memory.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

double memory_available(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    double bytes = pages > 0 && size > 0 ? (double)pages * (double)size : 0.0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (bytes == 0.0 || (double)rl.rlim_cur < bytes))
        bytes = (double)rl.rlim_cur;
    return bytes;
}

char *memory_format(char buf[32], double bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    size_t u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof *units) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, 32, "%.3g %s", bytes, units[u]);
    return buf;
}

int memory_parse(const char *s, double *bytes)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s)
        return -1;
    static const char units[] = "KMGT";
    if (*end) {
        int k = 0;
        while (units[k] && units[k] != *end)
            k++;
        if (!units[k] || end[1])
            return -1;
        v *= pow(1024.0, k + 1);
    }
    if (!(v > 0) || !isfinite(v))
        return -1;
    *bytes = v;
    return 0;
}
