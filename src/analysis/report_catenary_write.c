/* The catenary report's files: catenary.txt for people, catenary.json for scripts (numbers in
 * their shortest round-trip form; keys documented in catena(1)), each written to a temporary
 * name and renamed when complete. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "core/fmt_double.h"
#include "core/outfile.h"
#include "core/text.h"
#include "analysis/report_catenary.h"

/* ---- text ---- */

static const char *reference_name(const struct report_chain *c)
{
    return c->extensible ? "extensible" : "rigid";
}

static void text_stats(FILE *f, const char *name, const struct catenary_stats *s)
{
    fprintf(f, "    %-28s %12.4g %12.4g %12.4g %12.4g\n", name, s->rms, s->max, s->rms_rel,
            s->max_rel);
}

static void text_vec(FILE *f, int dims, vec3 v)
{
    v = v3_add(v, v3(0, 0, 0)); /* -0 + 0 is 0: an axis reads (0, 1), not (-0, 1) */
    if (dims == 3)
        fprintf(f, "(%.6g, %.6g, %.6g)", v.x, v.y, v.z);
    else
        fprintf(f, "(%.6g, %.6g)", v.x, v.y);
}

static void text_chain(FILE *f, const struct report_catenary *r, const struct report_chain *c)
{
    const int dims = r->m->dims;
    char name[256];
    if (c->body)
        fprintf(f, "\nbody %s: points %zu..%zu, %zu links\n",
                text_clean(name, sizeof name, c->body), c->first, c->last, c->nlinks);
    else
        fprintf(f, "\npoints %zu..%zu: %zu links\n", c->first, c->last, c->nlinks);
    fprintf(f, "  span %.9g m, chord %.9g m, rest length %.9g m (length/span %.6g)\n", c->span,
            c->chord, c->length, c->length / c->span);
    fputs("  plane: origin ", f);
    text_vec(f, dims, c->plane.origin);
    fputs(", x along ", f);
    text_vec(f, dims, c->plane.u);
    fputs(", up ", f);
    text_vec(f, dims, c->plane.v);
    fputs("\n\n", f);
    fprintf(f, "  analytic catenary   a %.9g m, x0 %.9g m, y0 %.9g m; sag %.9g m\n", c->analytic.a,
            c->analytic.x0, c->analytic.y0, c->analytic_sag);
    fprintf(f,
            "  discrete reference  %s links: H %.9g N, V0 %.9g N; sag %.9g m "
            "(end missed by %.3g m)\n",
            reference_name(c), c->discrete.H, c->discrete.V0, c->discrete_sag,
            c->discrete.residual);
    if (c->extensible)
        fputs("                      the extensible chain: links stretch by compliance x "
              "tension (XPBD)\n",
              f);
    fprintf(f,
            "  least-squares fit   a %.9g m, x0 %.9g m, y0 %.9g m; rms %.4g m, max %.4g m (%s)\n",
            c->fit.c.a, c->fit.c.x0, c->fit.c.y0, c->fit.rms, c->fit.max,
            c->fit.converged ? "converged" : "not converged");
    if (!c->mass.uniform)
        fprintf(f,
                "  mass                not uniform: %.6g to %.6g kg/m along the chain (point %zu "
                "carries %.4g times\n"
                "                      the mean): the continuous catenary assumes a uniform "
                "chain and is not its\n"
                "                      reference; discrete - analytic is the effect of these "
                "point loads\n",
                c->mass.min, c->mass.max, c->mass.heaviest, c->mass.max / c->mass.mean);
    fprintf(f, "\n  errors, point by point   %17s %12s %12s %12s\n", "rms (m)", "max (m)",
            "rms/span", "max/span");
    text_stats(f, "total (simulated-analytic)", &c->total);
    text_stats(f, c->mass.uniform ? "discretisation (discr.-an.)" : "point loads (discr.-an.)",
               &c->discretisation);
    text_stats(f, "solver (simulated-discrete)", &c->solver);
    fprintf(f, "  sag      simulated %.9g m: error %.4g m (%.4g of the span)\n", c->sag,
            c->sag - c->analytic_sag, (c->sag - c->analytic_sag) / c->span);
    fprintf(f, "  length   polyline %.9g m: error %.4g m (%.4g of the rest length)\n", c->polyline,
            c->polyline - c->length, (c->polyline - c->length) / c->length);
    fprintf(f, "  stretch  max %.9g (link %zu along the chain), min %.9g\n", c->stretch.max,
            c->stretch.argmax, c->stretch.min);
    if (dims == 3)
        fprintf(f, "  out of the plane: %.4g m at most\n", c->out_of_plane);
}

