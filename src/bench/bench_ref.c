/* The references of `catena bench`, as the seeds write them. Verlet (Jakobsen 2001):
 * x' = x + (x - x_prev) damping + g h^2, then per iteration, per link in turn,
 * diff = (|d| - L) / (|d| (w_a + w_b)), x_a += d diff w_a, x_b -= d diff w_b. XPBD (Macklin
 * et al. 2016, algorithm 1): v += g h, p = x + v h, lambda = 0, per iteration, per link,
 * dlambda = (-C - alpha~ lambda) / (w_a + w_b + alpha~), p_a -= w_a dlambda n,
 * p_b += w_b dlambda n; then v = (p - x) / h, x = p. The products are written in the order
 * catena's solver rounds them, so that run in the same order of links the two give the same
 * bits (bench/solver.c checks it). */
#include "bench/bench_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct bench_ref *bench_ref_create(const struct model *m, const uint32_t *order)
{
    struct bench_ref *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->npoints = m->npoints;
    r->nlinks = m->nlinks;
    r->p = calloc(m->npoints ? m->npoints : 1, sizeof *r->p);
    r->l = calloc(m->nlinks ? m->nlinks : 1, sizeof *r->l);
    if (!r->p || !r->l) {
        bench_ref_destroy(r);
        return NULL;
    }
    r->xpbd = m->method == METHOD_XPBD;
    r->iterations = m->iterations;
    r->h = m->dt;
    r->damping = m->damping;
    r->gravity = m->gravity;
    /* The state catena starts from (solver/state.c): xprev = x0 - v0 h + g h^2 / 2. */
    const vec3 half_gh2 = v3_scale(m->gravity, 0.5 * r->h * r->h);
    for (size_t i = 0; i < m->npoints; i++) {
        struct bench_ref_point *p = &r->p[i];
        const vec3 x = m->x0[i];
        const vec3 prev =
            m->inv_mass[i] == 0.0 ? x : v3_add(v3_sub(x, v3_scale(m->v0[i], r->h)), half_gh2);
        *p = (struct bench_ref_point){.x = x.x, .y = x.y, .z = x.z, .inv_mass = m->inv_mass[i]};
        if (r->xpbd && m->inv_mass[i] != 0.0) {
            p->vx = m->v0[i].x;
            p->vy = m->v0[i].y;
            p->vz = m->v0[i].z;
        } else if (!r->xpbd) {
            p->px = prev.x;
            p->py = prev.y;
            p->pz = prev.z;
        }
    }
    for (size_t k = 0; k < m->nlinks; k++) {
        const struct link *l = &m->links[order ? order[k] : k];
        r->l[k] = (struct bench_ref_link){l->a, l->b, l->rest, l->compliance, 0};
    }
    return r;
}

void bench_ref_destroy(struct bench_ref *r)
{
    if (!r)
        return;
    free(r->p);
    free(r->l);
    free(r);
}

static void verlet_step(struct bench_ref *r)
{
    const double h2 = r->h * r->h;
    const double gx = r->gravity.x * h2, gy = r->gravity.y * h2, gz = r->gravity.z * h2;
    for (size_t i = 0; i < r->npoints; i++) {
        struct bench_ref_point *p = &r->p[i];
        if (p->inv_mass == 0.0)
            continue;
        const double x = p->x, y = p->y, z = p->z;
        p->x = x + (x - p->px) * r->damping + gx;
        p->y = y + (y - p->py) * r->damping + gy;
        p->z = z + (z - p->pz) * r->damping + gz;
        p->px = x;
        p->py = y;
        p->pz = z;
    }
    for (int it = 0; it < r->iterations; it++) {
        for (size_t k = 0; k < r->nlinks; k++) {
            const struct bench_ref_link *l = &r->l[k];
            struct bench_ref_point *a = &r->p[l->a], *b = &r->p[l->b];
            const double w = a->inv_mass + b->inv_mass;
            const double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
            const double len = sqrt(dx * dx + dy * dy + dz * dz);
            if (w == 0.0 || len == 0.0)
                continue;
            const double diff = (len - l->rest) / (len * w);
            a->x += dx * diff * a->inv_mass;
            a->y += dy * diff * a->inv_mass;
            a->z += dz * diff * a->inv_mass;
            b->x -= dx * diff * b->inv_mass;
            b->y -= dy * diff * b->inv_mass;
            b->z -= dz * diff * b->inv_mass;
        }
    }
}

