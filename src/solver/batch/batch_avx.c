/* The batched link kernel four links at a time with AVX2, over one run of one colour (links
 * that share no point) and the positions held as one array per coordinate. Each lane does what
 * project_stiff or project_xpbd in solver/batch/batch.c does, operation for operation: IEEE
 * arithmetic gives the same bits in a vector lane as in a scalar register (no fused
 * multiply-add is used), so the result does not depend on whether the processor has AVX2.
 * Every lane is written back: x_a + u is computed as x_a - (-u), which is the same number, and
 * a lane that must not move (a slack tether, coincident ends, an end of inverse mass 0)
 * subtracts +0 instead, which leaves any value as it is, -0 included. The runs' patterns let
 * whole vectors carry the points: a + k loads four a-ends at once (a chain's colours, a
 * cloth's columns and diagonals, with the points in the lanes' order, batch_soa_index), pairs
 * (a + 2k, a + 2k + 1) two links per vector, even runs (a + 2k) two points per masked load;
 * pairs and even runs have their lanes in the order 0, 2, 1, 3 (batch_gather stores their
 * links' values in that order).
 * Listed links are gathered one point at a time. Built only for x86 with GCC or Clang; the caller
 * asks batch_avx_usable() at run time. */
#include "solver/batch/batch.h"

#if CATENA_BATCH_AVX
#include <immintrin.h>
#include <math.h>

#define AVX __attribute__((target("avx2")))
#define AVX_INLINE __attribute__((target("avx2"), always_inline))

int batch_avx_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}

/* tests/bench_kernel_probe.c compiles this file again with CATENA_KERNEL_PROBE, to time the
 * loops without their square roots and divisions (wrong positions: timing only). */
#ifdef CATENA_KERNEL_PROBE
#define SQRT4(x) _mm256_add_pd(x, x)
#define DIV4(x, y) _mm256_mul_pd(x, y)
#else
#define SQRT4(x) _mm256_sqrt_pd(x)
#define DIV4(x, y) _mm256_div_pd(x, y)
#endif

/* Four links' ends, one vector per coordinate and inverse mass, with their per-link values. */
struct lanes {
    __m256d xa, ya, za, xb, yb, zb, wa, wb;
    __m256d rest, param, lambda;
    __m256d tether; /* all ones in the lanes that are tethers */
};

/* The arrays a kernel reads and writes, copied out of the batch once per run so that the
 * compiler keeps them in registers (stores through them could otherwise change the batch's
 * own fields, which it would then read again for every four links). */
struct soa {
    double *px, *py, *pz;
    const double *w; /* inverse masses */
    const double *rest, *param;
    double *lambda;
};

/* The projection of four links; xpbd, dims, tethers and held are constants in each caller.
 * held (xpbd, the contact phase): lanes whose ends both have inverse mass 0 leave their
 * multipliers alone, as project_xpbd returns before them. New positions go back into l, the
 * new multipliers into l->lambda. */
