/* The one JSON scanner: strict RFC 8259, pulled one event at a time (a bracket, a key, a
 * scalar), the grammar checked as it goes, and the first error told with its reason and its
 * byte offset (LINE:COL through json_scan_where). The scenario loader runs it over a whole
 * file before cJSON builds the tree (scenario/sjson.c); the trajectory reader streams
 * trajectory.json through it a frame at a time (io/traj_read_json.c), holding only the value
 * being scanned, so memory does not grow with the file.
 * Why not a library: Debian's jansson, yajl and json-c were run on the syntax errors the tests
 * check; none names a trailing comma, a comment, a leading zero or a BOM, only jansson gives
 * LINE:COL (a token later than here), and jansson does not stream. */
#ifndef CATENA_JSON_SCAN_H
#define CATENA_JSON_SCAN_H

#include <stddef.h>
#include <stdio.h>

/* Deeper nesting is refused (before cJSON's own limit, 1000, is reached). */
#define JSON_SCAN_MAX_DEPTH 512

enum json_scan_status {
    JSON_SCAN_OK = 0,
    JSON_SCAN_SYNTAX,    /* not JSON: what says why, at where */
    JSON_SCAN_TRUNCATED, /* the input ended inside a value: what and at as for SYNTAX */
    JSON_SCAN_RANGE,     /* a number too large or too small (non-zero, it would read as 0)
                            for a double: what and at as for SYNTAX */
    JSON_SCAN_TOO_LONG,  /* a value is longer than max_value bytes; at is where it starts */
    JSON_SCAN_READ,      /* reading the file failed; read_errno says why */
    JSON_SCAN_NOMEM,     /* no memory for the value being scanned */
};

enum json_event {
    JSON_BEGIN_OBJECT,
    JSON_END_OBJECT,
    JSON_BEGIN_ARRAY,
    JSON_END_ARRAY,
    JSON_KEY,    /* a member's name; its value is the next event */
    JSON_STRING, /* json_scan_string decodes both */
    JSON_NUMBER, /* number holds it */
    JSON_TRUE,
    JSON_FALSE,
    JSON_NULL,
};

/* Flags. */
enum {
    /* Raw control characters (U+0000 to U+001F, line breaks too) are taken inside strings,
     * as cJSON takes them, instead of refused: the trajectory reader reads as it always has,
     * and its messages quote such a key (tests/data/traj/key-newline.json). */
    JSON_SCAN_RAW_CONTROL = 1,
};

/* Peek results besides a byte. */
enum { JSON_SCAN_END = -1, JSON_SCAN_ERROR = -2 };

struct json_scan_level {
    size_t open; /* offset of the bracket */
    char close;  /* '}' or ']' */
    char state;  /* what comes next (json_scan.c) */
};

/* Offsets count bytes from the start of the input. Callers set max_value and read the fields
 * up to read_errno; the rest are the scanner's. */
struct json_scan {
    size_t max_value; /* longest value read from a file, bytes (JSON_SCAN_TOO_LONG past it);
                         0: no limit */
    double number;    /* the last JSON_NUMBER */
    int depth;        /* containers open */
    enum json_scan_status status;
    size_t at;      /* where the error is */
    char what[256]; /* what it is: "trailing comma before '}'" (SYNTAX, TRUNCATED) */
    int read_errno; /* why a read failed (JSON_SCAN_READ) */
    /* What was scanned so far, for memory estimates (a cJSON node per value, a block per
     * string and key): */
    size_t values;       /* values (objects, arrays, scalars), keys not included */
    size_t numbers;      /* numbers among them */
    size_t strings;      /* strings and keys */
    size_t string_bytes; /* their bytes, quotes included */

    const char *s;       /* s[0..len) are the input bytes from offset base on; s[len] = '\0' */
    size_t len, pos;     /* s[pos] is the next byte */
    size_t base;         /* offset of s[0]: bytes before it were dropped (files only) */
    size_t base_line;    /* line and column of s[0], 1-based; columns count UTF-8 */
    size_t base_col;     /* characters */
    char *buf;           /* files: the buffer s points into, cap bytes */
    size_t cap;          /* files */
    FILE *fp;            /* files; NULL for a text in memory */
    int eof;             /* no bytes come after s[len - 1] */
    unsigned flags;      /* JSON_SCAN_* */
    int in_value;        /* a value is being scanned (a file's buffer keeps its bytes) */
    size_t value_start;  /* offset of the value being scanned */
    size_t tok, tok_end; /* offsets of the last string's quotes (tok_end past the closing one) */
    int tok_escaped;     /* it holds a backslash */
    struct json_scan_level stack[JSON_SCAN_MAX_DEPTH]; /* [depth] */
};

/* Scans text[0..len), which must be followed by a NUL (text[len] == '\0'); text is not
 * copied and must outlive the scan. */
void json_scan_text(struct json_scan *sc, const char *text, size_t len, unsigned flags);

/* Scans what fp reads, from where it stands; json_scan_free frees the buffer. */
void json_scan_file(struct json_scan *sc, FILE *fp, unsigned flags);

/* Frees a file's buffer (the FILE stays open). */
void json_scan_free(struct json_scan *sc);

/* The next event of the value being scanned; outside a value (depth 0), the next value starts
 * after white space. Returns 0, or -1 with status, at and what set; after an error every call
 * fails the same way. A value is complete when depth is back to 0 after its event. */
int json_scan_next(struct json_scan *sc, enum json_event *ev);

/* After ev, the rest of the value it began (nothing more for a scalar or a key): 0 or -1. */
int json_scan_skip(struct json_scan *sc, enum json_event ev);

/* Checks a whole document: no byte order mark, one value, white space around it. 0 or -1. */
int json_scan_document(struct json_scan *sc);

/* Between values (depth 0): skips white space and returns the next byte without taking it,
 * JSON_SCAN_END at the end of the input, or JSON_SCAN_ERROR (a read failed: status says). A
 * caller that reads a format's outer structure by hand (as the trajectory reader does) peeks,
 * then takes a punctuation byte with json_scan_take. */
int json_scan_peek(struct json_scan *sc);
void json_scan_take(struct json_scan *sc);

/* The last JSON_KEY or JSON_STRING, decoded (UTF-8), into out[0..size) with a NUL, cut at
 * size - 1 bytes; returns its whole length. Valid until the next call on sc. */
size_t json_scan_string(const struct json_scan *sc, char *out, size_t size);

/* Whether the last JSON_KEY or JSON_STRING, decoded, is text. */
int json_scan_string_is(const struct json_scan *sc, const char *text);

/* Offset of the next byte, and of the end of the input read so far (of all of it once
 * status is JSON_SCAN_TRUNCATED). */
size_t json_scan_offset(const struct json_scan *sc);
size_t json_scan_length(const struct json_scan *sc);

/* 1-based line and column (UTF-8 characters) of an offset no earlier than the value being
 * scanned (a file's earlier bytes are dropped). */
void json_scan_where(const struct json_scan *sc, size_t offset, size_t *line, size_t *col);

#endif
