/* Run directories (io/rundir.h) and what they stand on: temporaries created exclusively under
 * names nobody can guess and recognised when their process is gone (core/outfile.h), the
 * journal of what was committed with sizes and hashes, the directory lock (core/dirlock.h),
 * the manifest a writer keeps ("running" first, earlier files removed, only catena's) and
 * the readers' checks (missing, running, failed, another size or hash, not a regular file).
 * The command line is tested in tests/rundir.sh. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/dirlock.h"
#include "core/outfile.h"
#include "core/readfile.h"
#include "core/sha256_hex.h"
#include "io/rundir.h"
#include "testutil.h"
#include "testutil_check.h"

/* A SHA-256 in hexadecimal that matches nothing here. */
#define SHA_ZERO "0000000000000000000000000000000000000000000000000000000000000000"

/* Writes text to DIR/name. */
static void put(const char *name, const char *text)
{
    char *p = tu_path(dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    free(p);
}

static int exists(const char *name)
{
    char *p = tu_path(dir, name);
    struct stat st;
    const int found = lstat(p, &st) == 0;
    free(p);
    return found;
}

/* The number of entries in dir that are outfile temporaries. */
static int temporaries(const char *d)
{
    DIR *dp = opendir(d);
    int n = 0;
    long pid;
    for (struct dirent *e; dp && (e = readdir(dp));)
        n += outfile_is_temporary(e->d_name, &pid);
    if (dp)
        closedir(dp);
    return n;
}

/* A process id that is no longer running: a child that has exited and been reaped. */
static long dead_pid(void)
{
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    return (long)pid;
}

START_TEST(test_temporary_names)
{
    long pid = 0;
    ck_assert(outfile_is_temporary(".trajectory.csv.catena.tmp.4242.0123456789abcdef", &pid));
    ck_assert_int_eq(pid, 4242);
    ck_assert(outfile_is_temporary(".a.catena.tmp.catena.tmp.1.0123456789abcdef", &pid));
    ck_assert_int_eq(pid, 1);
    /* the old predictable name, a user's file, a wrong random part: not catena's */
    ck_assert(!outfile_is_temporary(".trajectory.csv.tmp.4242", &pid));
    ck_assert(!outfile_is_temporary("trajectory.csv.catena.tmp.1.0123456789abcdef", &pid));
    ck_assert(!outfile_is_temporary("..catena.tmp.1.0123456789abcdef", &pid));
    ck_assert(!outfile_is_temporary(".x.catena.tmp.1.0123456789abcdeg", &pid));
    ck_assert(!outfile_is_temporary(".x.catena.tmp.1.0123456789abcdef0", &pid));
    ck_assert(!outfile_is_temporary(".x.catena.tmp..0123456789abcdef", &pid));

    /* Each open draws another name: 200 open at once, all different, all recognised, each a
     * regular file of this process. */
    struct outfile f[200];
    struct catena_error err;
    for (int i = 0; i < 200; i++)
        ck_assert_int_eq(outfile_open(&f[i], dir, "x.csv", &err), CATENA_OK);
    for (int i = 0; i < 200; i++) {
        const char *base = strrchr(f[i].tmp, '/') + 1;
        ck_assert(outfile_is_temporary(base, &pid));
        ck_assert_int_eq(pid, (long)getpid());
        struct stat st;
        ck_assert_int_eq(lstat(f[i].tmp, &st), 0);
        ck_assert(S_ISREG(st.st_mode));
        for (int k = 0; k < i; k++)
            ck_assert_str_ne(f[i].tmp, f[k].tmp);
    }
    for (int i = 0; i < 200; i++)
        outfile_abort(&f[i]);
    ck_assert_int_eq(temporaries(dir), 0);
}
END_TEST

/* A symlink put at the temporary name after it was made (an attacker who can list the
 * directory) is not renamed into place: the commit sees the name no longer holds its file. */
START_TEST(test_replaced_temporary)
{
    char *victim = tu_path(dir, "victim");
    put("victim", "precious\n");
    struct outfile f;
    struct catena_error err;
    ck_assert_int_eq(outfile_open(&f, dir, "out.csv", &err), CATENA_OK);
    fputs("data\n", f.fp);
    char *stolen = tu_path(dir, "stolen");
    ck_assert_int_eq(rename(f.tmp, stolen), 0); /* moved away, so still linked */
    ck_assert_int_eq(symlink(victim, f.tmp), 0);
    free(stolen);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_EFAIL);
    ck_assert_msg(strstr(err.msg, "out.csv: the temporary file was replaced by another"), "%s",
                  err.msg);
    ck_assert(!exists("out.csv"));
    char *text = tu_read_file(victim, NULL);
    ck_assert_str_eq(text, "precious\n");
    free(text);
    free(victim);
}
END_TEST

