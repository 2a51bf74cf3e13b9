/* Point and body names and point references (see scenario/sref.h). Open addressing with
 * FNV-1a and linear probing, kept at most half full, so that resolving the references of
 * a large scenario stays linear. */
#include "scenario/sref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "core/spell.h"

struct sref_table {
    struct sref_entry *slots; /* name NULL = empty */
    size_t cap, count;        /* cap is a power of two */
};

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

struct sref_table *sref_create(void)
{
    return calloc(1, sizeof(struct sref_table));
}

void sref_destroy(struct sref_table *t)
{
    if (!t)
        return;
    free(t->slots);
    free(t);
}

/* The slot holding name[0..n), or the empty slot where it would go. */
static struct sref_entry *slot_for(const struct sref_table *t, const char *name, size_t n)
{
    size_t i = (size_t)hash(name, n) & (t->cap - 1);
    while (t->slots[i].name &&
           !(strncmp(t->slots[i].name, name, n) == 0 && t->slots[i].name[n] == '\0'))
        i = (i + 1) & (t->cap - 1);
    return &t->slots[i];
}

static int grow(struct sref_table *t)
{
    const size_t cap = t->cap ? t->cap * 2 : 64;
    struct sref_entry *old = t->slots;
    const size_t old_cap = t->cap;
    if (!(t->slots = calloc(cap, sizeof *t->slots))) {
        t->slots = old;
        return -1;
    }
    t->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].name)
            *slot_for(t, old[i].name, strlen(old[i].name)) = old[i];
    free(old);
    return 0;
}

int sref_add(struct sref_table *t, const char *name, enum sref_kind kind, size_t index,
             struct sref_entry *taken)
{
    if (2 * (t->count + 1) > t->cap && grow(t))
        return -1;
    struct sref_entry *e = slot_for(t, name, strlen(name));
    if (e->name) {
        *taken = *e;
        return 1;
    }
    *e = (struct sref_entry){.name = name, .kind = kind, .index = index};
    t->count++;
    return 0;
}

const struct sref_entry *sref_find(const struct sref_table *t, const char *name, size_t n)
{
    if (!t->cap)
        return NULL;
    const struct sref_entry *e = slot_for(t, name, n);
    return e->name ? e : NULL;
}

const char *sref_describe(const struct model *m, size_t i, char *buf, size_t size)
{
    char label[256];
    const char *l = model_point_label(m, i, label, sizeof label);
    if (!m->point_name[i] && strspn(l, "0123456789") == strlen(l))
        snprintf(buf, size, "point %s", l);
    else
        snprintf(buf, size, "point \"%s\"", l);
    return buf;
}

/* The closest name of the given kind that starts with word's first `same` bytes, for a
 * did-you-mean (NULL when none is close). */
static const char *closest_name(const struct sref_table *t, enum sref_kind kind, const char *word,
                                size_t same)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < t->cap; i++) {
        const struct sref_entry *e = &t->slots[i];
        if (!e->name || e->kind != kind || strncmp(e->name, word, same) != 0 ||
            !spell_is_close(word, e->name))
            continue;
        const size_t d = spell_distance(word, e->name);
        /* Ties go to the alphabetically first name, so the hint does not depend on the
         * order of the hash table. */
        if (d < best_d || (d == best_d && strcmp(e->name, best) < 0)) {
            best = e->name;
            best_d = d;
        }
    }
    return best;
}

/* "ROW.COLUMN": digits, one dot, digits. */
static int is_grid_ref(const char *k)
{
    const size_t r = strspn(k, "0123456789");
    return r > 0 && k[r] == '.' && k[r + 1] && strspn(k + r + 1, "0123456789") == strlen(k + r + 1);
}

/* "cloth.3.4": row 3, column 4 of a grid body (point 3 * cols + 4). */
static int resolve_grid(const struct sjson *cx, const char *path, const char *ref,
                        const struct body *b, const char *k, uint32_t *out)
{
    const uint32_t cols = b->grid_cols, rows = b->npoints / cols;
    const char *dot = strchr(k, '.');
    /* Past 10 digits a row or column is out of range whatever it says. */
    const unsigned long long r = dot - k > 10 ? ~0ULL : strtoull(k, NULL, 10);
    const unsigned long long c = strlen(dot + 1) > 10 ? ~0ULL : strtoull(dot + 1, NULL, 10);
    char rs[SJSON_SHOW_SIZE], bs[SJSON_SHOW_SIZE];
    if (r >= rows || c >= cols)
        return sjson_error(cx, path,
                           "point \"%s\" does not exist (%s has rows 0 to %u and columns 0 to "
                           "%u)",
                           sjson_show(rs, ref), sjson_show(bs, b->name), rows - 1, cols - 1);
    *out = b->first_point + (uint32_t)(r * cols + c);
    return 0;
}

