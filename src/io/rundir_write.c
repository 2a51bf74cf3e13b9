/* Writing a run directory's manifest (see io/rundir.h): "running" first, listing as pending
 * everything that may be left behind, then the earlier files removed, and at the end the
 * files the journal recorded, with their sizes and hashes. */
#define _DEFAULT_SOURCE /* getrandom */
#include "io/rundir.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/json_out.h"
#include "core/path.h"
#include "core/readfile.h"

/* The largest earlier manifest read for names to remove (as io/rundir.c reads). */
#define OLD_MANIFEST_MAX (160u << 20)

/* A list of names, owned. */
struct names {
    char **v;
    size_t n, cap;
};

static int names_add(struct names *s, const char *name)
{
    if (s->n == s->cap) {
        const size_t cap = s->cap ? 2 * s->cap : 32;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    if (!(s->v[s->n] = strdup(name)))
        return -1;
    s->n++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts s and drops repeated names (a render lists thousands of frames: no quadratic
 * search). */
static void names_sort(struct names *s)
{
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, by_name);
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (k > 0 && strcmp(s->v[k - 1], s->v[i]) == 0)
            free(s->v[i]);
        else
            s->v[k++] = s->v[i];
    }
    s->n = k;
}

static void names_free(struct names *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

/* The manifests a new writer of `manifest` replaces: a run replaces the frames drawn from
 * the run before it too. */
static size_t replaced(const char *manifest, const char *out[2])
{
    out[0] = manifest;
    if (strcmp(manifest, RUNDIR_SUMMARY) != 0)
        return 1;
    out[1] = RUNDIR_RENDER;
    return 2;
}

/* Adds the catena names an earlier dir/manifest lists (files and pending) to old. A manifest
 * that is missing, unreadable or not catena's adds nothing: nothing is removed on its word. */
static int old_names(const char *dir, const char *manifest, struct names *old)
{
    char *path = path_join(dir, manifest), *text = NULL;
    size_t len = 0;
    int e = 0;
    if (path)
        text = readfile_regular(path, OLD_MANIFEST_MAX, &len, &e);
    free(path);
    cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    int rc = 0;
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(j, "files");
    const cJSON *pending = cJSON_GetObjectItemCaseSensitive(j, "pending");
    for (const cJSON *e1 = cJSON_IsArray(files) ? files->child : NULL; e1 && !rc; e1 = e1->next) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e1, "name");
        if (cJSON_IsString(name) && rundir_is_output(name->valuestring))
            rc = names_add(old, name->valuestring);
    }
    for (const cJSON *e1 = cJSON_IsArray(pending) ? pending->child : NULL; e1 && !rc; e1 = e1->next)
        if (cJSON_IsString(e1) && rundir_is_output(e1->valuestring))
            rc = names_add(old, e1->valuestring);
    cJSON_Delete(j);
    return rc;
}

/* 128 bits nobody can guess, in hexadecimal. */
static void new_id(char id[33])
{
    unsigned char r[16];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        /* no entropy yet (early boot): an id unique enough for telling runs apart */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        const unsigned long long a = (unsigned long long)ts.tv_sec * 1000000000ULL +
                                     (unsigned long long)ts.tv_nsec,
                                 b = (unsigned long long)getpid();
        memcpy(r, &a, 8);
        memcpy(r + 8, &b, 8);
    }
    for (int i = 0; i < 16; i++)
        snprintf(id + 2 * i, 3, "%02x", r[i]);
}

/* Writes the running manifest: head's members, run_id, status, no files, pending. */
static int write_running(const struct rundir_writer *w, const cJSON *head,
                         const struct names *pending, struct catena_error *err)
{
    cJSON *root = head ? cJSON_Duplicate(head, 1) : cJSON_CreateObject();
    int ok = root != NULL;
    if (ok) {
        cJSON_DeleteItemFromObjectCaseSensitive(root, "status");
        ok = cJSON_AddStringToObject(root, "run_id", w->id) &&
             cJSON_AddStringToObject(root, "status", "running") &&
             cJSON_AddArrayToObject(root, "files");
    }
    cJSON *p = ok ? cJSON_AddArrayToObject(root, "pending") : NULL;
    for (size_t i = 0; p && i < pending->n; i++) {
        cJSON *s = cJSON_CreateString(pending->v[i]);
        if (!s || !cJSON_AddItemToArray(p, s)) {
            cJSON_Delete(s);
            p = NULL;
        }
    }
    const int rc = p ? json_out_write(w->dir, w->manifest, root, err)
                     : error_set(err, CATENA_EFAIL, "%s/%s: out of memory", w->dir, w->manifest);
    cJSON_Delete(root);
    return rc;
}