/* Temporaries of processes that died go; those of live ones, symlinks and other names stay. */
START_TEST(test_remove_stale)
{
    char name[128];
    const long gone = dead_pid();
    snprintf(name, sizeof name, ".trajectory.csv.catena.tmp.%ld.00000000000000aa", gone);
    put(name, "half a run");
    char *target = tu_path(dir, "target");
    put("target", "keep");
    snprintf(name, sizeof name, ".link.catena.tmp.%ld.00000000000000bb", gone);
    char *link = tu_path(dir, name);
    ck_assert_int_eq(symlink(target, link), 0);
    snprintf(name, sizeof name, ".live.catena.tmp.%ld.00000000000000cc", (long)getpid());
    put(name, "being written");
    put(".trajectory.csv.tmp.1", "not in catena's pattern");
    long removed = -1;
    struct catena_error err;
    ck_assert_int_eq(outfile_remove_stale(dir, &removed, &err), CATENA_OK);
    ck_assert_int_eq(removed, 1);
    ck_assert_int_eq(temporaries(dir), 2); /* the symlink and the live one */
    ck_assert(exists(".trajectory.csv.tmp.1"));
    ck_assert(exists("target"));
    /* a missing directory has nothing stale */
    char *missing = tu_path(dir, "missing");
    ck_assert_int_eq(outfile_remove_stale(missing, &removed, &err), CATENA_OK);
    ck_assert_int_eq(removed, 0);
    free(missing);
    free(link);
    free(target);
}
END_TEST

/* The journal records what is committed under its directory (sub-folders too), with the
 * size and SHA-256 of the bytes committed; nothing outside it, nothing aborted. */
START_TEST(test_journal)
{
    struct outfile_journal j;
    struct outfile f;
    struct catena_error err;
    char *sub = tu_path(dir, "frames"), *slashed = NULL;
    ck_assert_int_eq(mkdir(sub, 0777), 0);
    ck_assert_int_eq(outfile_journal_start(&j, sub, &err), CATENA_OK);
    outfile_journal_stop(&j);
    outfile_journal_free(&j);
    slashed = malloc(strlen(dir) + 3);
    sprintf(slashed, "%s//", dir); /* however the directory is spelt */
    ck_assert_int_eq(outfile_journal_start(&j, slashed, &err), CATENA_OK);
    static const char text[] = "step,x\n0,1.5\n";
    ck_assert_int_eq(outfile_open(&f, dir, "a.csv", &err), CATENA_OK);
    fputs(text, f.fp);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_OK);
    ck_assert_int_eq(outfile_open(&f, sub, "b.png", &err), CATENA_OK);
    fputs("png", f.fp);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_OK);
    ck_assert_int_eq(outfile_open(&f, dir, "aborted.csv", &err), CATENA_OK);
    outfile_abort(&f);
    char *outside = tu_tmpdir();
    ck_assert_int_eq(outfile_open(&f, outside, "x.csv", &err), CATENA_OK);
    fputs("x", f.fp);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_OK);
    tu_rmtree(outside);
    free(outside);
    outfile_journal_stop(&j);
    ck_assert_int_eq(outfile_open(&f, dir, "after.csv", &err), CATENA_OK);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_OK);

    ck_assert_uint_eq(j.n, 2);
    char hex[SHA256_HEX_SIZE];
    sha256_hex(text, strlen(text), hex);
    ck_assert_str_eq(j.entries[0].name, "a.csv");
    ck_assert_uint_eq(j.entries[0].size, strlen(text));
    ck_assert_str_eq(j.entries[0].sha256, hex);
    ck_assert_str_eq(j.entries[1].name, "frames/b.png");
    ck_assert_uint_eq(j.entries[1].size, 3);
    outfile_journal_free(&j);
    free(slashed);
    free(sub);
}
END_TEST

