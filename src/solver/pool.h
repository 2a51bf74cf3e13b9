/* A fixed team of threads for the solver (solver.threads), started with the state. A job is
 * a list of numbered chunks in groups: the chunks of a group may run in any order and at the
 * same time, and a group starts only when every chunk before it is done (one colour of links
 * after another). Each member has its share of every group and takes those chunks first, so
 * it keeps working on the same part of the data; then it takes what is left of the others',
 * so a member that the system does not schedule for a while holds up at most the chunk it has
 * taken. The caller's thread is a member too and returns when all chunks are done. Waiting
 * spins briefly, then yields, then sleeps. Nothing here allocates after pool_create. */
#ifndef CATENA_SOLVER_POOL_H
#define CATENA_SOLVER_POOL_H

#include <stddef.h>

struct solver_pool;

/* Runs chunk k of the job. */
typedef void (*pool_chunk)(void *ctx, size_t k);

/* A team of n >= 2 members (n - 1 threads started) for jobs of at most max_groups groups.
 * NULL when the threads cannot be made. */
struct solver_pool *pool_create(int n, size_t max_groups);

/* Stops and joins the threads; NULL is a no-op. */
void pool_destroy(struct solver_pool *p);

/* Runs chunks 0..nchunks-1 of a job whose groups start at chunks group_start[0..ngroups)
 * (group_start[0] = 0, increasing; ngroups <= max_groups), and returns when every chunk is
 * done: what they wrote is then visible to the caller. A NULL p runs them in order on the
 * caller's thread. */
void pool_run(struct solver_pool *p, size_t nchunks, const size_t *group_start, size_t ngroups,
              pool_chunk run, void *ctx);

#endif
