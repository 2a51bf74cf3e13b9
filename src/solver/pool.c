/* The solver's thread team (solver/pool.h). Each group's chunks are cut into one share per
 * member; a member takes the chunks of its own share first (the same part of the links every
 * time, so the points it moves stay in its core's cache), then whatever is left of the
 * others', through one atomic counter per share. A chunk counts as done in one more counter,
 * which is what later groups wait on.
 *
 * A member reads a job only while registered in it: `entry` holds the job's number, a closed
 * flag and the number of members registered, and the caller closes the job and waits for the
 * last member to leave before it writes the next one, so a member that wakes late never reads
 * a job half written. Between jobs members sleep on an event, a generation counter that only
 * grows: the waiter remembers the generation it saw and waits for it to change, spinning
 * first; the signaller bumps it and wakes sleepers only when there are some. All atomics are
 * sequentially consistent, so a waiter that registers as a sleeper either sees the new
 * generation or is seen by the signaller (no lost wake-up), and what a chunk wrote is visible
 * to whoever sees it counted as done. */
#define _POSIX_C_SOURCE 200809L
#include "solver/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* About 10 microseconds of spinning before yielding, and as many yields before sleeping:
 * long spins cost far more than they save when the machine has fewer free cores than the
 * team has members. Within a job, a member waiting for a group yields only a few times
 * before it sleeps. */
#define POOL_SPINS 200
#define POOL_YIELDS 200
#define POOL_WAIT_YIELDS 8

/* entry: job number << 32 | CLOSED | members registered */
#define POOL_CLOSED 0x80000000u
#define POOL_ACTIVE 0x7fffffffu