START_TEST(test_sha256_fd)
{
    /* FIPS 180-2's "abc", and a file larger than one read */
    put("abc", "abc");
    char *p = tu_path(dir, "abc"), hex[SHA256_HEX_SIZE];
    unsigned long long size = 0;
    int fd = open(p, O_RDONLY);
    ck_assert_int_eq(sha256_hex_fd(fd, 1, &size, hex), 0);
    close(fd);
    ck_assert_uint_eq(size, 3);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const size_t n = 3 << 20;
    char *big = malloc(n + 1), want[SHA256_HEX_SIZE];
    for (size_t i = 0; i < n; i++)
        big[i] = (char)('a' + i % 23);
    big[n] = '\0';
    put("big", big);
    sha256_hex(big, n, want);
    free(p);
    p = tu_path(dir, "big");
    fd = open(p, O_RDONLY);
    ck_assert_int_eq(sha256_hex_fd(fd, 1, &size, hex), 0);
    close(fd);
    ck_assert_uint_eq(size, n);
    ck_assert_str_eq(hex, want);
    free(big);
    free(p);
}
END_TEST

/* readfile_regular never reads a FIFO (it would wait), a device or a symlink. */
START_TEST(test_readfile_regular)
{
    char *fifo = tu_path(dir, "fifo"), *link = tu_path(dir, "link"), *big = tu_path(dir, "big");
    ck_assert_int_eq(mkfifo(fifo, 0666), 0);
    ck_assert_int_eq(symlink("/dev/zero", link), 0);
    put("big", "0123456789");
    size_t len;
    int e = 0;
    ck_assert_ptr_null(readfile_regular(fifo, 100, &len, &e));
    ck_assert_int_eq(e, EINVAL);
    ck_assert_str_eq(readfile_strerror(e), "not a regular file");
    ck_assert_ptr_null(readfile_regular("/dev/zero", 100, &len, &e));
    ck_assert_int_eq(e, EINVAL);
    ck_assert_ptr_null(readfile_regular(link, 100, &len, &e));
    ck_assert_int_eq(e, ELOOP);
    ck_assert_ptr_null(readfile_regular(big, 9, &len, &e));
    ck_assert_int_eq(e, EFBIG);
    char *text = readfile_regular(big, 10, &len, &e);
    ck_assert_str_eq(text, "0123456789");
    free(text);
    free(fifo);
    free(link);
    free(big);
}
END_TEST

START_TEST(test_dirlock)
{
    struct dirlock a, b;
    struct catena_error err;
    ck_assert(!dirlock_held(dir));
    ck_assert_int_eq(dirlock_take(&a, dir, &err), CATENA_OK);
    ck_assert(dirlock_held(dir));
    /* a second taker (here another open file of this process) is refused, exit 2 */
    ck_assert_int_eq(dirlock_take(&b, dir, &err), CATENA_EINPUT);
    char want[4300];
    snprintf(want, sizeof want, "%s: another catena holds this directory", dir);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
    dirlock_release(&b); /* not held: a no-op */
    dirlock_release(&a);
    ck_assert(!exists(DIRLOCK_NAME));
    ck_assert(!dirlock_held(dir));
    ck_assert_int_eq(dirlock_take(&b, dir, &err), CATENA_OK);
    dirlock_release(&b);
    /* a symlink at the lock's name locks nothing elsewhere */
    char *lock = tu_path(dir, DIRLOCK_NAME), *target = tu_path(dir, "target");
    put("target", "");
    ck_assert_int_eq(symlink(target, lock), 0);
    ck_assert_int_eq(dirlock_take(&a, dir, &err), CATENA_EINPUT);
    ck_assert_msg(strstr(err.msg, "not a regular file"), "%s", err.msg);
    free(lock);
    free(target);
}
END_TEST

/* The message rundir_open gives for dir, or "" when it opens. */
static const char *open_message(void)
{
    static struct catena_error err;
    struct rundir *rd = NULL;
    error_clear(&err);
    if (rundir_open(dir, &rd, &err) == CATENA_OK) {
        rundir_close(rd);
        return "";
    }
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    return err.msg;
}

static void expect_refused(const char *text)
{
    const char *msg = open_message();
    ck_assert_msg(strstr(msg, text), "'%s' lacks '%s'", msg, text);
}

