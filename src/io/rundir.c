/* Reading a run directory through its manifest (see io/rundir.h): the manifest must be a
 * regular file of sensible size, finished, and every file it lists must be there, regular
 * and of the listed size; a file is handed out only once its SHA-256 matches. */
#define _POSIX_C_SOURCE 200809L
#include "io/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dirlock.h"
#include "core/path.h"
#include "core/readfile.h"

/* The largest manifest read: a run lists a dozen files, a render one per frame (about 150
 * bytes each), so this is a million frames; /dev/zero or a huge file stop here. */
#define MANIFEST_MAX (160u << 20)

/* Every name catena writes into a run directory, besides frames/frame-NNNNNN.png. An output
 * added to catena adds its name here, or a rerun leaves it behind. */
static const char *const outputs[] = {
    "scenario.json",     "model.json",     "trajectory.csv",
    "trajectory.json",   "trajectory.npy", "trajectory-frames.npy",
    "events.csv",        "metrics.csv",    "topology.csv",
    "catenary.json",     "catenary.txt",   "catenary.png",
    "contact-sheet.png", RUNDIR_RENDER,
};

int rundir_is_output(const char *name)
{
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++)
        if (strcmp(name, outputs[i]) == 0)
            return 1;
    const char *digits = name + strlen("frames/frame-");
    const size_t nd = strncmp(name, "frames/frame-", strlen("frames/frame-")) == 0
                          ? strspn(digits, "0123456789")
                          : 0;
    return nd >= 6 && strcmp(digits + nd, ".png") == 0;
}

/* A name a manifest may list: relative, inside the directory, no component empty or
 * starting with '.' (so no "..", no hidden file), printable ASCII. */
static int safe_name(const char *name)
{
    if (!*name || *name == '/')
        return 0;
    for (const char *p = name; *p; p++) {
        if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f || *p == '\\')
            return 0;
        if ((p == name || p[-1] == '/') && (*p == '.' || *p == '/'))
            return 0;
    }
    return name[strlen(name) - 1] != '/';
}

void rundir_close(struct rundir *rd)
{
    if (!rd)
        return;
    for (size_t i = 0; i < rd->nfiles; i++)
        free(rd->files[i].name);
    free(rd->files);
    free(rd->dir);
    free(rd->id);
    free(rd->status);
    cJSON_Delete(rd->json);
    free(rd);
}

