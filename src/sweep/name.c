/* Run names (sweep/internal.h): "label=value,label=value" with every byte outside a safe set
 * written %XX, so that a name is one directory under runs/, needs no quoting in a shell, and
 * two different runs never share one. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "sweep/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/sha256_hex.h"

/* Run names longer than this end in a hash of the full name instead (file names stop at
 * 255 bytes, and a run directory's files add their own names to the path). */
#define NAME_MAX_LEN 200
#define NAME_HASH_HEX 16

/* Bytes kept as they are in run names; every other byte is written %XX, so names stay
 * file-system and shell safe and two different values never give the same name. */
static int name_byte_ok(unsigned char c)
{
    return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c == '.' ||
           c == '_' || c == '+' || c == '-';
}

static void add_encoded(struct strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[4];
        /* A leading dot would hide the directory, and "." or ".." would not be one. */
        if (name_byte_ok(*p) && !(*p == '.' && b->len == 0)) {
            strbuf_add(b, (const char *)p, 1);
            continue;
        }
        snprintf(esc, sizeof esc, "%%%02X", *p);
        strbuf_add(b, esc, 3);
    }
}

/* A value in a run name: as in sweep.csv, except that an array is its elements joined by
 * '_' ([0, -9.81] is "0_-9.81"), easier to read than its JSON once encoded. */
static void add_name_value(struct strbuf *b, const cJSON *v)
{
    if (cJSON_IsArray(v)) {
        for (const cJSON *e = v->child; e; e = e->next) {
            if (e != v->child)
                strbuf_str(b, "_");
            add_name_value(b, e);
        }
        return;
    }
    char *cell = sweep_value_cell(v);
    if (!cell)
        b->oom = 1;
    else
        add_encoded(b, cell);
    free(cell);
}

void sweep_name_add(struct strbuf *b, const char *label, const cJSON *value)
{
    add_encoded(b, label);
    strbuf_str(b, "=");
    add_name_value(b, value);
}

char *sweep_name_take(struct strbuf *b)
{
    if (!b->oom && b->len > NAME_MAX_LEN) {
        char hex[SHA256_HEX_SIZE];
        sha256_hex(b->s, b->len, hex);
        snprintf(b->s + NAME_MAX_LEN - NAME_HASH_HEX - 1, NAME_HASH_HEX + 2, ",%.*s", NAME_HASH_HEX,
                 hex);
        b->len = NAME_MAX_LEN;
    }
    return strbuf_take(b);
}

int sweep_name_safe(const char *s)
{
    if (!*s || *s == '.' || *s == '-' || strlen(s) > NAME_MAX_LEN)
        return 0;
    for (; *s; s++)
        if (!name_byte_ok((unsigned char)*s) && !strchr("%=,", *s))
            return 0;
    return 1;
}
