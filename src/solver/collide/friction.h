/* Coulomb friction in position form (Macklin et al. 2014, "Unified particle physics", eq. 24):
 * what a contact removes of a tangential displacement dt, given the normal displacement dn
 * the contact removed over the same interval (forces times h^2 / m: dt stands for F_t, dn for
 * F_n). It sticks, removing all of dt, while |dt| <= mu_s dn; else it slides, removing
 * mu_k dn along dt. Shared by the obstacle contacts (collide.c: dt and dn over the substep)
 * and self-collision (selfcollide.c: the pair's relative dt, dn of the pass). */
#ifndef CATENA_COLLIDE_FRICTION_H
#define CATENA_COLLIDE_FRICTION_H

#include "model/obstacle.h"

static inline vec3 friction_removed(const struct friction *f, vec3 dt, double dn)
{
    const double len = v3_len(dt);
    if (len <= f->stat * dn)
        return dt;
    return v3_scale(dt, f->dyn * dn / len); /* mu_k dn <= mu_s dn < len: a part of dt */
}

#endif
