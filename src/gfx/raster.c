/* Canvas and anti-aliased primitives (see gfx/raster.h). Each shape is drawn row by row over the
 * span of pixels its support can reach; distances that are linear along a row (lines,
 * polygons, half-planes) need no square root, so roots appear only at round edges (discs,
 * rings, round caps). Coverage times the colour's alpha gives an opacity in 1/256 steps. */
#include "gfx/raster.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct raster *raster_create(int width, int height, struct catena_error *err)
{
    if (width < 1 || height < 1 || width > RASTER_MAX_SIDE || height > RASTER_MAX_SIDE) {
        error_set(err, CATENA_EINPUT, "image size %dx%d is out of range (1 to %d pixels a side)",
                  width, height, RASTER_MAX_SIDE);
        return NULL;
    }
    struct raster *r = malloc(sizeof *r);
    unsigned char *px = calloc((size_t)width * (size_t)height, 4);
    if (!r || !px) {
        free(r);
        free(px);
        error_set(err, CATENA_EFAIL, "out of memory for a %dx%d image", width, height);
        return NULL;
    }
    r->width = width;
    r->height = height;
    r->px = px;
    return r;
}

void raster_destroy(struct raster *r)
{
    if (!r)
        return;
    free(r->px);
    free(r);
}

void raster_clear(struct raster *r, struct raster_color c)
{
    unsigned char q[4] = {c.r, c.g, c.b, c.a};
    size_t row = (size_t)r->width * 4;
    for (size_t i = 0; i < row; i += 4)
        memcpy(r->px + i, q, 4);
    for (int y = 1; y < r->height; y++)
        memcpy(r->px + (size_t)y * row, r->px, row);
}

/* ---- blending ---- */

/* A colour prepared for blending: alpha scaled to 1/256 units (a256, so that full coverage
 * of an opaque colour gives exactly 256), and its bytes as a word split into the lanes
 * 0x00ff00ff and (>> 8) 0x00ff00ff, so that one multiply blends two channels. The alpha
 * lane holds 255: blending onto an opaque pixel keeps it opaque. */
struct ink {
    struct raster_color c;
    double a256;
    uint32_t rb, ga;
};

static struct ink ink_of(struct raster_color c)
{
    unsigned char b[4] = {c.r, c.g, c.b, 255};
    uint32_t w;
    memcpy(&w, b, 4);
    return (struct ink){c, c.a * (256.0 / 255.0), w & 0x00ff00ffu, (w >> 8) & 0x00ff00ffu};
}

/* Opacity in 1/256 units at coverage cov in [0, 1]. */
static inline unsigned opacity(double cov, const struct ink *in)
{
    return (unsigned)(cov * in->a256 + 0.5);
}

/* The same for a raw coverage v <= 1 that is negative outside the shape, clamped at 0 on the
 * integer, where it compiles to a conditional move (see pos_part). */
static inline unsigned opacity_raw(double v, const struct ink *in)
{
    int k = (int)(v * in->a256 + 0.5);
    return k > 0 ? (unsigned)k : 0;
}

/* "Over" with opacity k/256. Onto an opaque pixel (the usual case) it is a lerp per channel,
 * (p*(256-k) + c*k + 128) >> 8, two channels per multiply: it stores c exactly at k = 256
 * and keeps p at k = 0, so coverage needs no branches. Onto a translucent pixel it is the
 * straight-alpha formula. */
static inline void plot(unsigned char *p, const struct ink *in, unsigned k)
{
    if (p[3] == 255) {
        uint32_t w, j = 256 - k;
        memcpy(&w, p, 4);
        uint32_t rb = (((w & 0x00ff00ffu) * j + in->rb * k + 0x00800080u) >> 8) & 0x00ff00ffu;
        uint32_t ga = (((w >> 8) & 0x00ff00ffu) * j + in->ga * k + 0x00800080u) & 0xff00ff00u;
        w = rb | ga;
        memcpy(p, &w, 4);
        return;
    }
    unsigned ws = k * 255, wd = p[3] * (256 - k), wa = ws + wd;
    if (wa == 0)
        return;
    p[0] = (unsigned char)((in->c.r * ws + p[0] * wd + wa / 2) / wa);
    p[1] = (unsigned char)((in->c.g * ws + p[1] * wd + wa / 2) / wa);
    p[2] = (unsigned char)((in->c.b * ws + p[2] * wd + wa / 2) / wa);
    p[3] = (unsigned char)((wa + 128) >> 8);
}

