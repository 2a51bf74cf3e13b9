/* The batched link kernel four links at a time with AVX, for a batch of links that share no
 * point (one colour of the colored order). Each lane does what project_stiff or project_xpbd
 * in solver_batch.c does, operation for operation: IEEE arithmetic gives the same bits in a
 * vector lane as in a scalar register (no fused multiply-add is used), so the result does not
 * depend on whether the processor has AVX. Positions are loaded four points at a time and
 * turned into one vector per coordinate. Every lane is written back: x_a + u is computed as
 * x_a - (-u), which is the same number, and a lane that must not move (a slack tether,
 * coincident ends, an end of inverse mass 0) subtracts +0 instead, which leaves any value as
 * it is, -0 included; within one colour no two lanes share a point. Built only for x86 with
 * GCC or Clang; the caller asks batch_avx_usable() at run time. */
#include "solver_batch.h"

#if CATENA_BATCH_AVX
#include <immintrin.h>

#define AVX __attribute__((target("avx")))
#define AVX_INLINE __attribute__((target("avx"), always_inline))

int batch_avx_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") != 0;
}

/* The (x, y) pairs of points p[0..3], as one vector of x and one of y. */
static inline AVX_INLINE void load_xy(const vec3 *x, const uint32_t p[4], __m256d *vx, __m256d *vy)
{
    const __m256d p02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&x[p[0]].x)),
                                             _mm_loadu_pd(&x[p[2]].x), 1);
    const __m256d p13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&x[p[1]].x)),
                                             _mm_loadu_pd(&x[p[3]].x), 1);
    *vx = _mm256_unpacklo_pd(p02, p13);
    *vy = _mm256_unpackhi_pd(p02, p13);
}

static inline AVX_INLINE void store_xy(vec3 *x, const uint32_t p[4], __m256d vx, __m256d vy)
{
    const __m256d p02 = _mm256_unpacklo_pd(vx, vy), p13 = _mm256_unpackhi_pd(vx, vy);
    _mm_storeu_pd(&x[p[0]].x, _mm256_castpd256_pd128(p02));
    _mm_storeu_pd(&x[p[1]].x, _mm256_castpd256_pd128(p13));
    _mm_storeu_pd(&x[p[2]].x, _mm256_extractf128_pd(p02, 1));
    _mm_storeu_pd(&x[p[3]].x, _mm256_extractf128_pd(p13, 1));
}

static inline AVX_INLINE __m256d load_z(const vec3 *x, const uint32_t p[4])
{
    return _mm256_set_pd(x[p[3]].z, x[p[2]].z, x[p[1]].z, x[p[0]].z);
}

static inline AVX_INLINE void store_z(vec3 *x, const uint32_t p[4], __m256d vz)
{
    const __m128d lo = _mm256_castpd256_pd128(vz), hi = _mm256_extractf128_pd(vz, 1);
    _mm_store_sd(&x[p[0]].z, lo);
    _mm_storeh_pd(&x[p[1]].z, lo);
    _mm_store_sd(&x[p[2]].z, hi);
    _mm_storeh_pd(&x[p[3]].z, hi);
}

static inline AVX_INLINE __m256d gather(const double *v, const uint32_t p[4])
{
    return _mm256_set_pd(v[p[3]], v[p[2]], v[p[1]], v[p[0]]);
}