void report_catenary_text(FILE *f, const struct report_catenary *r, const char *source)
{
    const struct model *m = r->m;
    char shown[1024];
    fprintf(f, "catenary report: %s, step %ld", text_clean(shown, sizeof shown, source), r->step);
    if (isfinite(r->time))
        fprintf(f, " (t = %.9g s)", r->time);
    fprintf(f, "\nsolver: %s, dt %.9g s, %d substeps, %d iterations\n",
            model_method_name(m->method), m->dt, m->substeps, m->iterations);
    fputs("errors compare point k with the analytic curve's point at the rest arc length of k,\n"
          "and with point k of the discrete equilibrium (same rest lengths and masses)\n",
          f);
    for (size_t i = 0; i < r->nchains; i++)
        text_chain(f, r, &r->chains[i]);
}

/* ---- JSON ---- */

/* cJSON's Add* calls return NULL on OOM and take a NULL parent quietly; *ok remembers. */
static cJSON *need(cJSON *item, int *ok)
{
    if (!item)
        *ok = 0;
    return item;
}

/* A number in its shortest round-trip form; null when not finite (JSON has no NaN). */
static void add_num(cJSON *obj, const char *key, double x, int *ok)
{
    char buf[FMT_DOUBLE_SIZE];
    if (!isfinite(x)) {
        need(cJSON_AddNullToObject(obj, key), ok);
        return;
    }
    fmt_double(buf, x);
    need(cJSON_AddRawToObject(obj, key, buf), ok);
}

static void add_vec(cJSON *obj, const char *key, int dims, vec3 v, int *ok)
{
    char buf[3 * FMT_DOUBLE_SIZE + 8], *p = buf;
    v = v3_add(v, v3(0, 0, 0)); /* no -0 */
    *p++ = '[';
    p += fmt_double(p, v.x);
    *p++ = ',';
    p += fmt_double(p, v.y);
    if (dims == 3) {
        *p++ = ',';
        p += fmt_double(p, v.z);
    }
    *p++ = ']';
    *p = '\0';
    need(cJSON_AddRawToObject(obj, key, buf), ok);
}

static void json_stats(cJSON *parent, const char *key, const struct catenary_stats *s, size_t first,
                       int *ok)
{
    cJSON *o = need(cJSON_AddObjectToObject(parent, key), ok);
    add_num(o, "rms", s->rms, ok);
    add_num(o, "max", s->max, ok);
    add_num(o, "rms_rel", s->rms_rel, ok);
    add_num(o, "max_rel", s->max_rel, ok);
    add_num(o, "max_point", (double)(first + s->argmax), ok);
}

static void json_curve(cJSON *parent, const char *key, const struct catenary *c, int *ok)
{
    cJSON *o = need(cJSON_AddObjectToObject(parent, key), ok);
    add_num(o, "a", c->a, ok);
    add_num(o, "x0", c->x0, ok);
    add_num(o, "y0", c->y0, ok);
}

static void json_errors(cJSON *parent, const struct report_chain *c, int *ok)
{
    cJSON *e = need(cJSON_AddObjectToObject(parent, "errors"), ok);
    json_stats(e, "total", &c->total, c->first, ok);
    json_stats(e, "discretisation", &c->discretisation, c->first, ok);
    json_stats(e, "solver", &c->solver, c->first, ok);
    cJSON *sag = need(cJSON_AddObjectToObject(e, "sag"), ok);
    add_num(sag, "simulated", c->sag, ok);
    add_num(sag, "error", c->sag - c->analytic_sag, ok);
    add_num(sag, "error_rel", (c->sag - c->analytic_sag) / c->span, ok);
    cJSON *len = need(cJSON_AddObjectToObject(e, "length"), ok);
    add_num(len, "simulated", c->polyline, ok);
    add_num(len, "error", c->polyline - c->length, ok);
    add_num(len, "error_rel", (c->polyline - c->length) / c->length, ok);
    add_num(e, "max_stretch", c->stretch.max, ok);
    add_num(e, "max_stretch_link", (double)c->stretch.argmax, ok);
    add_num(e, "min_stretch", c->stretch.min, ok);
    add_num(e, "out_of_plane", c->out_of_plane, ok);
}