static inline unsigned char *pixel(const struct raster *r, int x, int y)
{
    return r->px + ((size_t)y * (size_t)r->width + (size_t)x) * 4;
}

void raster_fill_rect(struct raster *r, int x, int y, int w, int h, struct raster_color c)
{
    /* in long long so that no clipping sum overflows */
    long long x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    long long x1 = (long long)x + w, y1 = (long long)y + h;
    x1 = x1 > r->width ? r->width : x1;
    y1 = y1 > r->height ? r->height : y1;
    struct ink in = ink_of(c);
    unsigned k = opacity(1, &in);
    for (long long j = y0; j < y1; j++) {
        unsigned char *p = pixel(r, (int)x0, (int)j);
        for (long long i = x0; i < x1; i++, p += 4)
            plot(p, &in, k);
    }
}

/* ---- spans ---- */

/* Pixels whose centres lie in [lo, hi], clipped to 0..n-1, as [*i0, *i1]; 0 if none. The
 * bounds are clamped in doubles first, so huge or infinite ones (a diverged run) never
 * overflow an int, and then rounded inwards by truncation (cheaper than ceil and floor). */
static int pixel_range(double lo, double hi, int n, int *i0, int *i1)
{
    if (!(lo <= hi))
        return 0;
    lo = lo > -1 ? lo : -1;
    hi = hi < n ? hi : n;
    int a = (int)lo, b = (int)hi;
    a += a < lo;
    b -= b > hi;
    a = a > 0 ? a : 0;
    b = b < n - 1 ? b : n - 1;
    if (a > b)
        return 0;
    *i0 = a;
    *i1 = b;
    return 1;
}

/* Narrows [*lo, *hi] to the x with vlo <= a*x + b <= vhi; inv = 1/a when a != 0. */
static void slab(double a, double inv, double b, double vlo, double vhi, double *lo, double *hi)
{
    if (a == 0) {
        if (b < vlo || b > vhi)
            *lo = HUGE_VAL;
        return;
    }
    double p = (vlo - b) * inv, q = (vhi - b) * inv;
    if (a < 0) {
        double t = p;
        p = q;
        q = t;
    }
    if (p > *lo)
        *lo = p;
    if (q < *hi)
        *hi = q;
}

static inline double min2(double a, double b)
{
    return a < b ? a : b;
}

static inline double max2(double a, double b)
{
    return a > b ? a : b;
}

/* max(v, 0) without a branch (exact for finite v), which compilers emit for the plain form */
static inline double pos_part(double v)
{
    return 0.5 * (v + fabs(v));
}

/* v clamped to [0, 1] for the per-pixel loops, without a branch (core/clamp.h's clamp01
 * branches; the two differ only at -0 and NaN, which coverage never is) */
static inline double coverage_clamp(double v)
{
    return min2(pos_part(v), 1);
}

/* Raw coverage (see opacity_raw) of a pixel whose centre is d >= 0 from the middle of a band
 * of half-width h: the overlap of [d - 1/2, d + 1/2] with [-h, h], at most 1. */
static inline double band(double d, double h)
{
    return min2(d + 0.5, h) - max2(d - 0.5, -h);
}

/* ---- lines, discs, rings ---- */

static int finite4(double a, double b, double c, double d)
{
    return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d);
}

/* One side of a row's span: x = a + b*y. */
struct xbound {
    double a, b;
};

/* The x where vlo <= (x - x0)*u + (y - y0)*w <= vhi, as bounds linear in y; with u = 0 the
 * condition does not depend on x (the rows chosen already satisfy it). */
