/* Helpers shared by the Check tests: models built in code, temporary directories, files. */
#ifndef CATENA_TESTUTIL_H
#define CATENA_TESTUTIL_H

#include <stddef.h>

#include "model/model.h"
#include "scenario/scenario.h"

/* A straight chain of n points from a to b, total mass spread evenly, links at rest.
 * pin_first/pin_last pin the ends. dt, steps and iterations as given; damping 1. */
struct model *tu_chain(size_t n, vec3 a, vec3 b, double mass, int pin_first, int pin_last,
                       double dt, int iterations);

/* Adds to c a chain hanging straight down from a pin at the origin: 5 points 0.25 m apart,
 * 0.01 kg each but a 10 kg load at the bottom, and 4 links at rest (c's first if it had
 * none). */
void tu_add_loaded_chain(struct model *c);

/* A scenario of a square cloth of n x n points, size metres across: in the xy plane hanging
 * down from y = 0 (2D) or lying in the xz plane at y = 0 (3D). Structural, shear and bend
 * links (with their roles), two faces a cell, the first row's two corners pinned, total mass
 * 1 kg, one body "cloth"; dt 1/120, 10 iterations, 1 step, NPY every step. */
struct scenario *tu_cloth(int n, double size, int dims);

/* The model of a loaded scenario, which is freed but for it (for tests that only step the
 * model); NULL for NULL. The caller frees the model with model_destroy. */
struct model *tu_model_of(struct scenario *sc);

/* A fresh empty directory under $TMPDIR (or /tmp); the caller frees the string. */
char *tu_tmpdir(void);

/* Removes a directory tree made by tu_tmpdir (best effort). */
void tu_rmtree(const char *dir);

/* Whole file contents, NUL-terminated; *len gets the size. NULL if unreadable. */
char *tu_read_file(const char *path, size_t *len);

/* Joins dir and name into a malloc'd path. */
char *tu_path(const char *dir, const char *name);

/* Writes dir/summary.json as a run directory's manifest (io/rundir.h) with this status and
 * the files names[0..n) of dir as they are now (sizes and SHA-256 computed), as if a run
 * had written them. */
void tu_write_manifest(const char *dir, const char *status, const char *const *names, size_t n);

/* Rewrites the manifest of the run directory dir as if its run had written every regular file
 * now in it (not hidden, not in a sub-folder, summary.json aside): summary.json keeps its
 * other members and gets "run_id" and "files". Nothing is done when dir has no summary.json:
 * for tests that write run directories by hand. */
void tu_bless_run(const char *dir);

/* The RGBA pixels of DIR/NAME through libpng's simplified reader, its size in *w and *h;
 * NULL if it cannot be read. The caller frees the pixels. */
unsigned char *tu_read_png(const char *dir, const char *name, int *w, int *h);

#endif