static inline AVX_INLINE void solve(struct lanes *l, int xpbd, int dims, int tethers, int held)
{
    const __m256d zero = _mm256_setzero_pd(), sign = _mm256_set1_pd(-0.0);
    const __m256d dx = _mm256_sub_pd(l->xb, l->xa), dy = _mm256_sub_pd(l->yb, l->ya);
    __m256d dot = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
    __m256d dz = zero;
    if (dims == 3) {
        dz = _mm256_sub_pd(l->zb, l->za);
        dot = _mm256_add_pd(dot, _mm256_mul_pd(dz, dz));
    }
    const __m256d len = SQRT4(dot);
    const __m256d c = _mm256_sub_pd(len, l->rest);
    __m256d skip = _mm256_cmp_pd(len, zero, _CMP_EQ_OQ);
    if (tethers)
        skip =
            _mm256_or_pd(skip, _mm256_and_pd(_mm256_cmp_pd(len, l->rest, _CMP_LE_OQ), l->tether));
    if (xpbd && held)
        skip = _mm256_or_pd(skip, _mm256_cmp_pd(_mm256_add_pd(l->wa, l->wb), zero, _CMP_EQ_OQ));
    __m256d neg_r; /* -r: the factor of d in the correction */
    if (xpbd) {
        const __m256d at = l->param;
        const __m256d dl = DIV4(_mm256_sub_pd(_mm256_xor_pd(c, sign), _mm256_mul_pd(at, l->lambda)),
                                _mm256_add_pd(_mm256_add_pd(l->wa, l->wb), at));
        l->lambda = _mm256_sub_pd(l->lambda, _mm256_andnot_pd(skip, _mm256_xor_pd(dl, sign)));
        neg_r = _mm256_xor_pd(DIV4(dl, len), sign);
    } else {
        const __m256d r = _mm256_xor_pd(
            DIV4(_mm256_mul_pd(l->param, c), _mm256_mul_pd(_mm256_add_pd(l->wa, l->wb), len)),
            sign);
        neg_r = _mm256_xor_pd(r, sign);
    }
    /* What each end loses, -(corr w_a) at a and corr w_b at b, masked to +0 (after the
     * product: a skipped lane's correction may be infinite) in the lanes that stay. */
    const __m256d keep_a = _mm256_or_pd(skip, _mm256_cmp_pd(l->wa, zero, _CMP_EQ_OQ));
    const __m256d keep_b = _mm256_or_pd(skip, _mm256_cmp_pd(l->wb, zero, _CMP_EQ_OQ));
    const __m256d nwa = _mm256_xor_pd(l->wa, sign);
    const __m256d cx = _mm256_mul_pd(dx, neg_r), cy = _mm256_mul_pd(dy, neg_r);
    l->xa = _mm256_sub_pd(l->xa, _mm256_andnot_pd(keep_a, _mm256_mul_pd(cx, nwa)));
    l->ya = _mm256_sub_pd(l->ya, _mm256_andnot_pd(keep_a, _mm256_mul_pd(cy, nwa)));
    l->xb = _mm256_sub_pd(l->xb, _mm256_andnot_pd(keep_b, _mm256_mul_pd(cx, l->wb)));
    l->yb = _mm256_sub_pd(l->yb, _mm256_andnot_pd(keep_b, _mm256_mul_pd(cy, l->wb)));
    if (dims == 3) {
        const __m256d cz = _mm256_mul_pd(dz, neg_r);
        l->za = _mm256_sub_pd(l->za, _mm256_andnot_pd(keep_a, _mm256_mul_pd(cz, nwa)));
        l->zb = _mm256_sub_pd(l->zb, _mm256_andnot_pd(keep_b, _mm256_mul_pd(cz, l->wb)));
    }
}

/* Links a + k, a + k + off for k in [0, 4), gathered from j on. */
static inline AVX_INLINE void stride4(const struct soa *b, size_t a, int64_t off, size_t j,
                                      int xpbd, int dims, int held)
{
    const size_t bi = (size_t)((int64_t)a + off);
    const double *w = b->w;
    struct lanes l;
    l.xa = _mm256_loadu_pd(b->px + a);
    l.ya = _mm256_loadu_pd(b->py + a);
    l.xb = _mm256_loadu_pd(b->px + bi);
    l.yb = _mm256_loadu_pd(b->py + bi);
    if (dims == 3) {
        l.za = _mm256_loadu_pd(b->pz + a);
        l.zb = _mm256_loadu_pd(b->pz + bi);
    }
    l.wa = _mm256_loadu_pd(w + a);
    l.wb = _mm256_loadu_pd(w + bi);
    l.rest = _mm256_loadu_pd(b->rest + j);
    l.param = _mm256_loadu_pd(b->param + j);
    if (xpbd)
        l.lambda = _mm256_loadu_pd(b->lambda + j);
    solve(&l, xpbd, dims, 0, held);
    if (xpbd)
        _mm256_storeu_pd(b->lambda + j, l.lambda);
    _mm256_storeu_pd(b->px + a, l.xa);
    _mm256_storeu_pd(b->py + a, l.ya);
    _mm256_storeu_pd(b->px + bi, l.xb);
    _mm256_storeu_pd(b->py + bi, l.yb);
    if (dims == 3) {
        _mm256_storeu_pd(b->pz + a, l.za);
        _mm256_storeu_pd(b->pz + bi, l.zb);
    }
}