static void slab_bounds(double x0, double y0, double u, double w, double vlo, double vhi,
                        struct xbound *lo, struct xbound *hi)
{
    if (u == 0) {
        *lo = (struct xbound){-HUGE_VAL, 0};
        *hi = (struct xbound){HUGE_VAL, 0};
        return;
    }
    struct xbound p = {x0 + (vlo + y0 * w) / u, -w / u}, q = {x0 + (vhi + y0 * w) / u, -w / u};
    *lo = u > 0 ? p : q;
    *hi = u > 0 ? q : p;
}

void raster_line(struct raster *r, double x0, double y0, double x1, double y1, double width,
                 enum raster_cap cap, struct raster_color c)
{
    double hw = 0.5 * width;
    if (c.a == 0 || !(hw > 0) || !isfinite(hw) || !finite4(x0, y0, x1, y1))
        return;
    int round = cap == RASTER_CAP_ROUND;
    double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
    if (len < 1e-9) {
        if (round)
            raster_disc(r, x0, y0, hw, c);
        return;
    }
    /* s runs along the segment from (x0, y0), t across it; the support is the rectangle
     * |t| <= hw + 1/2, s_lo <= s <= s_hi */
    double ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
    double ext = (round ? hw : 0) + 0.5, rt = hw + 0.5, s_lo = -ext, s_hi = len + ext;
    double ya = uy * s_lo, yb = uy * s_hi, yt = fabs(ny) * rt;
    int j0, j1;
    if (!pixel_range(y0 + min2(ya, yb) - yt, y0 + max2(ya, yb) + yt, r->height, &j0, &j1))
        return;
    struct xbound tlo, thi, slo, shi;
    slab_bounds(x0, y0, nx, ny, -rt, rt, &tlo, &thi);
    slab_bounds(x0, y0, ux, uy, s_lo, s_hi, &slo, &shi);
    struct ink in = ink_of(c);
    for (int j = j0; j <= j1; j++) {
        double lo = max2(tlo.a + tlo.b * j, slo.a + slo.b * j);
        double hi = min2(thi.a + thi.b * j, shi.a + shi.b * j);
        int i0, i1;
        if (!pixel_range(lo, hi, r->width, &i0, &i1))
            continue;
        /* s and t at the span's first pixel, then stepped along the row */
        double rx = i0 - x0, ry = j - y0, s = rx * ux + ry * uy, t = rx * nx + ry * ny;
        unsigned char *p = pixel(r, i0, j);
        for (int i = i0; i <= i1; i++, p += 4, s += ux, t += nx) {
            double cov;
            if (round) {
                /* distance to the segment: past an end, from the end point */
                double e = pos_part(max2(-s, s - len));
                cov = band(sqrt(e * e + t * t), hw);
            } else {
                /* butt ends cut the pixel's box like the sides do */
                cov = min2(band(fabs(t), hw), min2(s + 0.5, len) - pos_part(s - 0.5));
            }
            plot(p, &in, opacity_raw(cov, &in));
        }
    }
}

/* Row j of the disc of radius ro about (cx, cy): the pixels [*i0, *i1] it reaches, and dy^2 for
 * the distances along the row; 0 when the row misses it. */
static int disc_row(const struct raster *r, double cx, double cy, double ro, int j, double *dy2,
                    int *i0, int *i1)
{
    const double dy = j - cy;
    *dy2 = dy * dy;
    const double h2 = ro * ro - *dy2;
    return h2 > 0 && pixel_range(cx - sqrt(h2), cx + sqrt(h2), r->width, i0, i1);
}

