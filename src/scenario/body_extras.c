/* What a body has beyond its shape (catena-scenario(5)), read once every body is built:
 * bodies[].drag (the wind's grip on its links), bodies[].self_collision (a radius at which
 * its points push each other apart) and bodies[].color (how renders draw it). */
#include <math.h>
#include <string.h>

#include "core/fmt_double.h"
#include "scenario/loader.h"

// clang-format off
const struct sjson_key scenario_self_keys[] = {
    {"radius", 1},
    {NULL, 0},
};
// clang-format on

/* Self-collision radius: two radii must fit in the shortest link, or linked neighbours
 * (or, on a straight rope, segments two apart) would be pushed apart by design. */
static int read_self(struct loader *ld, const cJSON *sc, const char *path, struct body *b)
{
    if (sjson_check_object(&ld->cx, sc, path, scenario_self_keys) ||
        sjson_get_number(&ld->cx, sc, path, "radius", &SJSON_POSITIVE, &b->self_radius))
        return CATENA_EINPUT;
    double shortest = INFINITY;
    for (uint32_t k = 0; k < b->nlinks; k++) {
        const struct link *l = &ld->m->links[b->first_link + k];
        if (l->role == ROLE_STRUCTURAL)
            shortest = fmin(shortest, l->rest);
    }
    if (isfinite(shortest) && 2.0 * b->self_radius >= shortest) {
        char p[SJSON_PATH_MAX], s[FMT_DOUBLE_SIZE], got[FMT_DOUBLE_SIZE];
        fmt_double(s, 0.5 * shortest);
        fmt_double(got, b->self_radius);
        return sjson_error(&ld->cx, sjson_path_key(p, path, "radius"),
                           "must be less than half the body's shortest link, %s (got %s)", s, got);
    }
    return 0;
}

static int hex_digit(char c)
{
    return '0' <= c && c <= '9'   ? c - '0'
           : 'a' <= c && c <= 'f' ? c - 'a' + 10
           : 'A' <= c && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* "#rrggbb" as 0xRRGGBB, or -1. */
static long parse_color(const char *s)
{
    if (s[0] != '#' || strlen(s) != 7)
        return -1;
    long v = 0;
    for (int i = 1; i < 7; i++) {
        const int d = hex_digit(s[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* bodies[i].color: "#rrggbb". */
static int read_color(struct loader *ld, const cJSON *e, const char *path, struct body *b)
{
    char p[SJSON_PATH_MAX];
    const char *s = NULL;
    if (sjson_get_string(&ld->cx, e, path, "color", &s))
        return CATENA_EINPUT;
    if (!s)
        return 0;
    const long c = parse_color(s);
    if (c < 0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "color"),
                           "expected a colour \"#rrggbb\" (hexadecimal), got \"%s\"", s);
    b->color = (uint32_t)c | BODY_COLOR_SET;
    return 0;
}

int scenario_read_body_extras(struct loader *ld)
{
    const cJSON *bodies = sjson_child(ld->root, "bodies");
    size_t i = 0;
    /* bodies[] is checked and built by now, body i from entry i */
    for (const cJSON *e = bodies ? bodies->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX], pp[SJSON_PATH_MAX];
        struct body *b = &ld->m->bodies[i];
        const cJSON *sc = sjson_child(e, "self_collision");
        sjson_path_index(p, "bodies", i);
        if (sjson_get_number(&ld->cx, e, p, "drag", &SJSON_NONNEG, &b->drag) ||
            (sc && read_self(ld, sc, sjson_path_key(pp, p, "self_collision"), b)) ||
            read_color(ld, e, p, b))
            return CATENA_EINPUT;
    }
    return 0;
}
