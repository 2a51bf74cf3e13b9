/* Pin motions as closed-form functions of time, so that a substep's start and end positions
 * (and the velocity between them) never depend on how the run got there. */
#include "model/pin_motion.h"

#include <math.h>

#define TWO_PI 6.283185307179586476925286766559

const char *const pin_motion_names[] = {"none", "linear", "sine", "keyframes", NULL};

/* Piecewise linear through (t0, at) and the pin's keys; before t0 and after the last key
 * the pin holds the end position. Binary search: a long path costs log(keys) a substep. */
static vec3 keyframes_at(const struct model *m, const struct pin *p, double t)
{
    const double *kt = m->key_t + p->first_key;
    const vec3 *kx = m->key_x + p->first_key;
    const uint32_t n = p->nkeys;
    if (n == 0 || t <= p->t0)
        return p->at;
    if (t >= kt[n - 1])
        return kx[n - 1];
    /* The first key later than t: keys are strictly increasing in time. */
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (kt[mid] > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    const double ta = lo == 0 ? p->t0 : kt[lo - 1];
    const vec3 xa = lo == 0 ? p->at : kx[lo - 1];
    if (kt[lo] <= ta)
        return kx[lo];
    const double f = (t - ta) / (kt[lo] - ta);
    return v3_add(xa, v3_scale(v3_sub(kx[lo], xa), f));
}

vec3 pin_motion_at(const struct model *m, const struct pin *p, double t)
{
    switch ((enum pin_motion_type)p->motion) {
    case MOTION_NONE:
        return p->at;
    case MOTION_LINEAR:
        return v3_add(p->at, v3_scale(p->velocity, t - p->t0));
    case MOTION_SINE: {
        const double w = TWO_PI * p->frequency;
        return v3_add(p->at, v3_scale(p->axis, p->amplitude * sin(w * (t - p->t0) + p->phase)));
    }
    case MOTION_KEYFRAMES:
        return keyframes_at(m, p, t);
    }
    return p->at;
}
