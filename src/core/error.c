/* Error buffer helpers. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

int error_set(struct catena_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->code = code;
    return code;
}

void error_clear(struct catena_error *err)
{
    if (!err)
        return;
    err->code = CATENA_OK;
    err->msg[0] = '\0';
}
