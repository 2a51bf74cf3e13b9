/* Output files that appear under their final name only when complete: written to a
 * temporary name in the same directory, flushed, and renamed by outfile_commit.
 *
 * Glossary:
 *   temporary  ".NAME.catena.tmp.PID.RANDOM" beside NAME, created exclusively (never through
 *              a symlink, never an existing file); outfile_remove_stale finds those of
 *              processes that died.
 *   journal    while one is started for a directory, every file committed in it (or in a
 *              folder below it) is recorded with its size and SHA-256: the manifest of a run
 *              directory (io/rundir.h) is made from it. */
#ifndef CATENA_OUTFILE_H
#define CATENA_OUTFILE_H

#include <stdio.h>

#include "core/error.h"
#include "core/sha256_hex.h"

struct outfile {
    FILE *fp;
    char *path; /* final path */
    char *tmp;  /* temporary path, ".NAME.catena.tmp.PID.RANDOM" in the same directory */
    int nosync; /* 1: commit skips fsync (set after outfile_open): for long sequences of
                   small files, such as frames, where syncing each costs more than making it */
};

/* Opens DIR/NAME for writing under a new temporary name, created with O_EXCL and
 * O_NOFOLLOW: a file or symlink already at a name is never opened, another name is drawn. */
int outfile_open(struct outfile *f, const char *dir, const char *name, struct catena_error *err);

/* Flushes, checks every write succeeded, closes and renames into place (a symlink at the
 * final name is replaced, never followed). On failure the temporary file is removed and no
 * file appears under the final name. */
int outfile_commit(struct outfile *f, struct catena_error *err);

/* ENOENT once f's temporary file has been deleted (its directory removed mid-run), after
 * which it can never be committed; 0 while it is still there. */
int outfile_lost(const struct outfile *f);

/* What a write error e means in a message: strerror(e), except that ENOENT, which a
 * write never gives, is outfile_lost's. */
const char *outfile_strerror(int e);

/* 1 when err is about a file outfile_lost found deleted: its directory is being removed, and
 * nothing more should be written there (a file made now would keep the directory alive). */
int outfile_error_lost(const struct catena_error *err);

/* Closes and removes the temporary file; safe on a file never opened or already done. */
void outfile_abort(struct outfile *f);

/* Creates DIR and its parents as needed. */
int outfile_mkdirs(const char *dir, struct catena_error *err);

/* 1 when NAME (a directory entry) is an outfile temporary; *pid gets the process that made
 * it. */
int outfile_is_temporary(const char *name, long *pid);

/* Removes from DIR the temporaries of processes that are gone (regular files of this user
 * only; a missing DIR is no error). Call it holding DIR's lock (core/dirlock.h), so that no
 * live writer's file can be taken for a dead one's. *removed counts them. */
int outfile_remove_stale(const char *dir, long *removed, struct catena_error *err);

/* One file a journal recorded. */
struct outfile_entry {
    char *name;                   /* relative to the journal's directory ("frames/x.png") */
    unsigned long long size;      /* bytes */
    char sha256[SHA256_HEX_SIZE]; /* of the bytes committed */
};

struct outfile_journal {
    char *dir; /* slashes collapsed, none at the end */
    struct outfile_entry *entries;
    size_t n, cap;
    int error; /* an errno value when an entry could not be recorded (then commit failed) */
};

/* Starts recording the commits under dir into j (one journal at a time in a process: the
 * writers of catena commit from one thread). */
int outfile_journal_start(struct outfile_journal *j, const char *dir, struct catena_error *err);

/* Stops recording; the entries stay in j. A journal not started is a no-op. */
void outfile_journal_stop(struct outfile_journal *j);

/* Stops and frees the entries. */
void outfile_journal_free(struct outfile_journal *j);

#endif