static const char *string_at(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Reads "files"[k] into f; CATENA_EINPUT naming what is wrong. */
static int parse_file(const struct rundir *rd, const cJSON *e, int k, struct rundir_file *f,
                      struct catena_error *err)
{
    const char *name = string_at(e, "name"), *sha = string_at(e, "sha256");
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(e, "size");
    if (!name || !safe_name(name))
        return error_set(err, CATENA_EINPUT,
                         "%s/%s: files[%d].name: expected the name of a file in the directory",
                         rd->dir, rd->manifest, k);
    if (!cJSON_IsNumber(size) || !(size->valuedouble >= 0 && size->valuedouble < 0x1p53) ||
        size->valuedouble != (double)(unsigned long long)size->valuedouble)
        return error_set(err, CATENA_EINPUT,
                         "%s/%s: files[%d].size: expected a whole number of "
                         "bytes",
                         rd->dir, rd->manifest, k);
    if (!sha || strlen(sha) != SHA256_HEX_SIZE - 1 ||
        strspn(sha, "0123456789abcdef") != SHA256_HEX_SIZE - 1)
        return error_set(err, CATENA_EINPUT,
                         "%s/%s: files[%d].sha256: expected 64 hexadecimal digits", rd->dir,
                         rd->manifest, k);
    if (!(f->name = strdup(name)))
        return error_set(err, CATENA_EFAIL, "%s: out of memory", rd->dir);
    f->size = (unsigned long long)size->valuedouble;
    memcpy(f->sha256, sha, SHA256_HEX_SIZE);
    return CATENA_OK;
}

/* rd's id, status and files from rd->json. */
static int parse_manifest(struct rundir *rd, struct catena_error *err)
{
    const char *id = string_at(rd->json, "run_id"), *status = string_at(rd->json, "status");
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(rd->json, "files");
    if (!id || !status || !cJSON_IsArray(files))
        return error_set(err, CATENA_EINPUT,
                         "%s/%s: no manifest (run_id, status, files): not written by this "
                         "catena; run again into this directory, or give a file's path",
                         rd->dir, rd->manifest);
    if (!(rd->id = strdup(id)) || !(rd->status = strdup(status)))
        return error_set(err, CATENA_EFAIL, "%s: out of memory", rd->dir);
    const int n = cJSON_GetArraySize(files);
    if (n > 0 && !(rd->files = calloc((size_t)n, sizeof *rd->files)))
        return error_set(err, CATENA_EFAIL, "%s: out of memory", rd->dir);
    int k = 0;
    for (const cJSON *e = files->child; e; e = e->next, k++) {
        if (parse_file(rd, e, k, &rd->files[k], err))
            return err->code;
        rd->nfiles++;
    }
    return CATENA_OK;
}

/* Refuses a manifest whose writer has not finished, saying whether it still works. */
static int check_status(const struct rundir *rd, struct catena_error *err)
{
    if (strcmp(rd->status, "running") == 0)
        return error_set(err, CATENA_EINPUT,
                         dirlock_held(rd->dir)
                             ? "%s: the run is not finished (%s says \"running\"; another "
                               "catena is writing there now)"
                             : "%s: the run did not finish (%s says \"running\": it was killed "
                               "or its machine stopped); run it again",
                         rd->dir, rd->manifest);
    if (strcmp(rd->status, "failed") == 0) {
        const char *why = string_at(rd->json, "error");
        return error_set(err, CATENA_EINPUT, "%s: the run failed (%s says \"failed\"%s%s)", rd->dir,
                         rd->manifest, why ? ": " : "", why ? why : "");
    }
    return CATENA_OK;
}

/* Every listed file there, regular (not through a symlink) and of the listed size. */
static int check_files(const struct rundir *rd, struct catena_error *err)
{
    for (size_t i = 0; i < rd->nfiles; i++) {
        const struct rundir_file *f = &rd->files[i];
        char *path = path_join(rd->dir, f->name);
        struct stat st;
        if (!path)
            return error_set(err, CATENA_EFAIL, "%s: out of memory", rd->dir);
        const int gone = lstat(path, &st) != 0;
        const int e = errno;
        free(path);
        if (gone)
            return error_set(err, CATENA_EINPUT,
                             "%s: %s lists %s, which is %s: the directory changed after the "
                             "run; run it again",
                             rd->dir, rd->manifest, f->name, e == ENOENT ? "missing" : strerror(e));
        if (!S_ISREG(st.st_mode))
            return error_set(err, CATENA_EINPUT,
                             "%s: %s is not a regular file (catena wrote one there): the "
                             "directory changed after the run",
                             rd->dir, f->name);
        if ((unsigned long long)st.st_size != f->size)
            return error_set(err, CATENA_EINPUT,
                             "%s: %s holds %llu bytes, %s lists %llu: the directory changed "
                             "after the run; run it again",
                             rd->dir, f->name, (unsigned long long)st.st_size, rd->manifest,
                             f->size);
    }
    return CATENA_OK;
}

/* Reads and parses dir/manifest into rd->json. */
static int read_manifest(struct rundir *rd, struct catena_error *err)
{
    char *path = path_join(rd->dir, rd->manifest), *text = NULL;
    size_t len = 0;
    int e = ENOMEM;
    if (path)
        text = readfile_regular(path, MANIFEST_MAX, &len, &e);
    free(path);
    if (!text) {
        if (e == ENOENT)
            return error_set(err, CATENA_EINPUT,
                             "%s: no %s: not a run directory, or its run never started", rd->dir,
                             rd->manifest);
        return error_set(err, e == ENOMEM ? CATENA_EFAIL : CATENA_EINPUT, "%s/%s: %s", rd->dir,
                         rd->manifest, readfile_strerror(e));
    }
    rd->json = cJSON_ParseWithLength(text, len);
    free(text);
    if (!cJSON_IsObject(rd->json))
        return error_set(err, CATENA_EINPUT, "%s/%s: not a JSON object", rd->dir, rd->manifest);
    return CATENA_OK;
}

int rundir_open_manifest(const char *dir, const char *manifest, int any_status, struct rundir **out,
                         struct catena_error *err)
{
    struct rundir *rd = calloc(1, sizeof *rd);
    *out = NULL;
    if (!rd || !(rd->dir = strdup(dir))) {
        free(rd);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    }
    rd->manifest = manifest;
    const size_t n = strlen(rd->dir);
    if (n > 1 && rd->dir[n - 1] == '/') /* "runs/x/" names its files "runs/x/NAME" */
        rd->dir[n - 1] = '\0';
    int rc = read_manifest(rd, err);
    if (rc == CATENA_OK)
        rc = parse_manifest(rd, err);
    if (rc == CATENA_OK && !any_status)
        rc = check_status(rd, err);
    if (rc == CATENA_OK)
        rc = check_files(rd, err);
    if (rc != CATENA_OK) {
        rundir_close(rd);
        return rc;
    }
    *out = rd;
    return CATENA_OK;
}

int rundir_open(const char *dir, struct rundir **out, struct catena_error *err)
{
    return rundir_open_manifest(dir, RUNDIR_SUMMARY, 0, out, err);
}

const struct rundir_file *rundir_find(const struct rundir *rd, const char *name)
{
    for (size_t i = 0; i < rd->nfiles; i++)
        if (strcmp(rd->files[i].name, name) == 0)
            return &rd->files[i];
    return NULL;
}

/* Checks path holds f's bytes: opened without following a symlink or waiting on a FIFO. */
static int verify(const struct rundir *rd, const struct rundir_file *f, const char *path,
                  struct catena_error *err)
{
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return error_set(err, CATENA_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    unsigned long long size = 0;
    char sha[SHA256_HEX_SIZE];
    int e = fstat(fd, &st) != 0 ? errno : 0;
    if (!e && (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size != f->size)) {
        close(fd);
        return error_set(err, CATENA_EINPUT, "%s: not the file %s lists (%s)", path, rd->manifest,
                         S_ISREG(st.st_mode) ? "another size" : "not a regular file");
    }
    if (f->checked) { /* the same size, and the hash was right a moment ago */
        close(fd);
        return e ? error_set(err, CATENA_EFAIL, "%s: %s", path, strerror(e)) : CATENA_OK;
    }
    if (!e)
        e = sha256_hex_fd(fd, 1, &size, sha);
    close(fd);
    if (e == EINTR)
        return error_set(err, CATENA_EFAIL, "%s: interrupted while checking it", path);
    if (e)
        return error_set(err, CATENA_EFAIL, "%s: cannot read: %s", path, strerror(e));
    if (size != f->size || strcmp(sha, f->sha256) != 0)
        return error_set(err, CATENA_EINPUT,
                         "%s: its SHA-256 is not the one %s lists: the file changed after the "
                         "run; run it again",
                         path, rd->manifest);
    return CATENA_OK;
}

char *rundir_path(struct rundir *rd, const char *name, struct catena_error *err)
{
    struct rundir_file *f = (struct rundir_file *)rundir_find(rd, name);
    if (!f) {
        error_set(err, CATENA_EINPUT, "%s: the run wrote no %s (%s lists none)", rd->dir, name,
                  rd->manifest);
        return NULL;
    }
    char *path = path_join(rd->dir, name);
    if (!path)
        error_set(err, CATENA_EFAIL, "%s: out of memory", rd->dir);
    else if (!rd->verified && verify(rd, f, path, err)) {
        free(path);
        path = NULL;
    }
    if (path)
        f->checked = 1;
    return path;
}