START_TEST(test_readers_refuse)
{
    static const char *const names[] = {"trajectory.csv"};
    expect_refused("no summary.json: not a run directory");
    put("summary.json", "{\"status\": \"ok\"}");
    expect_refused("summary.json: no manifest");
    put("trajectory.csv", "step,time,point,x,y\n0,0,0,1,2\n");
    tu_write_manifest(dir, "running", names, 1);
    expect_refused("the run did not finish (summary.json says \"running\"");
    tu_write_manifest(dir, "failed", names, 1);
    expect_refused("the run failed (summary.json says \"failed\")");
    tu_write_manifest(dir, "ok", names, 1);
    ck_assert_str_eq(open_message(), "");

    /* the same size, another byte: the hash tells, when the file is taken */
    put("trajectory.csv", "step,time,point,x,y\n0,0,0,1,3\n");
    struct rundir *rd;
    struct catena_error err;
    ck_assert_int_eq(rundir_open(dir, &rd, &err), CATENA_OK);
    ck_assert_ptr_null(rundir_path(rd, "trajectory.csv", &err));
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_msg(strstr(err.msg, "its SHA-256 is not the one summary.json lists"), "%s", err.msg);
    ck_assert_ptr_null(rundir_path(rd, "metrics.csv", &err));
    ck_assert_msg(strstr(err.msg, "the run wrote no metrics.csv (summary.json lists none)"), "%s",
                  err.msg);
    rundir_close(rd);

    /* another size (a manifest that lies), missing, not a regular file */
    put("trajectory.csv", "step,time,point,x,y\n");
    expect_refused("trajectory.csv holds 20 bytes, summary.json lists 30");
    char *traj = tu_path(dir, "trajectory.csv");
    ck_assert_int_eq(unlink(traj), 0);
    expect_refused("summary.json lists trajectory.csv, which is missing");
    ck_assert_int_eq(mkfifo(traj, 0666), 0);
    expect_refused("trajectory.csv is not a regular file");
    ck_assert_int_eq(unlink(traj), 0);
    ck_assert_int_eq(symlink("/dev/zero", traj), 0);
    expect_refused("trajectory.csv is not a regular file");
    free(traj);

    /* summary.json itself: a FIFO (no wait), /dev/zero (no read) */
    char *summary = tu_path(dir, "summary.json");
    ck_assert_int_eq(unlink(summary), 0);
    ck_assert_int_eq(mkfifo(summary, 0666), 0);
    expect_refused("summary.json: not a regular file");
    ck_assert_int_eq(unlink(summary), 0);
    ck_assert_int_eq(symlink("/dev/zero", summary), 0);
    expect_refused("summary.json: a symbolic link");
    ck_assert_int_eq(unlink(summary), 0);
    free(summary);

    /* a name outside the directory is no file of the run */
    put("summary.json", "{\"run_id\": \"x\", \"status\": \"ok\", \"files\": [{\"name\": "
                        "\"../escape\", \"size\": 0, \"sha256\": \"" SHA_ZERO "\"}]}");
    expect_refused("files[0].name: expected the name of a file in the directory");
}
END_TEST

START_TEST(test_outputs)
{
    ck_assert(rundir_is_output("trajectory.npy"));
    ck_assert(rundir_is_output("model.json"));
    ck_assert(rundir_is_output("frames/frame-000012.png"));
    ck_assert(rundir_is_output("frames/frame-1234567.png"));
    ck_assert(rundir_is_output("render.json"));
    ck_assert(!rundir_is_output("summary.json")); /* replaced, never removed */
    ck_assert(!rundir_is_output("frames/frame-12.png"));
    ck_assert(!rundir_is_output("frames/frame-000012.png.bak"));
    ck_assert(!rundir_is_output("notes.txt"));
    ck_assert(!rundir_is_output("../trajectory.csv"));
    ck_assert(!rundir_is_output("/etc/passwd"));
}
END_TEST

/* A writer: "running" first with pending names; the earlier run's catena files and its
 * render's frames go; what catena did not write stays, whatever the manifest says. */
