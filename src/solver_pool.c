/* The solver's thread team (solver_pool.h). Every wait is on an event, a generation counter
 * that only grows: a waiter remembers the generation it saw and waits until it changes,
 * spinning first and then sleeping on a condition variable. The signaller bumps the
 * generation and wakes sleepers only when there are some; both sides use sequentially
 * consistent atomics, so a waiter that registers as a sleeper either sees the new generation
 * or is seen by the signaller (no lost wake-up). */
#define _POSIX_C_SOURCE 200809L
#include "solver_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* About 10 microseconds of spinning before sleeping: longer spins cost far more than they
 * save when the machine has fewer free cores than the team has members. */
#define POOL_SPINS 200

struct pool_event {
    atomic_uint gen;
    atomic_int sleepers;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

struct solver_pool {
    int n;                   /* members, the caller included */
    pthread_t *threads;      /* [n - 1] */
    struct pool_event start; /* a job is posted (or quit) */
    struct pool_event done;  /* the barrier's generations */
    atomic_int arrived;      /* members at the current barrier */
    pool_job job;
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
    for (int i = 0; i < POOL_SPINS; i++) {
        if (atomic_load(&e->gen) != seen)
            return;
        cpu_relax();
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

void pool_barrier(struct solver_pool *p)
{
    /* Read before arriving: the last member bumps it only after everyone has arrived. */
    const unsigned seen = atomic_load(&p->done.gen);
    if (atomic_fetch_add(&p->arrived, 1) + 1 == p->n) {
        atomic_store(&p->arrived, 0);
        event_signal(&p->done);
    } else {
        event_wait(&p->done, seen);
    }
}

struct member {
    struct solver_pool *pool;
    int index;
};

static void *member_main(void *arg)
{
    struct solver_pool *p = ((struct member *)arg)->pool;
    const int index = ((struct member *)arg)->index;
    free(arg);
    unsigned seen = 0;
    for (;;) {
        event_wait(&p->start, seen);
        seen = atomic_load(&p->start.gen);
        if (p->quit)
            return NULL;
        p->job(p->ctx, index, p->n);
        pool_barrier(p);
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
    if (event_init(&p->done)) {
        event_destroy(&p->start);
        free(p->threads);
        free(p);
        return NULL;
    }
    atomic_init(&p->arrived, 0);
    for (int i = 1; i < n; i++) {
        struct member *mb = malloc(sizeof *mb);
        if (mb)
            *mb = (struct member){p, i};
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
    event_destroy(&p->done);
    free(p->threads);
    free(p);
}

void pool_run(struct solver_pool *p, pool_job job, void *ctx)
{
    p->job = job;
    p->ctx = ctx;
    event_signal(&p->start);
    job(ctx, 0, p->n);
    pool_barrier(p);
}