/* Points p..p+7 hold the ends of four pairs links: a-ends in lanes 0, 2, 1, 3 of *va, their
 * b-ends likewise in *vb. */
static inline AVX_INLINE void load_pairs(const double *v, size_t p, __m256d *va, __m256d *vb)
{
    const __m256d lo = _mm256_loadu_pd(v + p), hi = _mm256_loadu_pd(v + p + 4);
    *va = _mm256_unpacklo_pd(lo, hi);
    *vb = _mm256_unpackhi_pd(lo, hi);
}

static inline AVX_INLINE void store_pairs(double *v, size_t p, __m256d va, __m256d vb)
{
    _mm256_storeu_pd(v + p, _mm256_unpacklo_pd(va, vb));
    _mm256_storeu_pd(v + p + 4, _mm256_unpackhi_pd(va, vb));
}

/* Four pairs links whose ends lie in points p..p+7 (links p + 2k, p + 2k + 1), gathered from
 * j on (their values in lanes 0, 2, 1, 3). */
static inline AVX_INLINE void pairs4(const struct soa *b, size_t p, size_t j, int xpbd, int dims,
                                     int held)
{
    struct lanes l;
    load_pairs(b->px, p, &l.xa, &l.xb);
    load_pairs(b->py, p, &l.ya, &l.yb);
    if (dims == 3)
        load_pairs(b->pz, p, &l.za, &l.zb);
    load_pairs(b->w, p, &l.wa, &l.wb);
    l.rest = _mm256_loadu_pd(b->rest + j);
    l.param = _mm256_loadu_pd(b->param + j);
    if (xpbd)
        l.lambda = _mm256_loadu_pd(b->lambda + j);
    solve(&l, xpbd, dims, 0, held);
    if (xpbd)
        _mm256_storeu_pd(b->lambda + j, l.lambda);
    store_pairs(b->px, p, l.xa, l.xb);
    store_pairs(b->py, p, l.ya, l.yb);
    if (dims == 3)
        store_pairs(b->pz, p, l.za, l.zb);
}

/* Points p, p + 2, p + 4, p + 6 in lanes 0, 2, 1, 3; the masked loads do not read the points
 * between (another member may be moving them). */
static inline AVX_INLINE __m256d load_even(const double *v, size_t p)
{
    const __m256i mask = _mm256_set_epi64x(0, -1, 0, -1);
    return _mm256_unpacklo_pd(_mm256_maskload_pd(v + p, mask), _mm256_maskload_pd(v + p + 4, mask));
}

static inline AVX_INLINE void store_even(double *v, size_t p, __m256d x)
{
    const __m128d lo = _mm256_castpd256_pd128(x), hi = _mm256_extractf128_pd(x, 1);
    _mm_store_sd(v + p, lo);
    _mm_storeh_pd(v + p + 4, lo);
    _mm_store_sd(v + p + 2, hi);
    _mm_storeh_pd(v + p + 6, hi);
}

