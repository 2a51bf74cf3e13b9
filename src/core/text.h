/* Text from files, the command line or other programs as catena shows it on a terminal: names
 * and values in messages may come from an untrusted scenario, run directory or sweep file,
 * and a raw escape sequence there could retitle the terminal, clear it or fake a line. Every
 * message (error_set) and every name printed goes through text_clean, the one place that
 * decides what is shown. */
#ifndef CATENA_TEXT_H
#define CATENA_TEXT_H

#include <stddef.h>

/* Copies src into dst[size] (NUL-terminated, cut at a character boundary when dst is too
 * small) with each character that could steer a terminal written as '?': the C0 controls
 * (newline and tab included: a message is one line), DEL, the C1 controls (U+0080..U+009F),
 * the bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069), and every byte
 * that is not part of valid UTF-8. Other UTF-8 text is kept. dst may be src (the text only
 * shrinks). Returns dst. */
char *text_clean(char *dst, size_t size, const char *src);

#endif