static void json_chain(cJSON *chains, const struct report_catenary *r, const struct report_chain *c,
                       int *ok)
{
    const int dims = r->m->dims;
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(chains, o)) {
        cJSON_Delete(o);
        *ok = 0;
        return;
    }
    need(c->body ? cJSON_AddStringToObject(o, "body", c->body) : cJSON_AddNullToObject(o, "body"),
         ok);
    char points[64];
    snprintf(points, sizeof points, "[%zu,%zu]", c->first, c->last);
    need(cJSON_AddRawToObject(o, "points", points), ok);
    add_num(o, "links", (double)c->nlinks, ok);
    add_num(o, "span", c->span, ok);
    add_num(o, "chord", c->chord, ok);
    add_num(o, "length", c->length, ok);
    cJSON *pl = need(cJSON_AddObjectToObject(o, "plane"), ok);
    add_vec(pl, "origin", dims, c->plane.origin, ok);
    add_vec(pl, "x_axis", dims, c->plane.u, ok);
    add_vec(pl, "up", dims, c->plane.v, ok);
    json_curve(o, "analytic", &c->analytic, ok);
    add_num(cJSON_GetObjectItemCaseSensitive(o, "analytic"), "sag", c->analytic_sag, ok);
    cJSON *d = need(cJSON_AddObjectToObject(o, "discrete"), ok);
    need(cJSON_AddStringToObject(d, "reference", reference_name(c)), ok);
    add_num(d, "H", c->discrete.H, ok);
    add_num(d, "V0", c->discrete.V0, ok);
    add_num(d, "sag", c->discrete_sag, ok);
    add_num(d, "residual", c->discrete.residual, ok);
    cJSON *w = need(cJSON_AddObjectToObject(o, "mass"), ok);
    need(cJSON_AddBoolToObject(w, "uniform", c->mass.uniform), ok);
    add_num(w, "min_per_length", c->mass.min, ok);
    add_num(w, "max_per_length", c->mass.max, ok);
    add_num(w, "mean_per_length", c->mass.mean, ok);
    add_num(w, "heaviest_point", (double)c->mass.heaviest, ok);
    json_curve(o, "fit", &c->fit.c, ok);
    cJSON *fit = cJSON_GetObjectItemCaseSensitive(o, "fit");
    add_num(fit, "rms", c->fit.rms, ok);
    add_num(fit, "max", c->fit.max, ok);
    add_num(fit, "iterations", c->fit.iterations, ok);
    need(cJSON_AddBoolToObject(fit, "converged", c->fit.converged), ok);
    json_errors(o, c, ok);
}

char *report_catenary_json(const struct report_catenary *r, const char *source)
{
    const struct model *m = r->m;
    int ok = 1;
    cJSON *root = need(cJSON_CreateObject(), &ok);
    need(cJSON_AddStringToObject(root, "catena_version", PACKAGE_VERSION), &ok);
    need(cJSON_AddStringToObject(root, "source", source), &ok);
    need(cJSON_AddStringToObject(root, "scenario", r->scenario ? r->scenario : ""), &ok);
    add_num(root, "step", (double)r->step, &ok);
    add_num(root, "time", r->time, &ok);
    cJSON *s = need(cJSON_AddObjectToObject(root, "solver"), &ok);
    need(cJSON_AddStringToObject(s, "method", model_method_name(m->method)), &ok);
    add_num(s, "dt", m->dt, &ok);
    add_num(s, "substeps", m->substeps, &ok);
    add_num(s, "iterations", m->iterations, &ok);
    cJSON *chains = need(cJSON_AddArrayToObject(root, "chains"), &ok);
    for (size_t i = 0; ok && i < r->nchains; i++)
        json_chain(chains, r, &r->chains[i], &ok);
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    return text;
}

/* ---- files ---- */

int report_catenary_write(const char *dir, const struct report_catenary *r, const char *source,
                          struct catena_error *err)
{
    char *json = report_catenary_json(r, source);
    if (!json)
        return error_set(err, CATENA_EFAIL, "%s/catenary.json: out of memory", dir);
    struct outfile f;
    int rc = outfile_open(&f, dir, "catenary.json", err);
    if (rc == CATENA_OK) {
        fputs(json, f.fp);
        fputc('\n', f.fp);
        rc = outfile_commit(&f, err);
    }
    free(json);
    if (rc == CATENA_OK)
        rc = outfile_open(&f, dir, "catenary.txt", err);
    if (rc == CATENA_OK) {
        report_catenary_text(f.fp, r, source);
        rc = outfile_commit(&f, err);
    }
    return rc;
}