void raster_disc(struct raster *r, double cx, double cy, double radius, struct raster_color c)
{
    if (c.a == 0 || !(radius > 0) || !finite4(cx, cy, radius, 0))
        return;
    /* a disc smaller than a pixel covers at most its own area */
    double ro = radius + 0.5, most = min2(3.14159265358979323846 * radius * radius, 1);
    struct ink in = ink_of(c);
    int j0, j1;
    if (!pixel_range(cy - ro, cy + ro, r->height, &j0, &j1))
        return;
    for (int j = j0; j <= j1; j++) {
        double dy2;
        int i0, i1;
        if (!disc_row(r, cx, cy, ro, j, &dy2, &i0, &i1))
            continue;
        unsigned char *p = pixel(r, i0, j);
        for (int i = i0; i <= i1; i++, p += 4) {
            double dx = i - cx;
            plot(p, &in, opacity_raw(min2(ro - sqrt(dx * dx + dy2), most), &in));
        }
    }
}

/* Pixels i0..i1 of row j of a ring: coverage across the band |dist - radius| <= hw. */
static void ring_span(struct raster *r, int j, int i0, int i1, double cx, double dy2, double radius,
                      double hw, const struct ink *in)
{
    unsigned char *p = pixel(r, i0, j);
    for (int i = i0; i <= i1; i++, p += 4) {
        double dx = i - cx;
        plot(p, in, opacity_raw(band(fabs(sqrt(dx * dx + dy2) - radius), hw), in));
    }
}

void raster_ring(struct raster *r, double cx, double cy, double radius, double width,
                 struct raster_color c)
{
    double hw = 0.5 * width;
    if (c.a == 0 || !(radius > 0) || !(hw > 0) || !finite4(cx, cy, radius, hw))
        return;
    double ro = radius + hw + 0.5, rh = radius - hw - 0.5;
    struct ink in = ink_of(c);
    int j0, j1;
    if (!pixel_range(cy - ro, cy + ro, r->height, &j0, &j1))
        return;
    for (int j = j0; j <= j1; j++) {
        double dy2;
        int i0, i1, h0, h1;
        if (!disc_row(r, cx, cy, ro, j, &dy2, &i0, &i1))
            continue;
        /* the hole: centres within rh of the middle get no coverage */
        double hole2 = rh > 0 ? rh * rh - dy2 : -1;
        if (hole2 > 0 && pixel_range(cx - sqrt(hole2), cx + sqrt(hole2), r->width, &h0, &h1)) {
            ring_span(r, j, i0, h0 - 1, cx, dy2, radius, hw, &in);
            ring_span(r, j, h1 + 1, i1, cx, dy2, radius, hw, &in);
        } else {
            ring_span(r, j, i0, i1, cx, dy2, radius, hw, &in);
        }
    }
}

/* ---- convex polygons and triangles ---- */

struct edge {
    double nx, ny, c; /* unit outward normal and offset: d(p) = n.p - c, > 0 outside */
    int owns;         /* the hard-edge rule gives this edge the pixels exactly on it */
};

/* Edges of the convex polygon xy[0..n-1] with outward normals whatever the winding, and its
 * bounding box; 0 if the area is zero or not finite. Each edge is computed from its
 * lexicographically smaller end, so two shapes sharing an edge get exactly opposite
 * distances and the top-left rule hands every pixel on it to exactly one of them. */
static int convex_edges(const double *xy, int n, struct edge *e, double box[4])
{
    double area2 = 0;
    box[0] = box[2] = xy[0];
    box[1] = box[3] = xy[1];
    for (int i = 0; i < n; i++) {
        const double *a = xy + 2 * i, *b = xy + 2 * ((i + 1) % n);
        area2 += a[0] * b[1] - b[0] * a[1];
        box[0] = fmin(box[0], a[0]);
        box[1] = fmin(box[1], a[1]);
        box[2] = fmax(box[2], a[0]);
        box[3] = fmax(box[3], a[1]);
    }
    if (!(fabs(area2) > 1e-12) || !isfinite(area2))
        return 0;
    for (int i = 0; i < n; i++) {
        const double *a = xy + 2 * i, *b = xy + 2 * ((i + 1) % n);
        int swap = b[0] < a[0] || (b[0] == a[0] && b[1] < a[1]);
        if (swap) {
            const double *t = a;
            a = b;
            b = t;
        }
        double ex = b[0] - a[0], ey = b[1] - a[1], len = sqrt(ex * ex + ey * ey);
        if (len == 0) {
            /* a repeated vertex: an edge that excludes nothing */
            e[i] = (struct edge){0, 0, HUGE_VAL, 0};
            continue;
        }
        /* (ey, -ex) points out of a polygon with positive area2 traversed a -> b */
        double s = (area2 > 0) != swap ? 1 : -1, nx = ey / len, ny = -ex / len;
        double off = nx * a[0] + ny * a[1];
        e[i].nx = s * nx;
        e[i].ny = s * ny;
        e[i].c = s * off;
        e[i].owns = e[i].nx < 0 || (e[i].nx == 0 && e[i].ny < 0);
    }
    return 1;
}

