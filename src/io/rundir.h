/* A run directory holds one run: summary.json lists the files the run wrote (its manifest),
 * render.json the frames drawn into the directory, and readers take only the files listed,
 * after checking each is the one listed. A new writer removes what the previous one listed
 * before it writes anything, and says "running" until it is done.
 *
 * Glossary:
 *   manifest  a JSON file of the directory (summary.json for the run, render.json for the
 *             frames) with "run_id", "status" and "files": [{"name", "size", "sha256"}] (the
 *             complete files, names relative to the directory), and, while its writer
 *             works, "pending": the names it may leave behind if it is killed.
 *   running   the status a manifest has from the moment its writer starts (written first,
 *             atomically) until it ends; readers refuse it.
 *   listed    a file named in "files"; readers read nothing else, and check its size when
 *             they open the directory and its SHA-256 when they take the file.
 *   catena's  a name catena writes (rundir_is_output): the only names a new writer removes,
 *             so a file catena did not write is never deleted, whatever a manifest says. */
#ifndef CATENA_RUNDIR_H
#define CATENA_RUNDIR_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/outfile.h"
#include "core/sha256_hex.h"

#define RUNDIR_SUMMARY "summary.json"
#define RUNDIR_RENDER "render.json"

/* A listed file. */
struct rundir_file {
    char *name; /* relative: "trajectory.csv", "frames/frame-000000.png" */
    unsigned long long size;
    char sha256[SHA256_HEX_SIZE];
    int checked; /* its SHA-256 was found to match */
};

/* A manifest read back, or the files a writer of this process has committed so far. */
struct rundir {
    char *dir;
    const char *manifest; /* RUNDIR_SUMMARY or RUNDIR_RENDER */
    char *id;             /* run_id */
    char *status;         /* "ok", "diverged", "interrupted", ... */
    struct rundir_file *files;
    size_t nfiles;
    cJSON *json;  /* the whole manifest as read; NULL for one made from a journal */
    int verified; /* 1: made from this process's own journal, files taken without re-hashing */
};

/* Opens dir's summary.json for reading. CATENA_EINPUT (exit 2) when it is missing, not a
 * regular file, not a manifest, "running" or "failed", or a listed file is missing, is not a
 * regular file or has another size; the message says which and what to do. */
int rundir_open(const char *dir, struct rundir **out, struct catena_error *err);

/* As rundir_open for any manifest of dir (RUNDIR_SUMMARY or RUNDIR_RENDER); with
 * any_status = 1 a "running" or "failed" manifest is opened too (for sweep collect, which
 * reports such runs rather than reading them). */
int rundir_open_manifest(const char *dir, const char *manifest, int any_status, struct rundir **out,
                         struct catena_error *err);

/* The listed file NAME, or NULL. */
const struct rundir_file *rundir_find(const struct rundir *rd, const char *name);

/* The path of listed file NAME (malloc'd), once its size and SHA-256 are checked against
 * the manifest (the SHA-256 once per rd: a second call only checks the size). NULL with
 * CATENA_EINPUT when it is not listed ("the run wrote no NAME") or does not match; with
 * CATENA_EFAIL when it cannot be read or a stop was requested. */
char *rundir_path(struct rundir *rd, const char *name, struct catena_error *err);

/* Frees rd; NULL is a no-op. */
void rundir_close(struct rundir *rd);

/* 1 when NAME (relative to a run directory) is one catena writes there. */
int rundir_is_output(const char *name);

/* ---- writing (io/rundir_write.c) ---- */

/* A manifest being written: its writer holds the directory's lock (core/dirlock.h). */
struct rundir_writer {
    char *dir;
    const char *manifest;     /* RUNDIR_SUMMARY or RUNDIR_RENDER */
    char id[33];              /* run_id: 128 random bits in hexadecimal */
    struct outfile_journal j; /* what has been committed */
    int recording;            /* the journal is started */
};

/* Starts a writer of manifest in dir (created if missing; the caller holds its lock): reads
 * what the manifests this one replaces list (summary.json replaces render.json too: the
 * frames of an earlier run belong to it), writes the manifest "running" with head's members
 * (NULL: none) and every name that may be left behind (those, and planned[0..nplanned), the
 * names this writer may write) as "pending", then removes the earlier files, the temporaries
 * of processes that died, and starts recording commits. Only catena's names are removed,
 * and only regular files. */
int rundir_begin(struct rundir_writer *w, const char *dir, const char *manifest,
                 const char *const *planned, size_t nplanned, const cJSON *head,
                 struct catena_error *err);

/* Stops recording (for a nested writer, such as the frames drawn by `run --render`); a
 * second call is a no-op. */
void rundir_pause(struct rundir_writer *w);

/* The files committed so far, as a verified struct rundir for a reader in this process
 * (status "running"); NULL when out of memory. */
struct rundir *rundir_written(const struct rundir_writer *w);

/* Stops recording and writes the final manifest: root's members (which must hold
 * "status"), then "run_id" and "files" (what was committed). root stays the caller's. */
int rundir_finish(struct rundir_writer *w, cJSON *root, struct catena_error *err);

/* Frees w (stops recording first); the manifest on disk stays as it is. */
void rundir_writer_free(struct rundir_writer *w);

#endif
