/* `catena bench` (bench/bench.h): the list of cases, one child process per case (so that each
 * reports its own peak memory and a crash cannot take the others with it), medians, the text
 * table and the JSON. The cases themselves are in bench/solver.c, bench/writers.c and
 * bench/frames.c; the references they are measured against in bench/bench_ref.c. */
#define _POSIX_C_SOURCE 200809L
#include "bench/bench.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/model.h"
#include "scenario/build/build.h"

// clang-format off
static const struct bench_case cases[] = {
    {"chain-1k-verlet",   1, bench_solver_case, 0},
    {"chain-1k-xpbd",     1, bench_solver_case, 1},
    {"chain-10k-verlet",  1, bench_solver_case, 2},
    {"chain-10k-xpbd",    1, bench_solver_case, 3},
    {"chain-100k-verlet", 0, bench_solver_case, 4},
    {"chain-100k-xpbd",   0, bench_solver_case, 5},
    {"cloth-100",         1, bench_solver_case, 6},
    {"cloth-316",         0, bench_solver_case, 7},
    {"ropes-1000x100",    1, bench_solver_case, 8},
    {"cloth-1000",        0, bench_solver_case, 9},
    {"write-csv",         1, bench_writer_case, 0},
    {"write-json",        1, bench_writer_case, 1},
    {"write-npy",         1, bench_writer_case, 2},
    {"render-cloth-100",  1, bench_frames_case, 0},
    {"global-chain-1k",   1, bench_direct_case, 0},
    {"global-chain-10k",  1, bench_direct_case, 1},
    {"global-cloth-40",   1, bench_direct_case, 2},
    {"global-cloth-100",  0, bench_direct_case, 3},
    {"global-hair",       1, bench_direct_case, 4},
    {"global-fixed-cloth-40", 1, bench_direct_case, 5},
    {"global-fixed-cloth-100", 1, bench_direct_case, 6},
};
// clang-format on
#define NCASES (sizeof cases / sizeof cases[0])

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct model *bench_model(int dims)
{
    struct model *m = model_create();
    if (!m)
        return NULL;
    m->dims = dims;
    m->dt = 1.0 / 60;
    m->order = ORDER_COLORED;
    return m;
}