/* Per-vertex colours of a triangle: vertex v's weight is the distance to the opposite edge
 * (v+1) over that distance at v. NULL shade means flat colour. */
struct shade {
    const struct raster_color *c;
    double inv_h[3];
};

static struct raster_color shade_at(const struct shade *sh, const double d[3])
{
    double w[3], v[4] = {0, 0, 0, 0};
    for (int k = 0; k < 3; k++)
        w[k] = d[(k + 1) % 3] * sh->inv_h[k];
    for (int k = 0; k < 3; k++) {
        v[0] += w[k] * sh->c[k].r;
        v[1] += w[k] * sh->c[k].g;
        v[2] += w[k] * sh->c[k].b;
        v[3] += w[k] * sh->c[k].a;
    }
    unsigned char q[4];
    for (int k = 0; k < 4; k++)
        q[k] = (unsigned char)(v[k] <= 0 ? 0 : v[k] >= 255 ? 255 : v[k] + 0.5);
    return (struct raster_color){q[0], q[1], q[2], q[3]};
}

static void fill_convex(struct raster *r, const struct edge *e, int n, const double box[4],
                        struct raster_color flat, const struct shade *sh, int smooth)
{
    /* smooth: the support is where every edge distance is below 1/2, clipped to the box
     * grown by 1/2 so that sharp corners cannot spike out. Hard: the centres inside, with
     * spans widened a pixel against rounding in the bounds; the test per pixel is exact. */
    double lim = smooth ? 0.5 : 0, grow = smooth ? 0.5 : 0, pad = smooth ? 0 : 1;
    double inv[RASTER_POLYGON_MAX], base[RASTER_POLYGON_MAX];
    for (int k = 0; k < n; k++)
        inv[k] = e[k].nx != 0 ? 1 / e[k].nx : 0;
    struct ink in = ink_of(flat);
    int j0, j1;
    if (!pixel_range(box[1] - grow, box[3] + grow, r->height, &j0, &j1))
        return;
    for (int j = j0; j <= j1; j++) {
        double lo = -HUGE_VAL, hi = HUGE_VAL;
        for (int k = 0; k < n; k++) {
            base[k] = e[k].ny * j - e[k].c;
            slab(e[k].nx, inv[k], base[k], -HUGE_VAL, lim, &lo, &hi);
        }
        int i0, i1;
        if (!pixel_range(max2(lo - pad, box[0] - grow), min2(hi + pad, box[2] + grow), r->width,
                         &i0, &i1))
            continue;
        unsigned char *p = pixel(r, i0, j);
        for (int i = i0; i <= i1; i++, p += 4) {
            double cov = 1, d[RASTER_POLYGON_MAX];
            for (int k = 0; k < n && cov > 0; k++) {
                d[k] = e[k].nx * i + base[k];
                if (smooth)
                    cov *= coverage_clamp(0.5 - d[k]);
                else if (!(d[k] < 0 || (d[k] == 0 && e[k].owns)))
                    cov = 0;
            }
            if (cov <= 0)
                continue;
            if (sh) {
                struct ink at = ink_of(shade_at(sh, d));
                plot(p, &at, opacity(cov, &at));
            } else {
                plot(p, &in, opacity(cov, &in));
            }
        }
    }
}

