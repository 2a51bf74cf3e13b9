/* Warnings: things a run or a scenario does that are allowed but probably not meant (a set-up
 * that cannot be satisfied, a run that ends far from plausible). They never change an exit
 * status; catena prints them on stderr and records them in summary.json ("warnings"), each
 * with a stable code that scripts can match and a message for people (control characters
 * shown as '?', as in errors: core/text.h). */
#ifndef CATENA_WARNINGS_H
#define CATENA_WARNINGS_H

#include <stddef.h>

struct warning {
    char *code;    /* e.g. "pressure-rigid-spokes": lower case, words joined by '-' */
    char *message; /* one line, no final period; names the body, link or point concerned */
};

/* A growing list; zero-initialised is empty. */
struct warnings {
    struct warning *list;
    size_t n, cap;
};

/* Appends a warning (code copied, message formatted printf-style). Control characters in
 * either (from names in the scenario: an escaped "\n") become '?', as in the loader's
 * messages, so a warning stays one line and no control byte reaches a terminal. 0, or -1
 * on OOM (the list is then unchanged). */
int warnings_add(struct warnings *w, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Frees the list's contents and leaves it empty; safe on an empty list. */
void warnings_clear(struct warnings *w);

#endif
