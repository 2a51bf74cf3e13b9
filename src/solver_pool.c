/* The solver's thread team (solver_pool.h). Chunks are handed out by one atomic ticket that
 * carries the job's number in its high half, so a member that wakes late cannot take a
 * chunk of a job it has not read; a chunk counts as done in a second counter, which is what
 * groups wait on. Members sleep between jobs on an event, a generation counter that only
 * grows: the waiter remembers the generation it saw and waits for it to change, spinning
 * first; the signaller bumps it and wakes sleepers only when there are some. All atomics are
 * sequentially consistent, so a waiter that registers as a sleeper either sees the new
 * generation or is seen by the signaller (no lost wake-up), and a chunk's writes are visible
 * to whoever sees it counted as done. */
#define _POSIX_C_SOURCE 200809L
#include "solver_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* About 10 microseconds of spinning before yielding, and as many yields before sleeping:
 * long spins cost far more than they save when the machine has fewer free cores than the
 * team has members. */
#define POOL_SPINS 200
#define POOL_YIELDS 200

struct pool_event {
    atomic_uint gen;
    atomic_int sleepers;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

struct solver_pool {
    int n;                        /* members, the caller included */
    pthread_t *threads;           /* [n - 1] */
    struct pool_event start;      /* a job is posted (or quit) */
    struct pool_event finish;     /* the last chunk of a job is done */
    atomic_uint_least64_t ticket; /* job number << 32 | next chunk to hand out */
    atomic_size_t done;           /* chunks of the current job done */
    uint32_t job;                 /* the current job's number */
    atomic_size_t nchunks;        /* read by late members while the next job is set up */
    const size_t *group_start;
    size_t ngroups;
    pool_chunk run;
    void *ctx;
    int quit;
};

static void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

static int event_init(struct pool_event *e)
{
    atomic_init(&e->gen, 0);
    atomic_init(&e->sleepers, 0);
    if (pthread_mutex_init(&e->mu, NULL))
        return -1;
    if (pthread_cond_init(&e->cv, NULL)) {
        pthread_mutex_destroy(&e->mu);
        return -1;
    }
    return 0;
}

static void event_destroy(struct pool_event *e)
{
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->mu);
}

/* Returns once the generation differs from seen. */
static void event_wait(struct pool_event *e, unsigned seen)
{
    for (int i = 0; i < POOL_SPINS + POOL_YIELDS; i++) {
        if (atomic_load(&e->gen) != seen)
            return;
        if (i < POOL_SPINS)
            cpu_relax();
        else
            sched_yield();
    }
    pthread_mutex_lock(&e->mu);
    atomic_fetch_add(&e->sleepers, 1);
    while (atomic_load(&e->gen) == seen)
        pthread_cond_wait(&e->cv, &e->mu);
    atomic_fetch_sub(&e->sleepers, 1);
    pthread_mutex_unlock(&e->mu);
}

static void event_signal(struct pool_event *e)
{
    atomic_fetch_add(&e->gen, 1);
    if (atomic_load(&e->sleepers) > 0) {
        pthread_mutex_lock(&e->mu);
        pthread_cond_broadcast(&e->cv);
        pthread_mutex_unlock(&e->mu);
    }
}

/* Waits until `need` chunks are done: the groups before the chunk about to run. Short: the
 * chunks it waits for are already being run. */
static void wait_done(struct solver_pool *p, size_t need)
{
    for (unsigned i = 0; atomic_load(&p->done) < need; i++) {
        if (i < POOL_SPINS)
            cpu_relax();
        else
            sched_yield();
    }
}

/* Takes and runs chunks of job `job` until none are left (or the job is over). */
static void take_chunks(struct solver_pool *p, uint32_t job)
{
    size_t group = 0;
    for (;;) {
        uint_least64_t t = atomic_load(&p->ticket);
        if ((uint32_t)(t >> 32) != job || (size_t)(t & 0xffffffffu) >= atomic_load(&p->nchunks))
            return;
        if (!atomic_compare_exchange_weak(&p->ticket, &t, t + 1))
            continue;
        const size_t k = (size_t)(t & 0xffffffffu);
        while (group + 1 < p->ngroups && p->group_start[group + 1] <= k)
            group++;
        wait_done(p, p->group_start[group]);
        p->run(p->ctx, k);
        if (atomic_fetch_add(&p->done, 1) + 1 == atomic_load(&p->nchunks))
            event_signal(&p->finish);
    }
}

struct member {
    struct solver_pool *pool;
};

static void *member_main(void *arg)
{
    struct solver_pool *p = ((struct member *)arg)->pool;
    free(arg);
    unsigned seen = 0;
    for (;;) {
        event_wait(&p->start, seen);
        seen = atomic_load(&p->start.gen);
        if (p->quit)
            return NULL;
        take_chunks(p, (uint32_t)(atomic_load(&p->ticket) >> 32));
    }
}

struct solver_pool *pool_create(int n)
{
    struct solver_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = 1; /* members started so far, for pool_destroy after a failure */
    p->threads = calloc((size_t)n, sizeof *p->threads);
    if (!p->threads || event_init(&p->start)) {
        free(p->threads);
        free(p);
        return NULL;
    }
    if (event_init(&p->finish)) {
        event_destroy(&p->start);
        free(p->threads);
        free(p);
        return NULL;
    }
    atomic_init(&p->ticket, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->nchunks, 0);
    for (int i = 1; i < n; i++) {
        struct member *mb = malloc(sizeof *mb);
        if (mb)
            mb->pool = p;
        if (!mb || pthread_create(&p->threads[i - 1], NULL, member_main, mb)) {
            free(mb);
            pool_destroy(p);
            return NULL;
        }
        p->n = i + 1;
    }
    return p;
}

void pool_destroy(struct solver_pool *p)
{
    if (!p)
        return;
    p->quit = 1;
    event_signal(&p->start);
    for (int i = 1; i < p->n; i++)
        pthread_join(p->threads[i - 1], NULL);
    event_destroy(&p->start);
    event_destroy(&p->finish);
    free(p->threads);
    free(p);
}

void pool_run(struct solver_pool *p, size_t nchunks, const size_t *group_start, size_t ngroups,
              pool_chunk run, void *ctx)
{
    if (nchunks == 0)
        return;
    /* Members still in the last job see its number in the ticket and leave; the job's fields
     * are written before the ticket that publishes them. */
    atomic_store(&p->nchunks, nchunks);
    p->group_start = group_start;
    p->ngroups = ngroups;
    p->run = run;
    p->ctx = ctx;
    const unsigned finished = atomic_load(&p->finish.gen);
    atomic_store(&p->done, 0);
    p->job++;
    atomic_store(&p->ticket, (uint_least64_t)p->job << 32);
    event_signal(&p->start);
    take_chunks(p, p->job);
    if (atomic_load(&p->done) < nchunks)
        event_wait(&p->finish, finished);
}