/* Removes dir/name when it is a regular file (catena writes nothing else); a missing one is
 * fine. */
static int remove_output(const char *dir, const char *name, struct catena_error *err)
{
    char *path = path_join(dir, name);
    struct stat st;
    if (!path)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    int rc = CATENA_OK;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && unlink(path) != 0 && errno != ENOENT)
        rc = error_set(err, CATENA_EFAIL, "%s: cannot remove the file of an earlier run: %s", path,
                       strerror(errno));
    free(path);
    return rc;
}

/* Removes the earlier files, then the earlier manifests this one replaces (not this one:
 * the running one is already in its place), and frames/ when that leaves it empty. */
static int remove_old(const struct rundir_writer *w, const struct names *old, const char **man,
                      size_t nman, struct catena_error *err)
{
    for (size_t i = 0; i < old->n; i++)
        if (strcmp(old->v[i], w->manifest) != 0 && remove_output(w->dir, old->v[i], err))
            return err->code;
    for (size_t i = 0; i < nman; i++)
        if (strcmp(man[i], w->manifest) != 0 && remove_output(w->dir, man[i], err))
            return err->code;
    char *frames = path_join(w->dir, "frames");
    if (frames)
        rmdir(frames); /* only when empty; a user's files keep it */
    free(frames);
    return CATENA_OK;
}

/* Whether name is a temporary in the form earlier versions of catena gave them
 * (".NAME.tmp.PID", NAME one of catena's outputs or frames) of a process that is gone: runs
 * killed before an upgrade left those for good. */
static int old_temporary(const char *dir, const char *name)
{
    const char *mark = strstr(name, ".tmp.");
    if (name[0] != '.' || !mark || strspn(mark + 5, "0123456789") != strlen(mark + 5) || !mark[5] ||
        mark - name > 64)
        return 0;
    char base[80];
    snprintf(base, sizeof base, "%.*s", (int)(mark - name - 1), name + 1);
    const long pid = strtol(mark + 5, NULL, 10);
    if (!rundir_is_output(base) && strncmp(base, "frame-", 6) != 0)
        return 0;
    if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM)
        return 0;
    char *path = path_join(dir, name);
    struct stat st;
    const int ours = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
    free(path);
    return ours;
}

/* Removes the temporaries in the earlier form that processes which died left in dir. */
static int remove_old_temporaries(const char *dir, struct catena_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return CATENA_OK;
    int rc = CATENA_OK;
    for (struct dirent *e; rc == CATENA_OK && (e = readdir(d));)
        if (old_temporary(dir, e->d_name) && unlinkat(dirfd(d), e->d_name, 0) != 0 &&
            errno != ENOENT)
            rc = error_set(err, CATENA_EFAIL, "%s/%s: cannot remove a stale temporary file: %s",
                           dir, e->d_name, strerror(errno));
    closedir(d);
    return rc;
}

/* Removes the temporaries that processes which died left in dir and dir/frames. */
static int remove_stale(const char *dir, struct catena_error *err)
{
    long removed;
    char *frames = path_join(dir, "frames");
    int rc = frames ? outfile_remove_stale(dir, &removed, err)
                    : error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    if (rc == CATENA_OK)
        rc = outfile_remove_stale(frames, &removed, err);
    if (rc == CATENA_OK)
        rc = remove_old_temporaries(dir, err);
    if (rc == CATENA_OK)
        rc = remove_old_temporaries(frames, err);
    free(frames);
    return rc;
}

