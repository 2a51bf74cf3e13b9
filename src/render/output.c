/* render.json: the manifest of the frames and contact sheet drawn into a directory
 * (io/rundir.h), which says which run they were drawn from; a run into the directory, or the
 * next render, removes what it lists. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "render/internal.h"

/* The names a render of nframes frames may write; NULL when out of memory. */
static char **planned_names(long nframes, int sheet, size_t *n)
{
    char **v = calloc((size_t)nframes + 1, sizeof *v);
    *n = 0;
    for (long k = 0; v && k < nframes; k++) {
        char name[48];
        snprintf(name, sizeof name, "frames/frame-%06ld.png", k);
        if (!(v[*n] = strdup(name)))
            break;
        ++*n;
    }
    if (v && *n == (size_t)nframes && sheet && (v[*n] = strdup("contact-sheet.png")))
        ++*n;
    return v;
}

/* What render.json says from the start: catena's version and the run drawn. */
static cJSON *head(const struct rundir *src)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *from = cJSON_AddObjectToObject(root, "from");
    if (!cJSON_AddStringToObject(root, "catena_version", PACKAGE_VERSION) ||
        !cJSON_AddStringToObject(from, "dir", src->dir) ||
        !cJSON_AddStringToObject(from, "run_id", src->id)) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

int render_output_begin(struct rundir_writer *w, const char *out_dir, const struct rundir *src,
                        long nframes, int sheet, struct catena_error *err)
{
    size_t n = 0;
    char **planned = planned_names(nframes, sheet, &n);
    cJSON *h = head(src);
    int rc = planned && h && n == (size_t)nframes + (sheet != 0)
                 ? rundir_begin(w, out_dir, RUNDIR_RENDER, (const char *const *)planned, n, h, err)
                 : error_set(err, CATENA_EFAIL, "%s/render.json: out of memory", out_dir);
    cJSON_Delete(h);
    for (size_t i = 0; i < n; i++)
        free(planned[i]);
    free(planned);
    return rc;
}

int render_output_finish(struct rundir_writer *w, const struct rundir *src, const char *status,
                         long frames, const char *error, struct catena_error *err)
{
    cJSON *root = head(src);
    const int ok = root && cJSON_AddStringToObject(root, "status", status) &&
                   cJSON_AddNumberToObject(root, "frames", (double)frames) &&
                   (!error || cJSON_AddStringToObject(root, "error", error));
    const int rc = ok ? rundir_finish(w, root, err)
                      : error_set(err, CATENA_EFAIL, "%s/render.json: out of memory", w->dir);
    cJSON_Delete(root);
    return rc;
}