/* Links a + 2k, a + 2k + off for k in [0, 4), gathered from j on. */
static inline AVX_INLINE void even4(const struct soa *b, size_t a, int64_t off, size_t j, int xpbd,
                                    int dims, int held)
{
    const size_t bi = (size_t)((int64_t)a + off);
    const double *w = b->w;
    struct lanes l;
    l.xa = load_even(b->px, a);
    l.ya = load_even(b->py, a);
    l.xb = load_even(b->px, bi);
    l.yb = load_even(b->py, bi);
    if (dims == 3) {
        l.za = load_even(b->pz, a);
        l.zb = load_even(b->pz, bi);
    }
    l.wa = load_even(w, a);
    l.wb = load_even(w, bi);
    l.rest = _mm256_loadu_pd(b->rest + j);
    l.param = _mm256_loadu_pd(b->param + j);
    if (xpbd)
        l.lambda = _mm256_loadu_pd(b->lambda + j);
    solve(&l, xpbd, dims, 0, held);
    if (xpbd)
        _mm256_storeu_pd(b->lambda + j, l.lambda);
    store_even(b->px, a, l.xa);
    store_even(b->py, a, l.ya);
    store_even(b->px, bi, l.xb);
    store_even(b->py, bi, l.yb);
    if (dims == 3) {
        store_even(b->pz, a, l.za);
        store_even(b->pz, bi, l.zb);
    }
}

static inline AVX_INLINE __m256d gather(const double *v, const uint32_t p[4])
{
    return _mm256_set_pd(v[p[3]], v[p[2]], v[p[1]], v[p[0]]);
}

static inline AVX_INLINE void scatter(double *v, const uint32_t p[4], __m256d x)
{
    const __m128d lo = _mm256_castpd256_pd128(x), hi = _mm256_extractf128_pd(x, 1);
    _mm_store_sd(v + p[0], lo);
    _mm_storeh_pd(v + p[1], lo);
    _mm_store_sd(v + p[2], hi);
    _mm_storeh_pd(v + p[3], hi);
}

/* Gathered links j..j+3, from their listed ends e[0..3]. */
static inline AVX_INLINE void listed4(const struct soa *b, const struct batch_ends *e, size_t j,
                                      int xpbd, int dims, int held)
{
    const double *w = b->w;
    const uint32_t pa[4] = {e[0].a, e[1].a, e[2].a, e[3].a};
    const uint32_t pb[4] = {e[0].b & ~BATCH_TETHER, e[1].b & ~BATCH_TETHER, e[2].b & ~BATCH_TETHER,
                            e[3].b & ~BATCH_TETHER};
    const int tethers = ((e[0].b | e[1].b | e[2].b | e[3].b) & BATCH_TETHER) != 0;
    struct lanes l;
    l.xa = gather(b->px, pa);
    l.ya = gather(b->py, pa);
    l.xb = gather(b->px, pb);
    l.yb = gather(b->py, pb);
    if (dims == 3) {
        l.za = gather(b->pz, pa);
        l.zb = gather(b->pz, pb);
    }
    l.wa = gather(w, pa);
    l.wb = gather(w, pb);
    l.rest = _mm256_loadu_pd(b->rest + j);
    l.param = _mm256_loadu_pd(b->param + j);
    if (xpbd)
        l.lambda = _mm256_loadu_pd(b->lambda + j);
    if (tethers) { /* rare: find which lanes are tethers */
        l.tether = _mm256_castsi256_pd(
            _mm256_set_epi64x(e[3].b & BATCH_TETHER ? -1 : 0, e[2].b & BATCH_TETHER ? -1 : 0,
                              e[1].b & BATCH_TETHER ? -1 : 0, e[0].b & BATCH_TETHER ? -1 : 0));
        solve(&l, xpbd, dims, 1, held);
    } else {
        solve(&l, xpbd, dims, 0, held);
    }
    if (xpbd)
        _mm256_storeu_pd(b->lambda + j, l.lambda);
    scatter(b->px, pa, l.xa);
    scatter(b->py, pa, l.ya);
    scatter(b->px, pb, l.xb);
    scatter(b->py, pb, l.yb);
    if (dims == 3) {
        scatter(b->pz, pa, l.za);
        scatter(b->pz, pb, l.zb);
    }
}

