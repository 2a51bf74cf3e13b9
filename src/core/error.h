/* Errors are written into a buffer the caller owns (MuJoCo-style); only main.c and the
 * commands (cli/cmd.c, cmd_*.c) print.
 * A message is complete on its own: "FILE: PATH: what is wrong (what would be valid)"
 * or "FILE:LINE:COL: ..." for syntax; main prefixes "catena: ". */
#ifndef CATENA_ERROR_H
#define CATENA_ERROR_H

enum {
    CATENA_OK = 0,
    CATENA_EFAIL = 1,  /* the run or a check failed; exit status 1 */
    CATENA_EINPUT = 2, /* bad usage or bad input; exit status 2 */
};

struct catena_error {
    int code; /* CATENA_OK, CATENA_EFAIL or CATENA_EINPUT */
    char msg[2048];
};

/* Sets code and formats msg, with control characters and broken UTF-8 shown as '?'
 * (text_clean, core/text.h); returns code so callers can `return error_set(...)`. */
int error_set(struct catena_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears err (NULL is allowed). */
void error_clear(struct catena_error *err);

#endif