struct pool_event {
    atomic_uint gen;
    atomic_int sleepers;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

struct solver_pool {
    int n;                       /* members, the caller included */
    pthread_t *threads;          /* [n - 1] */
    struct pool_event start;     /* a job is posted (or quit) */
    struct pool_event finish;    /* the last chunk of a job is done */
    struct pool_event advance;   /* the last chunk of a group is done (for sleeping waiters) */
    atomic_uint_least64_t entry; /* the current job, see above */
    size_t max_groups;           /* groups a job may have */
    atomic_size_t *taken;        /* [max_groups * n]: chunks taken of share s of group g */
    atomic_size_t done;          /* chunks of the current job done */
    /* The current job, written only while no member is registered; its groups are copied, so
     * that the caller may change its own array as soon as pool_run returns. */
    uint32_t job;
    size_t nchunks;
    size_t *group_start; /* [max_groups] */
    size_t ngroups;
    pool_chunk run;
    void *ctx;
    atomic_int quit;
};

static void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

/* The i-th round of a wait: spin, then yield the processor. */
static void backoff(unsigned i)
{
    if (i < POOL_SPINS)
        cpu_relax();
    else
        sched_yield();
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
    for (unsigned i = 0; i < POOL_SPINS + POOL_YIELDS; i++) {
        if (atomic_load(&e->gen) != seen)
            return;
        backoff(i);
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

/* Registers in the job posted now, unless it is closed; returns its number, or 0. */
static uint32_t enter(struct solver_pool *p)
{
    uint_least64_t e = atomic_load(&p->entry);
    while (!(e & POOL_CLOSED) && (e >> 32) != 0)
        if (atomic_compare_exchange_weak(&p->entry, &e, e + 1))
            return (uint32_t)(e >> 32);
    return 0;
}

static void leave(struct solver_pool *p)
{
    atomic_fetch_sub(&p->entry, 1);
}

/* Share s of group g: chunks [*first, *last). */
static void share(const struct solver_pool *p, size_t g, int s, size_t *first, size_t *last)
{
    const size_t begin = p->group_start[g];
    const size_t end = g + 1 < p->ngroups ? p->group_start[g + 1] : p->nchunks;
    *first = begin + (end - begin) * (size_t)s / (size_t)p->n;
    *last = begin + (end - begin) * (size_t)(s + 1) / (size_t)p->n;
}

/* Waits until `need` chunks are done: the groups before the chunk about to run. Usually
 * short, the chunks it waits for being run already; but when the system has taken the core of
 * the member running one of them, spinning or yielding would only keep that member waiting
 * longer (and burn a core other jobs could use): after a short spin the waiter sleeps until
 * the group is done. The signaller counts the chunk done before it looks for sleepers and the
 * waiter registers before it looks at the count (both sequentially consistent), so one of the
 * two sees the other. */
static void wait_done(struct solver_pool *p, size_t need)
{
    for (unsigned i = 0; i < POOL_SPINS + POOL_WAIT_YIELDS; i++) {
        if (atomic_load(&p->done) >= need)
            return;
        backoff(i);
    }
    struct pool_event *e = &p->advance;
    pthread_mutex_lock(&e->mu);
    atomic_fetch_add(&e->sleepers, 1);
    while (atomic_load(&p->done) < need)
        pthread_cond_wait(&e->cv, &e->mu);
    atomic_fetch_sub(&e->sleepers, 1);
    pthread_mutex_unlock(&e->mu);
}

/* One more chunk of group g is done: wakes whoever sleeps on the group's end, and the caller
 * at the job's. */
static void count_done(struct solver_pool *p, size_t g)
{
    const size_t done = atomic_fetch_add(&p->done, 1) + 1;
    const size_t end = g + 1 < p->ngroups ? p->group_start[g + 1] : p->nchunks;
    if (done == end && atomic_load(&p->advance.sleepers) > 0) {
        pthread_mutex_lock(&p->advance.mu);
        pthread_cond_broadcast(&p->advance.cv);
        pthread_mutex_unlock(&p->advance.mu);
    }
    if (done == p->nchunks)
        event_signal(&p->finish);
}

/* Member `self` works through the job group by group: its own share, then the others', each
 * chunk only once the groups before it are done; returns when nothing is left to take. */
static void take_chunks(struct solver_pool *p, int self)
{
    for (size_t g = 0; g < p->ngroups; g++) {
        int waited = 0;
        for (int i = 0; i < p->n; i++) {
            const int s = (self + i) % p->n;
            size_t first, last;
            share(p, g, s, &first, &last);
            atomic_size_t *taken = &p->taken[g * (size_t)p->n + (size_t)s];
            for (size_t k; (k = first + atomic_fetch_add(taken, 1)) < last;) {
                if (!waited) {
                    wait_done(p, p->group_start[g]);
                    waited = 1;
                }
                p->run(p->ctx, k);
                count_done(p, g);
            }
        }
    }
}

struct member {
    struct solver_pool *pool;
    int index;
};

static void *member_main(void *arg)
{
    struct solver_pool *p = ((struct member *)arg)->pool;
    const int self = ((struct member *)arg)->index;
    free(arg);
    unsigned seen = 0;
    for (;;) {
        event_wait(&p->start, seen);
        seen = atomic_load(&p->start.gen);
        if (atomic_load(&p->quit))
            return NULL;
        if (enter(p)) {
            take_chunks(p, self);
            leave(p);
        }
    }
}

struct solver_pool *pool_create(int n, size_t max_groups)
{
    struct solver_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = 1; /* members started so far, for pool_destroy after a failure */
    p->max_groups = max_groups ? max_groups : 1;
    p->threads = calloc((size_t)n, sizeof *p->threads);
    p->taken = calloc(p->max_groups * (size_t)n, sizeof *p->taken);
    p->group_start = calloc(p->max_groups, sizeof *p->group_start);
    atomic_init(&p->quit, 0);
    int events = 0;
    if (p->threads && p->taken && p->group_start && !event_init(&p->start)) {
        events = 1;
        if (!event_init(&p->finish))
            events = 2;
        if (events == 2 && !event_init(&p->advance))
            events = 3;
    }
    if (events < 3) {
        if (events)
            event_destroy(&p->start);
        if (events > 1)
            event_destroy(&p->finish);
        free(p->threads);
        free(p->taken);
        free(p->group_start);
        free(p);
        return NULL;
    }
    for (size_t i = 0; i < p->max_groups * (size_t)n; i++)
        atomic_init(&p->taken[i], 0);
    atomic_init(&p->entry, POOL_CLOSED); /* job 0: none yet */
    atomic_init(&p->done, 0);
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
    atomic_store(&p->quit, 1);
    event_signal(&p->start);
    for (int i = 1; i < p->n; i++)
        pthread_join(p->threads[i - 1], NULL);
    event_destroy(&p->start);
    event_destroy(&p->finish);
    event_destroy(&p->advance);
    free(p->threads);
    free(p->taken);
    free(p->group_start);
    free(p);
}

void pool_run(struct solver_pool *p, size_t nchunks, const size_t *group_start, size_t ngroups,
              pool_chunk run, void *ctx)
{
    if (!p) { /* no team: the chunks in order are one valid schedule of the job */
        for (size_t k = 0; k < nchunks; k++)
            run(ctx, k);
        return;
    }
    if (nchunks == 0)
        return;
    /* Close the last job and wait for its members to leave (they are only looking for work
     * that is not there), then write the new one and open it. */
    atomic_fetch_or(&p->entry, POOL_CLOSED);
    for (unsigned i = 0; atomic_load(&p->entry) & POOL_ACTIVE; i++)
        backoff(i);
    p->job = p->job + 1 ? p->job + 1 : 1; /* 0 means none */
    p->nchunks = nchunks;
    for (size_t g = 0; g < ngroups; g++)
        p->group_start[g] = group_start[g];
    p->ngroups = ngroups;
    p->run = run;
    p->ctx = ctx;
    for (size_t i = 0; i < ngroups * (size_t)p->n; i++)
        atomic_store(&p->taken[i], 0);
    atomic_store(&p->done, 0);
    const unsigned finished = atomic_load(&p->finish.gen);
    atomic_store(&p->entry, (uint_least64_t)p->job << 32);
    event_signal(&p->start);
    take_chunks(p, 0);
    if (atomic_load(&p->done) < nchunks)
        event_wait(&p->finish, finished);
}