/* Link j of the run alone (the last few, fewer than four), as project_stiff or project_xpbd in
 * solver/batch/batch.c does it, with plain doubles: xpbd and dims are constants here, so none of the
 * simple kernel's choices is left to make at run time. */
static inline AVX_INLINE void project1(const struct soa *b, const struct batch_ends *e, size_t j,
                                       int xpbd, int dims, int held)
{
    const uint32_t a = e->a, bi = e->b & ~BATCH_TETHER;
    const double dx = b->px[bi] - b->px[a], dy = b->py[bi] - b->py[a];
    const double dz = dims == 3 ? b->pz[bi] - b->pz[a] : 0.0;
    const double len = sqrt(dx * dx + dy * dy + dz * dz);
    if (len == 0.0 || ((e->b & BATCH_TETHER) && len <= b->rest[j]))
        return;
    const double wa = b->w[a], wb = b->w[bi];
    if (xpbd && held && wa + wb == 0.0) /* both ends held, as in project_xpbd */
        return;
    double r;
    if (xpbd) {
        const double at = b->param[j];
        const double dl = (-(len - b->rest[j]) - at * b->lambda[j]) / ((wa + wb) + at);
        b->lambda[j] += dl;
        r = dl / len;
    } else {
        r = -(b->param[j] * (len - b->rest[j])) / ((wa + wb) * len);
    }
    const double cx = dx * -r, cy = dy * -r, cz = dz * -r;
    if (wa != 0.0) {
        b->px[a] += cx * wa;
        b->py[a] += cy * wa;
        if (dims == 3)
            b->pz[a] += cz * wa;
    }
    if (wb != 0.0) {
        b->px[bi] -= cx * wb;
        b->py[bi] -= cy * wb;
        if (dims == 3)
            b->pz[bi] -= cz * wb;
    }
}

#define BATCH_AVX_KERNEL(name, xpbd, dims, held)                                                   \
    AVX void name(struct solver_batch *b, const double *inv_mass, const struct batch_run *r)       \
    {                                                                                              \
        const struct soa c = {b->px, b->py, b->pz, inv_mass, b->rest, b->param, b->lambda};        \
        const size_t a = r->a, j = r->j, n = r->n;                                                 \
        const int64_t off = r->off;                                                                \
        size_t i = 0;                                                                              \
        if (r->kind == RUN_STRIDE)                                                                 \
            for (; i + 4 <= n; i += 4)                                                             \
                stride4(&c, a + i, off, j + i, xpbd, dims, held);                                  \
        else if (r->kind == RUN_PAIRS)                                                             \
            for (; i + 4 <= n; i += 4)                                                             \
                pairs4(&c, a + 2 * i, j + i, xpbd, dims, held);                                    \
        else if (r->kind == RUN_EVEN)                                                              \
            for (; i + 4 <= n; i += 4)                                                             \
                even4(&c, a + 2 * i, off, j + i, xpbd, dims, held);                                \
        else                                                                                       \
            for (; i + 4 <= n; i += 4)                                                             \
                listed4(&c, b->ends + j + i, j + i, xpbd, dims, held);                             \
        for (; i < n; i++)                                                                         \
            project1(&c, b->ends + j + i, j + i, xpbd, dims, held);                                \
    }

BATCH_AVX_KERNEL(batch_avx_stiff2, 0, 2, 0)
BATCH_AVX_KERNEL(batch_avx_stiff3, 0, 3, 0)
BATCH_AVX_KERNEL(batch_avx_xpbd2, 1, 2, 0)
BATCH_AVX_KERNEL(batch_avx_xpbd3, 1, 3, 0)
BATCH_AVX_KERNEL(batch_avx_xpbd2_held, 1, 2, 1)
BATCH_AVX_KERNEL(batch_avx_xpbd3_held, 1, 3, 1)

#endif