/* The message for "body.WORD" that is no point: a did-you-mean among the body's named
 * points, else what may follow the dot. */
static int no_such_sub_point(const struct sref_table *t, const struct model *m,
                             const struct sjson *cx, const char *path, const char *ref,
                             const struct body *b)
{
    const char *example = NULL;
    for (uint32_t i = b->first_point; i < b->first_point + b->npoints && !example; i++)
        example = m->point_name[i];
    const size_t prefix = (size_t)(strchr(ref, '.') - ref) + 1;
    const char *hint = example ? closest_name(t, SREF_POINT, ref, prefix) : NULL;
    char rs[SJSON_SHOW_SIZE], bs[SJSON_SHOW_SIZE], es[SJSON_SHOW_SIZE];
    sjson_show(rs, ref);
    sjson_show(bs, b->name);
    if (hint)
        return sjson_error(cx, path, "point \"%s\" does not exist (did you mean \"%s\"?)", rs,
                           sjson_show(es, hint));
    const char *grid = b->grid_cols ? ", ROW.COLUMN" : "";
    if (example)
        return sjson_error(cx, path,
                           "point \"%s\" does not exist (after \"%s.\" write an index from 0 "
                           "to %u%s, first, last or a point name such as \"%s\")",
                           rs, bs, b->npoints - 1, grid, sjson_show(es, example));
    return sjson_error(cx, path,
                       "point \"%s\" does not exist (after \"%s.\" write an index from 0 to "
                       "%u%s, first or last)",
                       rs, bs, b->npoints - 1, grid);
}

/* "chain.12", "chain.first", "chain.last", a point the body named ("fig.head"), or a grid
 * body's "cloth.ROW.COLUMN": resolve within the body. */
static int resolve_in_body(const struct sref_table *t, const struct model *m,
                           const struct sjson *cx, const char *path, const char *ref,
                           const char *dot, uint32_t *out)
{
    const size_t n = (size_t)(dot - ref);
    const struct sref_entry *e = sref_find(t, ref, n);
    char r[SJSON_SHOW_SIZE], bn[SJSON_SHOW_SIZE];
    sjson_show(r, ref);
    if (!e || e->kind != SREF_BODY) {
        char body[256];
        snprintf(body, sizeof body, "%.*s", (int)n, ref);
        sjson_show(bn, body);
        const char *hint = closest_name(t, SREF_BODY, body, 0);
        if (hint)
            return sjson_error(cx, path,
                               "point \"%s\" does not exist (there is no body \"%s\"; did you "
                               "mean \"%s\"?)",
                               r, bn, hint);
        return sjson_error(cx, path, "point \"%s\" does not exist (there is no body \"%s\")", r,
                           bn);
    }
    const struct body *b = &m->bodies[e->index];
    sjson_show(bn, b->name);
    const char *k = dot + 1;
    if (strcmp(k, "first") == 0) {
        *out = b->first_point;
        return 0;
    }
    if (strcmp(k, "last") == 0) {
        *out = b->first_point + b->npoints - 1;
        return 0;
    }
    /* A point the body named ("fig.head"): in the table under its full name. */
    const struct sref_entry *named = sref_find(t, ref, strlen(ref));
    if (named && named->kind == SREF_POINT) {
        *out = (uint32_t)named->index;
        return 0;
    }
    if (b->grid_cols && is_grid_ref(k))
        return resolve_grid(cx, path, ref, b, k, out);
    if (!*k || strspn(k, "0123456789") != strlen(k))
        return no_such_sub_point(t, m, cx, path, ref, b);
    /* Past 10 digits an index is out of range whatever it says. */
    if (strlen(k) > 10 || strtoull(k, NULL, 10) >= b->npoints)
        return sjson_error(cx, path, "point \"%s\" does not exist (%s has %u points)", r, bn,
                           b->npoints);
    *out = b->first_point + (uint32_t)strtoull(k, NULL, 10);
    return 0;
}

static int resolve_name(const struct sref_table *t, const struct model *m, const struct sjson *cx,
                        const char *path, const char *ref, uint32_t *out)
{
    const char *dot = strchr(ref, '.');
    if (dot)
        return resolve_in_body(t, m, cx, path, ref, dot, out);
    const struct sref_entry *e = sref_find(t, ref, strlen(ref));
    if (e && e->kind == SREF_POINT) {
        *out = (uint32_t)e->index;
        return 0;
    }
    char r[SJSON_SHOW_SIZE];
    sjson_show(r, ref);
    if (e)
        return sjson_error(cx, path,
                           "point \"%s\" does not exist (\"%s\" is a body: write \"%s.first\", "
                           "\"%s.last\" or \"%s.INDEX\")",
                           r, r, r, r, r);
    const char *hint = closest_name(t, SREF_POINT, ref, 0);
    if (hint)
        return sjson_error(cx, path, "point \"%s\" does not exist (did you mean \"%s\"?)", r, hint);
    return sjson_error(cx, path, "point \"%s\" does not exist (no point has that name)", r);
}

