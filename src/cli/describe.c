/* The description `catena validate` prints (see cli/describe.h). Numbers use the writers'
 * shortest round-trip form, so a value printed here is exactly the value a run uses. */
#include "cli/describe.h"

#include <string.h>

#include "core/fmt_double.h"
#include "core/memory.h"
#include "core/text.h"
#include "render/render.h"
#include "io/traj.h"

/* One "key  value" line with the keys aligned. */
#define KEY "%-12s"

static void put_double(FILE *out, double x)
{
    char buf[FMT_DOUBLE_SIZE];
    fmt_double(buf, x);
    fputs(buf, out);
}

static const char *body_type_name(enum body_type type)
{
    switch (type) {
    case BODY_ROPE:
        return "rope";
    case BODY_CLOTH:
        return "cloth";
    case BODY_RAGDOLL:
        return "ragdoll";
    case BODY_SOFTBODY:
        return "softbody";
    case BODY_HAIR:
        return "hair";
    }
    return "?";
}

static void describe_bodies(FILE *out, const struct model *m)
{
    fprintf(out, KEY "%zu\n", "bodies", m->nbodies);
    for (size_t i = 0; i < m->nbodies; i++) {
        const struct body *b = &m->bodies[i];
        char name[256];
        fprintf(out, "  %-9s %s, points %lu..%lu", text_clean(name, sizeof name, b->name),
                body_type_name(b->type), (unsigned long)b->first_point,
                (unsigned long)b->first_point + b->npoints - 1);
        if (b->nlinks > 0)
            fprintf(out, ", links %lu..%lu", (unsigned long)b->first_link,
                    (unsigned long)b->first_link + b->nlinks - 1);
        fputc('\n', out);
    }
}

/* The constraint families beyond links and the triangles, a line each where there are any
 * (so a scenario of points and links reads as before). */
static void describe_constraints(FILE *out, const struct model *m)
{
    const struct {
        const char *name;
        size_t n;
    } family[] = {{"angles", m->nangles},
                  {"areas", m->nareas},
                  {"shapes", m->nshapes},
                  {"attachments", m->nattachments},
                  {"faces", m->nfaces}};
    for (size_t i = 0; i < sizeof family / sizeof *family; i++)
        if (family[i].n > 0)
            fprintf(out, KEY "%zu\n", family[i].name, family[i].n);
}

static void describe_time(FILE *out, const struct model *m)
{
    fprintf(out, KEY, "dt");
    put_double(out, m->dt);
    fprintf(out, " s\n" KEY "%ld\n" KEY "%d\n" KEY, "steps", m->steps, "substeps", m->substeps,
            "duration");
    put_double(out, (double)m->steps * m->dt);
    fputs(" s simulated\n", out);
}

static void describe_solver(FILE *out, const struct model *m)
{
    fprintf(out, KEY "%s\n" KEY "%d\n" KEY "%s\n" KEY, "method", model_method_name(m->method),
            "iterations", m->iterations, "order", model_order_name(m->order), "damping");
    put_double(out, m->damping);
    fprintf(out, " %s (damping_rate %.6g /s)\n" KEY "[",
            m->method == METHOD_VERLET ? "per substep" : "per second",
            model_damping_rate(m, m->damping), "gravity");
    const double g[3] = {m->gravity.x, m->gravity.y, m->gravity.z};
    for (int k = 0; k < m->dims; k++) {
        if (k > 0)
            fputs(", ", out);
        put_double(out, g[k]);
    }
    fputs("] m/s^2\n", out);
    if (m->max_length_pass)
        fprintf(out, KEY "%s\n", "max length", "pass after the iterations");
    if (m->global)
        fprintf(out, KEY "%s\n", "global",
                m->global_matrix == MATRIX_FIXED
                    ? "distance links of each body solved at once (fixed matrix)"
                    : "distance links of each body solved at once");
}

/* "KEY  total (name n, ...)" for the kinds that occur; nothing when there are none. */
static void put_kinds(FILE *out, const char *key, const char *const *names, const size_t *n,
                      size_t kinds)
{
    size_t total = 0;
    for (size_t k = 0; k < kinds; k++)
        total += n[k];
    if (total == 0)
        return;
    fprintf(out, KEY "%zu", key, total);
    const char *sep = " (";
    for (size_t k = 0; k < kinds; k++)
        if (n[k] > 0) {
            fprintf(out, "%s%s %zu", sep, names[k], n[k]);
            sep = ", ";
        }
    fputs(")\n", out);
}

/* Obstacles and events (when there are any), each with what kinds there are; the points
 * and links cuts reserve; wind and settling when set. */