void raster_polygon(struct raster *r, const double *xy, int n, struct raster_color c)
{
    struct edge e[RASTER_POLYGON_MAX];
    double box[4];
    if (c.a == 0 || n < 3 || n > RASTER_POLYGON_MAX || !convex_edges(xy, n, e, box))
        return;
    fill_convex(r, e, n, box, c, NULL, 1);
}

void raster_triangle(struct raster *r, const double xy[6], const struct raster_color c[3],
                     int smooth)
{
    struct edge e[3];
    double box[4];
    if (!convex_edges(xy, 3, e, box))
        return;
    struct shade sh = {c, {0, 0, 0}};
    for (int k = 0; k < 3; k++) {
        const struct edge *o = &e[(k + 1) % 3];
        sh.inv_h[k] = 1 / (o->nx * xy[2 * k] + o->ny * xy[2 * k + 1] - o->c);
    }
    /* three equal colours: the flat fill gives the same pixels without blending per pixel */
    const int flat = !memcmp(&c[0], &c[1], sizeof *c) && !memcmp(&c[1], &c[2], sizeof *c);
    fill_convex(r, e, 3, box, c[0], flat ? NULL : &sh, smooth);
}

void raster_halfplane(struct raster *r, double x, double y, double nx, double ny,
                      struct raster_color c)
{
    double len = sqrt(nx * nx + ny * ny);
    if (c.a == 0 || !(len > 0) || !finite4(x, y, len, 0))
        return;
    nx /= len;
    ny /= len;
    double off = nx * x + ny * y, inv = nx != 0 ? 1 / nx : 0;
    struct ink in = ink_of(c);
    for (int j = 0; j < r->height; j++) {
        double base = ny * j - off, lo = -HUGE_VAL, hi = HUGE_VAL;
        int i0, i1;
        slab(nx, inv, base, -HUGE_VAL, 0.5, &lo, &hi);
        if (!pixel_range(lo, hi, r->width, &i0, &i1))
            continue;
        unsigned char *p = pixel(r, i0, j);
        for (int i = i0; i <= i1; i++, p += 4)
            plot(p, &in, opacity_raw(min2(0.5 - (nx * i + base), 1), &in));
    }
}

/* ---- text ---- */

void raster_text_size(const char *s, int scale, int *w, int *h)
{
    int cols = 0, col = 0, lines = 1;
    for (; *s; s++) {
        if (*s == '\n') {
            lines++;
            col = 0;
        } else if (++col > cols) {
            cols = col;
        }
    }
    if (scale < 1)
        scale = 1;
    /* cols*ADVANCE - 1 columns of ink, lines*LINE - 1 rows, and a margin of 1 all round */
    *w = (cols * RASTER_FONT_ADVANCE + 1) * scale;
    *h = (lines * RASTER_FONT_LINE + 1) * scale;
}

void raster_text(struct raster *r, int x, int y, const char *s, int scale, struct raster_color ink,
                 struct raster_color box)
{
    if (scale < 1)
        scale = 1;
    if (box.a > 0) {
        int w, h;
        raster_text_size(s, scale, &w, &h);
        raster_fill_rect(r, x, y, w, h, box);
    }
    int ox = x + scale, oy = y + scale, col = 0, line = 0;
    for (; *s; s++) {
        if (*s == '\n') {
            line++;
            col = 0;
            continue;
        }
        const unsigned char *g = raster_font_glyph((unsigned char)*s);
        int gx = ox + col * RASTER_FONT_ADVANCE * scale, gy = oy + line * RASTER_FONT_LINE * scale;
        for (int row = 0; row < RASTER_FONT_ROWS; row++)
            for (int bit = 0; bit < 5; bit++)
                if (g[row] & (0x10 >> bit))
                    raster_fill_rect(r, gx + bit * scale, gy + row * scale, scale, scale, ink);
        col++;
    }
}