int sref_resolve(const struct sref_table *t, const struct model *m, const struct sjson *cx,
                 const cJSON *item, const char *path, uint32_t *out)
{
    if (cJSON_IsString(item))
        return resolve_name(t, m, cx, path, item->valuestring, out);
    if (!cJSON_IsNumber(item))
        return sjson_error(cx, path, "expected a point (an index or a name), got %s",
                           sjson_type_name(item));
    double i = 0;
    char got[FMT_DOUBLE_SIZE];
    if (sjson_number(cx, item, path, &SJSON_ANY, &i))
        return CATENA_EINPUT;
    if (i == floor(i) && i >= 0 && i < (double)m->npoints) {
        *out = (uint32_t)i;
        return 0;
    }
    fmt_double(got, i); /* only for a message: a large scenario has millions of references */
    if (i != floor(i))
        return sjson_error(cx, path, "expected a point index (an integer), got %s", got);
    return sjson_error(cx, path, "point %s does not exist (the scenario has %zu point%s)", got,
                       m->npoints, m->npoints == 1 ? "" : "s");
}

int sref_resolve_body(const struct sref_table *t, const struct sjson *cx, const cJSON *item,
                      const char *path, uint32_t *out)
{
    if (!cJSON_IsString(item))
        return sjson_error(cx, path, "expected a body name, got %s", sjson_type_name(item));
    const char *name = item->valuestring;
    const struct sref_entry *e = sref_find(t, name, strlen(name));
    if (e && e->kind == SREF_BODY) {
        *out = (uint32_t)e->index;
        return 0;
    }
    char ns[SJSON_SHOW_SIZE];
    sjson_show(ns, name);
    if (e)
        return sjson_error(cx, path, "\"%s\" is a point, not a body", ns);
    const char *hint = closest_name(t, SREF_BODY, name, 0);
    if (hint)
        return sjson_error(cx, path, "body \"%s\" does not exist (did you mean \"%s\"?)", ns, hint);
    return sjson_error(cx, path, "body \"%s\" does not exist (no body has that name)", ns);
}

/* "chain.12", "chain.first", "chain.last" for links: the body's own link numbering. */
static int resolve_link_in_body(const struct sref_table *t, const struct model *m,
                                const struct sjson *cx, const char *path, const char *ref,
                                uint32_t *out)
{
    const char *dot = strchr(ref, '.');
    const struct sref_entry *e = dot ? sref_find(t, ref, (size_t)(dot - ref)) : NULL;
    char rs[SJSON_SHOW_SIZE], bs[SJSON_SHOW_SIZE];
    sjson_show(rs, ref);
    if (!e || e->kind != SREF_BODY)
        return sjson_error(cx, path,
                           "link \"%s\" does not exist (write a link index or \"BODY.INDEX\")", rs);
    const struct body *b = &m->bodies[e->index];
    const char *k = dot + 1;
    sjson_show(bs, b->name);
    if (b->nlinks == 0)
        return sjson_error(cx, path, "link \"%s\" does not exist (%s has no links)", rs, bs);
    if (strcmp(k, "first") == 0 || strcmp(k, "last") == 0) {
        *out = b->first_link + (strcmp(k, "first") == 0 ? 0 : b->nlinks - 1);
        return 0;
    }
    if (!*k || strspn(k, "0123456789") != strlen(k) || strlen(k) > 10 ||
        strtoull(k, NULL, 10) >= b->nlinks)
        return sjson_error(cx, path, "link \"%s\" does not exist (%s has links 0 to %u)", rs, bs,
                           b->nlinks - 1);
    *out = b->first_link + (uint32_t)strtoull(k, NULL, 10);
    return 0;
}

int sref_resolve_link(const struct sref_table *t, const struct model *m, const struct sjson *cx,
                      const cJSON *item, const char *path, uint32_t *out)
{
    if (cJSON_IsString(item))
        return resolve_link_in_body(t, m, cx, path, item->valuestring, out);
    if (!cJSON_IsNumber(item))
        return sjson_error(cx, path, "expected a link (an index or \"BODY.INDEX\"), got %s",
                           sjson_type_name(item));
    double i = 0;
    char got[FMT_DOUBLE_SIZE];
    if (sjson_number(cx, item, path, &SJSON_ANY, &i))
        return CATENA_EINPUT;
    fmt_double(got, i);
    if (i != floor(i))
        return sjson_error(cx, path, "expected a link index (an integer), got %s", got);
    if (i < 0 || i >= (double)m->nlinks)
        return sjson_error(cx, path, "link %s does not exist (the scenario has %zu link%s)", got,
                           m->nlinks, m->nlinks == 1 ? "" : "s");
    *out = (uint32_t)i;
    return 0;
}
