/* Small inline 3-vector helpers (Chipmunk-style). 2D scenarios use z = 0 throughout,
 * so every module handles one representation. */
#ifndef CATENA_VEC_H
#define CATENA_VEC_H

#include <float.h>
#include <math.h>

typedef struct vec3 {
    double x, y, z;
} vec3;

static inline vec3 v3(double x, double y, double z)
{
    return (vec3){x, y, z};
}
static inline vec3 v3_add(vec3 a, vec3 b)
{
    return (vec3){a.x + b.x, a.y + b.y, a.z + b.z};
}
static inline vec3 v3_sub(vec3 a, vec3 b)
{
    return (vec3){a.x - b.x, a.y - b.y, a.z - b.z};
}
static inline vec3 v3_scale(vec3 a, double s)
{
    return (vec3){a.x * s, a.y * s, a.z * s};
}
static inline double v3_dot(vec3 a, vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline vec3 v3_cross(vec3 a, vec3 b)
{
    return (vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline double v3_len(vec3 a)
{
    return sqrt(v3_dot(a, a));
}
static inline double v3_dist(vec3 a, vec3 b)
{
    return v3_len(v3_sub(a, b));
}
/* Component k of a: 0 is x, 1 is y, anything else z. */
static inline double v3_comp(vec3 a, int k)
{
    return k == 0 ? a.x : k == 1 ? a.y : a.z;
}
static inline int v3_isfinite(vec3 a)
{
    return isfinite(a.x) && isfinite(a.y) && isfinite(a.z);
}
/* a at unit length, for directions read from files (a normal, an axis): a * (1/|a|) when
 * |a|^2 is a normal number, else a divided by its largest component first, so that
 * [1e200, 1e200] and [1e-200, 1e-200] keep their direction instead of overflowing to 0
 * or underflowing to "zero". 0, or -1 when a is zero or not finite (*out untouched). */
static inline int v3_unit(vec3 a, vec3 *out)
{
    const double aa = v3_dot(a, a);
    if (isfinite(aa) && aa >= DBL_MIN) {
        *out = v3_scale(a, 1.0 / sqrt(aa));
        return 0;
    }
    const double big = fmax(fmax(fabs(a.x), fabs(a.y)), fabs(a.z));
    if (!(big > 0.0) || !isfinite(big) || !v3_isfinite(a))
        return -1;
    const vec3 s = v3(a.x / big, a.y / big, a.z / big); /* largest component +-1: no overflow */
    *out = v3_scale(s, 1.0 / v3_len(s));
    return 0;
}

#endif