int bench_add_cloth(struct model *m, uint32_t n, double mass, int corners)
{
    struct cloth_def d = build_cloth_def();
    d.name = "cloth";
    d.rows = d.cols = n;
    d.dx = d.dy = 0.02;
    d.mass = mass;
    d.bend.on = 1;
    if (build_cloth(m, &d) < 0 || model_add_pin(m, 0, m->x0[0]) < 0 ||
        (corners == 2 && model_add_pin(m, n - 1, m->x0[n - 1]) < 0))
        return -1;
    return 0;
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* What a child sends back. */
struct message {
    struct bench_result r;
    struct catena_error err;
    int rc;
};

static int write_all(int fd, const void *p, size_t n)
{
    for (const char *c = p; n;) {
        const ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static size_t read_all(int fd, void *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        const ssize_t k = read(fd, (char *)p + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    return got;
}

static void run_here(const struct bench_case *c, const struct bench_options *o, struct message *msg)
{
    msg->rc = c->run(c, o, &msg->r, &msg->err);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        msg->r.peak_mib = (double)ru.ru_maxrss / 1024.0; /* Linux counts KiB */
}

/* The case in a child process; its message, or a failure that says how the child ended. */
static void run_child(const struct bench_case *c, const struct bench_options *o,
                      struct message *msg)
{
    int fd[2];
    fflush(NULL); /* nothing buffered is written twice */
    if (pipe(fd) != 0) {
        msg->rc = error_set(&msg->err, CATENA_EFAIL, "%s: cannot make a pipe: %s", c->name,
                            strerror(errno));
        return;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        run_here(c, o, msg);
        _exit(write_all(fd[1], msg, sizeof *msg) ? 1 : 0);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        msg->rc = error_set(&msg->err, CATENA_EFAIL, "%s: cannot start a process: %s", c->name,
                            strerror(errno));
        return;
    }
    const size_t got = read_all(fd[0], msg, sizeof *msg);
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof *msg) {
        if (WIFSIGNALED(status))
            msg->rc = error_set(&msg->err, CATENA_EFAIL, "%s: the case was killed by signal %d",
                                c->name, WTERMSIG(status));
        else
            msg->rc =
                error_set(&msg->err, CATENA_EFAIL, "%s: the case ended without a result", c->name);
    }
}

/* The 1-minute load average (Linux's /proc/loadavg), or -1. */
static double load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double load = -1;
    if (f) {
        if (fscanf(f, "%lf", &load) != 1)
            load = -1;
        fclose(f);
    }
    return load;
}

/* Whether case c is asked for. */
static int wanted(const struct bench_options *o, const struct bench_case *c)
{
    if (o->nonly == 0)
        return !o->quick || c->quick;
    for (int i = 0; i < o->nonly; i++)
        if (!strcmp(o->only[i], c->name))
            return 1;
    return 0;
}

int bench_check_names(const struct bench_options *o, struct catena_error *err)
{
    for (int i = 0; i < o->nonly; i++) {
        size_t k = 0;
        while (k < NCASES && strcmp(o->only[i], cases[k].name))
            k++;
        if (k == NCASES) {
            char list[1024] = "";
            for (size_t j = 0; j < NCASES; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                         cases[j].name);
            return error_set(err, CATENA_EINPUT, "bench: no case '%.64s' (cases: %s)", o->only[i],
                             list);
        }
        /* a case without a small size would run at size 0 (and crash) under --quick */
        if (o->quick && !cases[k].quick)
            return error_set(err, CATENA_EINPUT,
                             "bench: case '%s' has no --quick size (run it without --quick)",
                             cases[k].name);
    }
    return CATENA_OK;
}

int bench_run(struct bench_options *o, void (*report)(const struct bench_result *r, void *ctx),
              void *ctx, struct catena_error *err)
{
    error_clear(err);
    int rc = bench_check_names(o, err);
    if (rc != CATENA_OK)
        return rc;
    o->load[0] = load_average();
    for (size_t i = 0; i < NCASES; i++) {
        const struct bench_case *c = &cases[i];
        if (!wanted(o, c))
            continue;
        struct message msg;
        memset(&msg, 0, sizeof msg);
        snprintf(msg.r.name, sizeof msg.r.name, "%s", c->name);
        run_child(c, o, &msg);
        if (msg.rc != CATENA_OK) {
            msg.r.ok = 0;
            snprintf(msg.r.check, sizeof msg.r.check, "FAILED: %.80s", msg.err.msg);
        }
        report(&msg.r, ctx);
        if (!msg.r.ok && rc == CATENA_OK)
            rc = msg.rc != CATENA_OK ? error_set(err, msg.rc, "%s", msg.err.msg)
                                     : error_set(err, CATENA_EFAIL, "bench: %s: check failed: %s",
                                                 c->name, msg.r.check);
    }
    o->load[1] = load_average();
    return rc;
}

/* ---- the table ---- */

void bench_print_header(FILE *out)
{
    fprintf(out, "%-18s %9s %9s %8s %8s %8s %9s %8s %8s  %s\n", "case", "ns/c.it", "steps/s",
            "MB/s", "frames/s", "vs ref", "threads", "team cpu", "peak MiB", "size; checks");
}

/* v formatted into buf, or "-" when v is 0 (not measured). */
static const char *num(char *buf, size_t size, const char *fmt, double v)
{
    if (v == 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, fmt, v);
    return buf;
}

void bench_print_row(FILE *out, const struct bench_result *r)
{
    char a[32], b[32], c[32], d[32], e[32], f[32], g[32];
    char team[32] = "-";
    if (r->threads && r->speedup)
        snprintf(team, sizeof team, "%d: %.2fx", r->threads, r->speedup);
    fprintf(out, "%-18s %9s %9s %8s %8s %8s %9s %8s %8s  %s; %s\n", r->name,
            num(a, sizeof a, "%.2f", r->ns_per_cit),
            num(b, sizeof b, "%.4g", r->kind == BENCH_SOLVER ? r->steps_per_s : 0),
            num(c, sizeof c, "%.1f", r->mb_per_s), num(d, sizeof d, "%.1f", r->frames_per_s),
            num(e, sizeof e, "%.2fx", r->ratio), team, num(g, sizeof g, "%.2fx", r->team_cpu),
            num(f, sizeof f, "%.1f", r->peak_mib), r->size, r->check);
}

/* ---- JSON ---- */

static void add_number(cJSON *o, const char *key, double v)
{
    if (v != 0)
        cJSON_AddNumberToObject(o, key, v);
}

static const char *kind_name(enum bench_kind k)
{
    return k == BENCH_SOLVER ? "solver" : k == BENCH_WRITER ? "writer" : "render";
}

char *bench_json(const struct bench_options *o, const struct bench_result *r, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddNumberToObject(root, "catena_bench", 1);
    cJSON_AddBoolToObject(root, "quick", o->quick);
    cJSON_AddNumberToObject(root, "cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    if (o->load[0] >= 0 && o->load[1] >= 0) {
        const double load[2] = {o->load[0], o->load[1]};
        cJSON_AddItemToObject(root, "load_average", cJSON_CreateDoubleArray(load, 2));
    }
    cJSON *list = cJSON_AddArrayToObject(root, "cases");
    for (size_t i = 0; list && i < n; i++) {
        cJSON *c = cJSON_CreateObject();
        if (!c)
            break;
        cJSON_AddItemToArray(list, c);
        cJSON_AddStringToObject(c, "name", r[i].name);
        cJSON_AddStringToObject(c, "kind", kind_name(r[i].kind));
        cJSON_AddStringToObject(c, "size", r[i].size);
        cJSON_AddNumberToObject(c, "repetitions", r[i].reps);
        cJSON_AddNumberToObject(c, "seconds", r[i].seconds);
        add_number(c, "ns_per_constraint_iteration", r[i].ns_per_cit);
        if (r[i].kind == BENCH_SOLVER)
            add_number(c, "steps_per_s", r[i].steps_per_s);
        add_number(c, "mb_per_s", r[i].mb_per_s);
        add_number(c, "frames_per_s", r[i].frames_per_s);
        add_number(c, "reference_seconds", r[i].ref_seconds);
        add_number(c, "ratio", r[i].ratio);
        if (r[i].threads) {
            cJSON_AddNumberToObject(c, "threads", r[i].threads);
            add_number(c, "threads_seconds", r[i].team_seconds);
            add_number(c, "threads_speedup", r[i].speedup);
            add_number(c, "threads_cpu_ratio", r[i].team_cpu);
        }
        cJSON_AddNumberToObject(c, "peak_mib", r[i].peak_mib);
        cJSON_AddBoolToObject(c, "ok", r[i].ok);
        cJSON_AddStringToObject(c, "checks", r[i].check);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