static void xpbd_step(struct bench_ref *r)
{
    const double h = r->h, inv_h2 = 1.0 / (h * h);
    for (size_t i = 0; i < r->npoints; i++) {
        struct bench_ref_point *p = &r->p[i];
        if (p->inv_mass == 0.0)
            continue;
        p->vx += r->gravity.x * h;
        p->vy += r->gravity.y * h;
        p->vz += r->gravity.z * h;
        p->px = p->x;
        p->py = p->y;
        p->pz = p->z;
        p->x += p->vx * h;
        p->y += p->vy * h;
        p->z += p->vz * h;
    }
    for (size_t k = 0; k < r->nlinks; k++)
        r->l[k].lambda = 0.0;
    for (int it = 0; it < r->iterations; it++) {
        for (size_t k = 0; k < r->nlinks; k++) {
            struct bench_ref_link *l = &r->l[k];
            struct bench_ref_point *a = &r->p[l->a], *b = &r->p[l->b];
            const double w = a->inv_mass + b->inv_mass;
            const double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
            const double len = sqrt(dx * dx + dy * dy + dz * dz);
            if (w == 0.0 || len == 0.0)
                continue;
            const double at = l->compliance * inv_h2;
            const double dl = (-(len - l->rest) - at * l->lambda) / (w + at);
            l->lambda += dl;
            const double s = dl / len; /* grad C = n = d / |d| */
            a->x -= dx * s * a->inv_mass;
            a->y -= dy * s * a->inv_mass;
            a->z -= dz * s * a->inv_mass;
            b->x += dx * s * b->inv_mass;
            b->y += dy * s * b->inv_mass;
            b->z += dz * s * b->inv_mass;
        }
    }
    const double inv_h = 1.0 / h;
    for (size_t i = 0; i < r->npoints; i++) {
        struct bench_ref_point *p = &r->p[i];
        if (p->inv_mass == 0.0)
            continue;
        p->vx = (p->x - p->px) * inv_h;
        p->vy = (p->y - p->py) * inv_h;
        p->vz = (p->z - p->pz) * inv_h;
    }
}

void bench_ref_step(struct bench_ref *r)
{
    if (r->xpbd)
        xpbd_step(r);
    else
        verlet_step(r);
}

/* Writers ---------------------------------------------------------------------------- */

int bench_ref_begin(FILE *fp, enum output_format f, int dims, size_t npoints, long frames)
{
    if (f == FORMAT_CSV)
        return fputs(dims == 3 ? "step,time,point,x,y,z\n" : "step,time,point,x,y\n", fp) < 0 ? -1
                                                                                              : 0;
    if (f == FORMAT_JSON)
        return fprintf(fp,
                       "{\"catena_trajectory\":1,\"name\":\"bench\",\"dimensions\":%d,\"points\":%"
                       "zu,\"frames\":[",
                       dims, npoints) < 0
                   ? -1
                   : 0;
    /* NPY 1.0: magic, version, header length, the dict padded to 64 bytes. */
    char dict[128];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '<f8', 'fortran_order': False, 'shape': (%ld, %zu, %d), }", frames,
                     npoints, dims);
    const int total = (10 + n + 1 + 63) / 64 * 64;
    const unsigned hlen = (unsigned)(total - 10);
    fprintf(fp, "\x93NUMPY\x01%c%c%c", 0, (int)(hlen & 0xff), (int)(hlen >> 8));
    fprintf(fp, "%s%*s\n", dict, total - 10 - n - 1, "");
    return ferror(fp) ? -1 : 0;
}

int bench_ref_frame(FILE *fp, enum output_format f, int dims, size_t npoints, long frame, long step,
                    double t, const vec3 *x)
{
    for (size_t i = 0; i < npoints; i++) {
        if (f == FORMAT_CSV) {
            if (dims == 3)
                fprintf(fp, "%ld,%.17g,%zu,%.17g,%.17g,%.17g\n", step, t, i, x[i].x, x[i].y,
                        x[i].z);
            else
                fprintf(fp, "%ld,%.17g,%zu,%.17g,%.17g\n", step, t, i, x[i].x, x[i].y);
        } else if (f == FORMAT_JSON) {
            if (i == 0)
                fprintf(fp, "%s\n{\"step\":%ld,\"time\":%.17g,\"x\":[", frame > 0 ? "," : "", step,
                        t);
            if (dims == 3)
                fprintf(fp, "%s[%.17g,%.17g,%.17g]", i ? "," : "", x[i].x, x[i].y, x[i].z);
            else
                fprintf(fp, "%s[%.17g,%.17g]", i ? "," : "", x[i].x, x[i].y);
            if (i + 1 == npoints)
                fputs("]}", fp);
        } else {
            fwrite(&x[i].x, sizeof(double), 1, fp);
            fwrite(&x[i].y, sizeof(double), 1, fp);
            if (dims == 3)
                fwrite(&x[i].z, sizeof(double), 1, fp);
        }
    }
    return ferror(fp) ? -1 : 0;
}

int bench_ref_end(FILE *fp, enum output_format f)
{
    if (f == FORMAT_JSON)
        fputs("\n]}\n", fp);
    return fflush(fp) != 0 || ferror(fp) ? -1 : 0;
}