static void describe_world(FILE *out, const struct model *m)
{
    static const char *const obstacle[] = {"plane", "sphere", "box", "capsule", "bounds"};
    static const char *const event[] = {"cut",      "release", "pin", "drag",    "reel",
                                        "velocity", "impulse", "set", "teleport"};
    size_t n[9] = {0};
    for (size_t i = 0; i < m->nobstacles; i++)
        n[m->obstacles[i].type]++;
    put_kinds(out, "obstacles", obstacle, n, 5);
    if (m->nobstacles > 0)
        fprintf(out, KEY "every %d iteration%s and the last\n", "collisions", m->collide_every,
                m->collide_every == 1 ? "" : "s");
    if (m->nobstacles > 0 && m->shock_iterations > 0)
        fprintf(out, KEY "held as pins in the last %d iteration%s\n", "contacts",
                m->shock_iterations, m->shock_iterations == 1 ? "" : "s");
    /* The releases that end drags are the drags' own, not events of the file. */
    memset(n, 0, sizeof n);
    for (size_t i = 0; i < m->nevents; i++)
        n[m->events[i].kind] += !m->events[i].ends_drag;
    put_kinds(out, "events", event, n, 9);
    if (m->nreserved_links == 1)
        fprintf(out, KEY "points %zu..%zu and link %zu for the cut\n", "reserved",
                m->first_reserved_point, m->first_reserved_point + 1, m->first_reserved_link);
    else if (m->nreserved_links > 1)
        fprintf(out, KEY "points %zu..%zu and links %zu..%zu for the cuts\n", "reserved",
                m->first_reserved_point, m->first_reserved_point + m->nreserved_points - 1,
                m->first_reserved_link, m->first_reserved_link + m->nreserved_links - 1);
    if (v3_len(m->wind) > 0.0) {
        fprintf(out, KEY "[", "wind");
        const double w[3] = {m->wind.x, m->wind.y, m->wind.z};
        for (int k = 0; k < m->dims; k++) {
            if (k > 0)
                fputs(", ", out);
            put_double(out, w[k]);
        }
        fputs("] m/s\n", out);
    }
    if (m->settle_speed > 0.0) {
        fprintf(out, KEY "below ", "settle");
        put_double(out, m->settle_speed);
        fputs(" m/s for ", out);
        put_double(out, m->settle_for);
        fputs(" s\n", out);
    }
}

static void describe_output(FILE *out, const struct model *m, const struct scenario_output *o)
{
    static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
    fprintf(out, KEY, "outputs");
    const char *sep = "";
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (o->formats & formats[i]) {
            fprintf(out, "%strajectory.%s", sep, traj_format_name(formats[i]));
            sep = ", ";
        }
    if (o->metrics) {
        fprintf(out, "%smetrics.csv", sep);
        sep = ", ";
    }
    fprintf(out, "%sevents.csv", sep);
    sep = ", ";
    /* Frames are step 0 and every multiple of `every` up to `steps`. */
    const long frames = o->every > 0 ? m->steps / o->every + 1 : 1;
    fprintf(out, "%sscenario.json, summary.json", sep);
    if (o->reports & REPORT_CATENARY)
        fputs(", catenary.json, catenary.txt", out);
    fprintf(out, "\n" KEY "%ld (%ld frames)\n", "every", o->every, frames);
}

/* output.render: the frames a run would draw, as many as a run of all its steps gives. */
static void describe_render(FILE *out, const struct scenario *sc)
{
    const struct render_opts *o = sc->output.render;
    if (!o)
        return;
    fprintf(out, KEY "frames/ ", "render");
    if (o->every > 0) {
        fprintf(out, "every %ld steps", o->every);
    } else {
        put_double(out, o->fps);
        fputs(" fps", out);
    }
    fprintf(out, ", %dx%d, colour by %s%s (%ld frames)\n", o->width, o->height,
            render_color_by_name(o->color_by), o->sheet.enabled ? ", contact sheet" : "",
            render_frames_expected(sc, o));
}

/* The checks a run would judge: how many, each by name, with its type when it has a name of
 * its own. */
static void describe_checks(FILE *out, const struct scenario *sc)
{
    const struct scenario_checks *c = &sc->checks;
    if (c->n == 0)
        return;
    fprintf(out, KEY "%zu", "checks", c->n);
    for (size_t i = 0; i < c->n; i++) {
        const char *type = check_type_names[c->list[i].type];
        fprintf(out, "%s%s", i ? ", " : " (", c->list[i].name);
        if (strcmp(c->list[i].name, type) != 0)
            fprintf(out, ": %s", type);
    }
    fputs(")\n", out);
}

void describe_scenario(FILE *out, const struct scenario *sc)
{
    const struct model *m = sc->model;
    const struct scenario_provenance *from = &sc->provenance;
    char shown[1024];
    fprintf(out, KEY "%s\n", "scenario",
            from->name ? text_clean(shown, sizeof shown, from->name) : "");
    if (from->source)
        fprintf(out, KEY "%s\n", "file", text_clean(shown, sizeof shown, from->source));
    fprintf(out, KEY "%zu\n" KEY "%zu\n" KEY "%zu\n", "points", m->npoints, "links", m->nlinks,
            "pins", m->npins);
    describe_constraints(out, m);
    if (sc->memory > 0) {
        char need[32];
        fprintf(out, KEY "about %s at a run's peak\n", "memory", memory_format(need, sc->memory));
    }
    describe_bodies(out, m);
    fprintf(out, KEY "%d\n", "dimensions", m->dims);
    describe_time(out, m);
    describe_solver(out, m);
    describe_world(out, m);
    describe_checks(out, sc);
    describe_output(out, m, &sc->output);
    describe_render(out, sc);
}