int rundir_begin(struct rundir_writer *w, const char *dir, const char *manifest,
                 const char *const *planned, size_t nplanned, const cJSON *head,
                 struct catena_error *err)
{
    *w = (struct rundir_writer){.dir = strdup(dir), .manifest = manifest};
    const char *man[2];
    const size_t nman = replaced(manifest, man);
    struct names old = {0}, pending = {0};
    int rc = w->dir ? outfile_mkdirs(dir, err) : error_set(err, CATENA_EFAIL, "out of memory");
    new_id(w->id);
    for (size_t i = 0; i < nman && rc == CATENA_OK; i++)
        if (old_names(dir, man[i], &old) || (i > 0 && names_add(&old, man[i])))
            rc = error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    for (size_t i = 0; i < old.n + nplanned && rc == CATENA_OK; i++)
        if (names_add(&pending, i < old.n ? old.v[i] : planned[i - old.n]))
            rc = error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    names_sort(&old);
    names_sort(&pending);
    if (rc == CATENA_OK)
        rc = write_running(w, head, &pending, err);
    if (rc == CATENA_OK)
        rc = remove_old(w, &old, man, nman, err);
    if (rc == CATENA_OK)
        rc = remove_stale(dir, err);
    if (rc == CATENA_OK && (rc = outfile_journal_start(&w->j, dir, err)) == CATENA_OK)
        w->recording = 1;
    names_free(&old);
    names_free(&pending);
    return rc;
}

void rundir_pause(struct rundir_writer *w)
{
    if (w->recording)
        outfile_journal_stop(&w->j);
    w->recording = 0;
}

struct rundir *rundir_written(const struct rundir_writer *w)
{
    struct rundir *rd = calloc(1, sizeof *rd);
    if (!rd)
        return NULL;
    *rd = (struct rundir){.dir = strdup(w->dir),
                          .manifest = w->manifest,
                          .id = strdup(w->id),
                          .status = strdup("running"),
                          .verified = 1};
    rd->files = calloc(w->j.n ? w->j.n : 1, sizeof *rd->files);
    int ok = rd->dir && rd->id && rd->status && rd->files;
    for (size_t i = 0; ok && i < w->j.n; i++) {
        const struct outfile_entry *e = &w->j.entries[i];
        struct rundir_file *f = &rd->files[rd->nfiles];
        if (!(f->name = strdup(e->name)))
            ok = 0;
        f->size = e->size;
        memcpy(f->sha256, e->sha256, SHA256_HEX_SIZE);
        rd->nfiles += ok;
    }
    if (!ok) {
        rundir_close(rd);
        return NULL;
    }
    return rd;
}

/* "files": the journal's entries, a later commit of a name replacing an earlier one. */
static cJSON *files_json(const struct outfile_journal *j)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < j->n; i++) {
        const struct outfile_entry *e = &j->entries[i];
        size_t k = i + 1;
        while (k < j->n && strcmp(j->entries[k].name, e->name) != 0)
            k++;
        if (k < j->n)
            continue; /* committed again later */
        cJSON *f = cJSON_CreateObject();
        if (!f || !cJSON_AddItemToArray(a, f)) {
            cJSON_Delete(f);
            f = NULL;
        }
        if (!f || !cJSON_AddStringToObject(f, "name", e->name) ||
            !json_out_add_number(f, "size", (double)e->size) ||
            !cJSON_AddStringToObject(f, "sha256", e->sha256)) {
            cJSON_Delete(a);
            a = NULL;
        }
    }
    return a;
}

int rundir_finish(struct rundir_writer *w, cJSON *root, struct catena_error *err)
{
    rundir_pause(w);
    cJSON *files = files_json(&w->j);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "run_id");
    cJSON_DeleteItemFromObjectCaseSensitive(root, "files");
    cJSON_DeleteItemFromObjectCaseSensitive(root, "pending");
    int ok = files && cJSON_AddStringToObject(root, "run_id", w->id);
    if (ok && cJSON_AddItemToObject(root, "files", files))
        files = NULL;
    else
        ok = 0;
    cJSON_Delete(files);
    if (!ok)
        return error_set(err, CATENA_EFAIL, "%s/%s: out of memory", w->dir, w->manifest);
    return json_out_write(w->dir, w->manifest, root, err);
}

void rundir_writer_free(struct rundir_writer *w)
{
    rundir_pause(w);
    outfile_journal_free(&w->j);
    free(w->dir);
    *w = (struct rundir_writer){0};
}