/* Links j..j+3 of the batch; xpbd and dims are constants in each caller below. */
static inline AVX_INLINE void project4(struct solver_batch *b, const double *inv_mass, vec3 *x,
                                       size_t j, int xpbd, int dims)
{
    const __m256d zero = _mm256_setzero_pd(), sign = _mm256_set1_pd(-0.0);
    const struct batch_ends *e = &b->ends[j];
    const uint32_t pa[4] = {e[0].a, e[1].a, e[2].a, e[3].a};
    const uint32_t pb[4] = {e[0].b & ~BATCH_TETHER, e[1].b & ~BATCH_TETHER, e[2].b & ~BATCH_TETHER,
                            e[3].b & ~BATCH_TETHER};
    const int tether = (int)(((e[0].b | e[1].b | e[2].b | e[3].b) & BATCH_TETHER) >> 31);
    __m256d xa, ya, xb, yb, za = zero, zb = zero, dz = zero;
    load_xy(x, pa, &xa, &ya);
    load_xy(x, pb, &xb, &yb);
    const __m256d dx = _mm256_sub_pd(xb, xa), dy = _mm256_sub_pd(yb, ya);
    __m256d dot = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
    if (dims == 3) {
        za = load_z(x, pa);
        zb = load_z(x, pb);
        dz = _mm256_sub_pd(zb, za);
        dot = _mm256_add_pd(dot, _mm256_mul_pd(dz, dz));
    }
    const __m256d len = _mm256_sqrt_pd(dot);
    const __m256d rest = _mm256_loadu_pd(&b->rest[j]);
    const __m256d wa = gather(inv_mass, pa), wb = gather(inv_mass, pb);
    const __m256d c = _mm256_sub_pd(len, rest);
    /* Both ends held (the contact phase): the lane's multiplier must not take an infinity. */
    __m256d skip = _mm256_or_pd(_mm256_cmp_pd(len, zero, _CMP_EQ_OQ),
                                _mm256_cmp_pd(_mm256_add_pd(wa, wb), zero, _CMP_EQ_OQ));
    if (tether) { /* rare: find which lanes are tethers */
        const __m256d slack = _mm256_cmp_pd(len, rest, _CMP_LE_OQ);
        const __m256d lanes = _mm256_castsi256_pd(
            _mm256_set_epi64x(e[3].b & BATCH_TETHER ? -1 : 0, e[2].b & BATCH_TETHER ? -1 : 0,
                              e[1].b & BATCH_TETHER ? -1 : 0, e[0].b & BATCH_TETHER ? -1 : 0));
        skip = _mm256_or_pd(skip, _mm256_and_pd(slack, lanes));
    }
    __m256d neg_r; /* -r: the factor of d in the correction */
    if (xpbd) {
        const __m256d at = _mm256_loadu_pd(&b->param[j]);
        const __m256d lambda = _mm256_loadu_pd(&b->lambda[j]);
        const __m256d dl =
            _mm256_div_pd(_mm256_sub_pd(_mm256_xor_pd(c, sign), _mm256_mul_pd(at, lambda)),
                          _mm256_add_pd(_mm256_add_pd(wa, wb), at));
        _mm256_storeu_pd(&b->lambda[j],
                         _mm256_sub_pd(lambda, _mm256_andnot_pd(skip, _mm256_xor_pd(dl, sign))));
        neg_r = _mm256_xor_pd(_mm256_div_pd(dl, len), sign);
    } else {
        const __m256d k = _mm256_loadu_pd(&b->param[j]);
        const __m256d r = _mm256_xor_pd(
            _mm256_div_pd(_mm256_mul_pd(k, c), _mm256_mul_pd(_mm256_add_pd(wa, wb), len)), sign);
        neg_r = _mm256_xor_pd(r, sign);
    }
    /* What each end loses, -(corr w_a) at a and corr w_b at b, masked to +0 (after the
     * product: a skipped lane's correction may be infinite) in the lanes that stay. */
    const __m256d keep_a = _mm256_or_pd(skip, _mm256_cmp_pd(wa, zero, _CMP_EQ_OQ));
    const __m256d keep_b = _mm256_or_pd(skip, _mm256_cmp_pd(wb, zero, _CMP_EQ_OQ));
    const __m256d nwa = _mm256_xor_pd(wa, sign);
    const __m256d cx = _mm256_mul_pd(dx, neg_r), cy = _mm256_mul_pd(dy, neg_r);
    store_xy(x, pa, _mm256_sub_pd(xa, _mm256_andnot_pd(keep_a, _mm256_mul_pd(cx, nwa))),
             _mm256_sub_pd(ya, _mm256_andnot_pd(keep_a, _mm256_mul_pd(cy, nwa))));
    store_xy(x, pb, _mm256_sub_pd(xb, _mm256_andnot_pd(keep_b, _mm256_mul_pd(cx, wb))),
             _mm256_sub_pd(yb, _mm256_andnot_pd(keep_b, _mm256_mul_pd(cy, wb))));
    if (dims == 3) {
        const __m256d cz = _mm256_mul_pd(dz, neg_r);
        store_z(x, pa, _mm256_sub_pd(za, _mm256_andnot_pd(keep_a, _mm256_mul_pd(cz, nwa))));
        store_z(x, pb, _mm256_sub_pd(zb, _mm256_andnot_pd(keep_b, _mm256_mul_pd(cz, wb))));
    }
}

#define BATCH_AVX_KERNEL(name, xpbd, dims)                                                         \
    AVX size_t name(struct solver_batch *b, const double *inv_mass, vec3 *x, size_t begin,         \
                    size_t end)                                                                    \
    {                                                                                              \
        size_t j = begin;                                                                          \
        for (; j + 4 <= end; j += 4)                                                               \
            project4(b, inv_mass, x, j, xpbd, dims);                                               \
        return j;                                                                                  \
    }

BATCH_AVX_KERNEL(batch_avx_stiff2, 0, 2)
BATCH_AVX_KERNEL(batch_avx_stiff3, 0, 3)
BATCH_AVX_KERNEL(batch_avx_xpbd2, 1, 2)
BATCH_AVX_KERNEL(batch_avx_xpbd3, 1, 3)

#endif
