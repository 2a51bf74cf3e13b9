/* Ranges of integers on the command line, one syntax for every command: N, FIRST..LAST,
 * FIRST.. or ..LAST, both ends included, as catena prints ranges ("points 0..40" in validate
 * and the catenary report). FIRST:LAST (compare's old spelling) is still read, and flagged as
 * deprecated so that the command can say so. */
#ifndef CATENA_RANGE_H
#define CATENA_RANGE_H

#include <limits.h>

#include "core/error.h"

/* An open end: FIRST.. reaches RANGE_OPEN. */
#define RANGE_OPEN LONG_MAX

/* Parses text into [*first, *last] (integers >= 0; an open start is 0, an open end
 * RANGE_OPEN). `option` names the option in messages. *deprecated is set to 1 when text
 * used the colon (the caller warns), 0 otherwise. CATENA_EINPUT with a message that lists
 * the forms, or says which end comes after the other. */
int range_parse(const char *option, const char *text, long *first, long *last, int *deprecated,
                struct catena_error *err);

#endif
