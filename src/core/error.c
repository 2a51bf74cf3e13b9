/* Error buffer helpers: every message is made safe to print here (core/text.h). */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/text.h"

int error_set(struct catena_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* Messages quote names and values from files: shown on a terminal, they stay one line
     * of text. */
    text_clean(err->msg, sizeof err->msg, err->msg);
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
