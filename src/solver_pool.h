/* A fixed team of threads for the solver (solver.threads): started with the state, they wait
 * between jobs and run one function together when asked, with barriers between phases. The
 * caller's thread is member 0, so a team of n has n - 1 helper threads. Waiting spins briefly
 * (the phases of a step are short) and then sleeps, so an idle or overloaded machine does not
 * lose a core to spinning. Nothing here allocates after pool_create. */
#ifndef CATENA_SOLVER_POOL_H
#define CATENA_SOLVER_POOL_H

struct solver_pool;

/* A job: run by every member, `member` in 0..members-1. */
typedef void (*pool_job)(void *ctx, int member, int members);

/* A team of n >= 2 members (n - 1 threads started). NULL when the threads cannot be made. */
struct solver_pool *pool_create(int n);

/* Stops and joins the threads; NULL is a no-op. */
void pool_destroy(struct solver_pool *p);

/* Runs job(ctx, i, n) on every member i, the caller being member 0, and returns when all
 * have finished: what they wrote is then visible to the caller. */
void pool_run(struct solver_pool *p, pool_job job, void *ctx);

/* Inside a job: returns once every member has called it, and each member then sees what the
 * others wrote before it. */
void pool_barrier(struct solver_pool *p);

#endif