START_TEST(test_writer_replaces)
{
    char *frames = tu_path(dir, "frames");
    ck_assert_int_eq(mkdir(frames, 0777), 0);
    put("trajectory.npy", "old");
    put("metrics.csv", "old");
    put("notes.txt", "the user's");
    put("events.csv", "left by a killed run");
    put("frames/frame-000000.png", "old frame");
    put("frames/mine.png", "the user's");
    static const char *const listed[] = {"trajectory.npy", "metrics.csv", "notes.txt"};
    tu_write_manifest(dir, "ok", listed, 3);
    put("render.json", "{\"run_id\": \"r\", \"status\": \"running\", \"files\": [], \"pending\": "
                       "[\"frames/frame-000000.png\", \"../../escape\"]}");

    struct rundir_writer w;
    struct catena_error err;
    static const char *const planned[] = {"trajectory.csv", "events.csv"};
    ck_assert_int_eq(rundir_begin(&w, dir, RUNDIR_SUMMARY, planned, 2, NULL, &err), CATENA_OK);
    ck_assert(!exists("trajectory.npy"));
    ck_assert(!exists("metrics.csv"));
    ck_assert(!exists("frames/frame-000000.png"));
    ck_assert(!exists("render.json"));
    ck_assert(exists("notes.txt"));       /* listed, but not a name catena writes */
    ck_assert(exists("frames/mine.png")); /* frames/ stays for it */
    ck_assert(exists("events.csv"));      /* not listed: not the earlier run's */

    /* the running manifest: readers refuse it, and it lists what may be left */
    expect_refused("says \"running\"");
    char *path = tu_path(dir, "summary.json"), *text = tu_read_file(path, NULL);
    ck_assert_ptr_nonnull(strstr(text, "\"pending\""));
    ck_assert_ptr_nonnull(strstr(text, "\"trajectory.npy\""));
    ck_assert_ptr_nonnull(strstr(text, "\"trajectory.csv\""));
    ck_assert_ptr_null(strstr(text, "notes.txt"));
    ck_assert_ptr_null(strstr(text, "escape"));
    free(text);

    /* what is committed meanwhile is listed at the end, and readers take it */
    struct outfile f;
    ck_assert_int_eq(outfile_open(&f, dir, "trajectory.csv", &err), CATENA_OK);
    fputs("step,time,point,x,y\n0,0,0,1,2\n", f.fp);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_OK);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "status", "ok");
    ck_assert_int_eq(rundir_finish(&w, root, &err), CATENA_OK);
    cJSON_Delete(root);
    rundir_writer_free(&w);
    struct rundir *rd;
    ck_assert_int_eq(rundir_open(dir, &rd, &err), CATENA_OK);
    ck_assert_uint_eq(rd->nfiles, 1);
    ck_assert_str_eq(rd->files[0].name, "trajectory.csv");
    char *traj = rundir_path(rd, "trajectory.csv", &err);
    ck_assert_msg(traj, "%s", err.msg);
    free(traj);
    rundir_close(rd);
    text = tu_read_file(path, NULL);
    ck_assert_ptr_null(strstr(text, "\"pending\""));
    free(text);
    free(path);
    free(frames);
}
END_TEST

/* A writer killed after its running manifest: the next one removes what it may have left. */
START_TEST(test_writer_after_kill)
{
    struct rundir_writer w;
    struct catena_error err;
    static const char *const planned[] = {"trajectory.csv", "scenario.json"};
    ck_assert_int_eq(rundir_begin(&w, dir, RUNDIR_SUMMARY, planned, 2, NULL, &err), CATENA_OK);
    struct outfile f;
    ck_assert_int_eq(outfile_open(&f, dir, "scenario.json", &err), CATENA_OK);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_OK);
    /* killed here: the journal dies with the process; summary.json still says running */
    rundir_writer_free(&w);
    char name[128];
    snprintf(name, sizeof name, ".trajectory.csv.catena.tmp.%ld.0123456789abcdef", dead_pid());
    put(name, "half");
    ck_assert_int_eq(rundir_begin(&w, dir, RUNDIR_SUMMARY, NULL, 0, NULL, &err), CATENA_OK);
    ck_assert(!exists("scenario.json"));
    ck_assert(!exists(name));
    rundir_writer_free(&w);
}
END_TEST

static Suite *rundir_suite(void)
{
    Suite *s = suite_create("rundir");
    TCase *c = tu_tcase(s, "outfile", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(c, test_temporary_names);
    tcase_add_test(c, test_replaced_temporary);
    tcase_add_test(c, test_remove_stale);
    tcase_add_test(c, test_journal);
    tcase_add_test(c, test_sha256_fd);
    tcase_add_test(c, test_readfile_regular);
    tcase_add_test(c, test_dirlock);
    c = tu_tcase(s, "manifest", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(c, test_readers_refuse);
    tcase_add_test(c, test_outputs);
    tcase_add_test(c, test_writer_replaces);
    tcase_add_test(c, test_writer_after_kill);
    return s;
}

int main(void)
{
    return tu_run(rundir_suite());
}
