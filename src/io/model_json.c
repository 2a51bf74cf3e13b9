/* model.json (io/model_json.h), streamed: a model of millions of links is written without
 * building a document of it; numbers in their shortest round-trip form (core/fmt_double.h). */
#include "io/model_json.h"

#include <stdio.h>

#include "core/fmt_double.h"
#include "core/outfile.h"

/* Body types as catena-scenario(5) names them, indexed by enum body_type. */
static const char *const body_types[] = {"rope", "cloth", "ragdoll", "softbody", "hair"};

/* A JSON string: quotes, backslashes and control characters escaped. */
static void put_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

static void put_double(FILE *fp, double v)
{
    char buf[FMT_DOUBLE_SIZE];
    fwrite(buf, 1, fmt_double(buf, v), fp);
}

static void put_points(FILE *fp, const struct model *m)
{
    char buf[64];
    fputs(",\n\"names\":[", fp);
    for (size_t i = 0; i < m->npoints; i++) {
        fputs(i ? "," : "", fp);
        put_string(fp, model_point_label(m, i, buf, sizeof buf));
    }
    fputs("],\n\"mass\":[", fp);
    for (size_t i = 0; i < m->npoints; i++) {
        fputs(i ? "," : "", fp);
        put_double(fp, m->mass[i]);
    }
    fputs("]", fp);
}

static void put_bodies(FILE *fp, const struct model *m)
{
    fputs(",\n\"bodies\":[", fp);
    for (size_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        fputs(b ? ",\n{\"name\":" : "\n{\"name\":", fp);
        put_string(fp, bd->name);
        fprintf(fp,
                ",\"type\":\"%s\",\"first_point\":%lu,\"points\":%lu,\"first_link\":%lu,"
                "\"links\":%lu}",
                (unsigned)bd->type < sizeof body_types / sizeof *body_types ? body_types[bd->type]
                                                                            : "body",
                (unsigned long)bd->first_point, (unsigned long)bd->npoints,
                (unsigned long)bd->first_link, (unsigned long)bd->nlinks);
    }
    fputs("]", fp);
}

static void put_links(FILE *fp, const struct model *m)
{
    fputs(",\n\"links\":[", fp);
    for (size_t i = 0; i < m->nlinks; i++)
        fprintf(fp, "%s[%lu,%lu]", i ? "," : "", (unsigned long)m->links[i].a,
                (unsigned long)m->links[i].b);
    fputs("],\n\"rest\":[", fp);
    for (size_t i = 0; i < m->nlinks; i++) {
        fputs(i ? "," : "", fp);
        put_double(fp, m->links[i].rest);
    }
    fputs("],\n\"faces\":[", fp);
    for (size_t i = 0; i < m->nfaces; i++)
        fprintf(fp, "%s[%lu,%lu,%lu]", i ? "," : "", (unsigned long)m->faces[i].v[0],
                (unsigned long)m->faces[i].v[1], (unsigned long)m->faces[i].v[2]);
    fputs("]", fp);
}

int model_json_write(const char *dir, const struct model *m, struct catena_error *err)
{
    struct outfile f;
    if (outfile_open(&f, dir, "model.json", err))
        return err->code;
    fprintf(f.fp, "{\"catena_model\":1,\"dimensions\":%d,\"points\":%lu", m->dims,
            (unsigned long)m->npoints);
    put_points(f.fp, m);
    put_bodies(f.fp, m);
    put_links(f.fp, m);
    fputs("}\n", f.fp);
    return outfile_commit(&f, err);
}
