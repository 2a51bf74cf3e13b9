/* Rendering speed: a cloth of N x N points (tu_cloth) falls for 2 s at 120 Hz, recorded every
 * step, then is drawn at 30 fps, 800x600, PNG level 1, REPEATS times; prints each pass and
 * the median frames per second of wall time (both passes over the trajectory, drawing and
 * PNG encoding included). Not part of make check: `make tests/bench_render`, then
 *     tests/bench_render [N [DIMS [REPEATS [DIR]]]]     (defaults 100 3 5)
 * With DIR the run and its frames are written there and kept, and a run already there (its
 * trajectory.npy) is drawn without simulating again. Times are wall-clock (monotonic) and
 * the process's CPU time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/bench.h"
#include "core/clock.h"
#include "render/render.h"
#include "run/run.h"
#include "testutil.h"

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 100, dims = argc > 2 ? atoi(argv[2]) : 3;
    const int repeats = argc > 3 ? atoi(argv[3]) : 5;
    if (n < 2 || (dims != 2 && dims != 3) || repeats < 1 || repeats > 100) {
        fputs("usage: bench_render [N >= 2 [DIMS 2|3 [REPEATS 1..100]]]\n", stderr);
        return 2;
    }
    struct scenario *sc = tu_cloth(n, 2.0, dims);
    char *dir = argc > 4 ? strdup(argv[4]) : tu_tmpdir();
    struct catena_error err;
    struct run_result rr;
    if (!sc || !dir) {
        fputs("bench_render: out of memory\n", stderr);
        return 1;
    }
    const struct model *m = sc->model;
    sc->model->steps = 240;
    const struct run_options ro = {.out_dir = dir, .progress = 0};
    char npy[4096];
    struct stat st;
    snprintf(npy, sizeof npy, "%s/trajectory.npy", dir);
    rr.wall_s = 0;
    if (stat(npy, &st) != 0 && run_simulation(sc, &ro, &rr, &err)) {
        fprintf(stderr, "bench_render: %s\n", err.msg);
        return 1;
    }
    printf("cloth %dx%d (%dD): %zu points, %zu links, %zu faces; simulated in %.2f s\n", n, n, dims,
           m->npoints, m->nlinks, m->nfaces, rr.wall_s);
    struct render_opts o = render_opts_default();
    double fps[100], cpu_fps[100];
    for (int r = 0; r < repeats; r++) {
        struct render_result res;
        const double cpu0 = clock_cpu_s();
        if (render_run(sc, &o, dir, dir, 0, &res, &err)) {
            fprintf(stderr, "bench_render: %s\n", err.msg);
            return 1;
        }
        const double cpu = clock_cpu_s() - cpu0;
        fps[r] = res.frames / res.wall_s;
        cpu_fps[r] = res.frames / cpu;
        printf("pass %d: %ld frames in %.3f s wall, %.3f s CPU: %.1f frames/s (%.1f per CPU s)\n",
               r + 1, res.frames, res.wall_s, cpu, fps[r], cpu_fps[r]);
    }
    printf("median: %.1f frames/s of wall time, %.1f per CPU second (%dx%d, level %d)\n",
           bench_median(fps, repeats), bench_median(cpu_fps, repeats), o.width, o.height, o.level);
    if (argc <= 4)
        tu_rmtree(dir);
    free(dir);
    scenario_destroy(sc);
    return 0;
}
