/* A sweep for an existing job engine instead of this machine: jobs.txt holds one shell
 * command per run (`catena run ...`, absolute paths, quoted for sh), run-parallel.sh runs
 * it with GNU parallel, sweep.sbatch is a Slurm job array whose task i runs line i+1; after
 * either, `catena sweep collect DIR` judges the run directories and writes sweep.csv.
 * Both engines cut jobs.txt at newlines whatever the quotes say, so a word with a control
 * character (a newline in a value, a path or a name) is refused before anything is written:
 * quoted, it would split a run in two and run its second half as a command of its own. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/outfile.h"
#include "core/path.h"
#include "core/text.h"
#include "sweep/internal.h"

/* Characters that need no quoting in a sh word. */
static int sh_plain(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=,+:@%-", *s))
            return 0;
    return 1;
}

/* s as one sh word: as it is when plain, else in single quotes (a quote inside: '\''). */
static void sh_put(FILE *fp, const char *s)
{
    if (sh_plain(s)) {
        fputs(s, fp);
        return;
    }
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", fp);
        else
            fputc(*s, fp);
    }
    fputc('\'', fp);
}

/* The first control character in s (0 when there is none): the bytes a line of jobs.txt
 * cannot carry. */
static int control_byte(const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c < 0x20 || *c == 0x7F)
            return *c;
    return 0;
}

/* What word k of a run's command is, for the message that refuses it. */
static const char *word_name(char **argv, size_t k, const char *run_dir)
{
    if (k == 0)
        return "the catena program's path (--catena)";
    if (!strcmp(argv[k - 1], "--set"))
        return "the override";
    if (argv[k] == run_dir)
        return "the run's directory (-o)";
    return "the base scenario's path";
}

static int check_run_words(const struct sweep_plan *p, const char *dir, const char *program,
                           size_t i, struct catena_error *err)
{
    char *run_dir = NULL;
    char **argv = sweep_run_argv(p, dir, program, i, &run_dir);
    int rc = argv ? CATENA_OK : sweep_oom(err, p->sweep);
    for (size_t k = 0; rc == CATENA_OK && argv[k]; k++) {
        const int c = control_byte(argv[k]);
        if (c)
            rc = error_set(err, CATENA_EINPUT,
                           "%s: run %s: %s \"%.100s%s\" has a control character (0x%02X): "
                           "jobs.txt holds one command a line and cannot carry it (a sweep run "
                           "here, without --emit, can)",
                           p->sweep, p->runs[i].name, word_name(argv, k, run_dir), argv[k],
                           strlen(argv[k]) > 100 ? "..." : "", c);
    }
    free(argv);
    free(run_dir);
    return rc;
}

int sweep_check_lines(const struct sweep_plan *p, const char *dir, const char *program,
                      struct catena_error *err)
{
    for (size_t i = 0; i < p->nruns; i++)
        if (check_run_words(p, dir, program, i, err))
            return err->code;
    return CATENA_OK;
}

static int put_command(FILE *fp, const struct sweep_plan *p, const char *dir, const char *program,
                       size_t i)
{
    char *run_dir = NULL;
    char **argv = sweep_run_argv(p, dir, program, i, &run_dir);
    if (!argv)
        return -1;
    for (size_t k = 0; argv[k]; k++) {
        if (k)
            fputc(' ', fp);
        sh_put(fp, argv[k]);
    }
    free(argv);
    free(run_dir);
    return 0;
}

char *sweep_command(const struct sweep_plan *p, const char *dir, const char *program, size_t i)
{
    char *s = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&s, &len);
    if (!fp)
        return NULL;
    int bad = put_command(fp, p, dir, program, i);
    if (fclose(fp) != 0 || bad) {
        free(s);
        return NULL;
    }
    return s;
}

static int write_jobs(const struct sweep_plan *p, const char *dir, const char *program,
                      struct catena_error *err)
{
    struct outfile f;
    int rc = outfile_open(&f, dir, "jobs.txt", err);
    for (size_t i = 0; rc == CATENA_OK && i < p->nruns; i++) {
        if (put_command(f.fp, p, dir, program, i)) {
            outfile_abort(&f);
            return error_set(err, CATENA_EFAIL, "%s/jobs.txt: out of memory", dir);
        }
        fputc('\n', f.fp);
    }
    return rc == CATENA_OK ? outfile_commit(&f, err) : rc;
}

/* The sweep file's name without directory and .json, for job names. */
static void sweep_label(const struct sweep_plan *p, char *buf, size_t size)
{
    const char *slash = strrchr(p->sweep, '/'), *name = slash ? slash + 1 : p->sweep;
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, ".json") == 0)
        n -= 5;
    snprintf(buf, size, "%.*s", (int)n, name);
    for (char *c = buf; *c; c++)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *c))
            *c = '_';
}

static void put_parallel(FILE *fp, const struct sweep_plan *p, const char *dir, const char *program)
{
    char sweep[4096];
    fprintf(fp,
            "#!/bin/sh\n"
            "# The %zu runs of the catena sweep %s with GNU parallel, then sweep.csv:\n"
            "#   %s/run-parallel.sh [PARALLEL-OPTION]...     (e.g. --jobs 8)\n"
            "# parallel runs the lines of jobs.txt, one per CPU unless --jobs says otherwise,\n"
            "# and logs each one in joblog.txt; run this again and --resume-failed skips the\n"
            "# runs that succeeded and runs the failed ones again.\n"
            "# On many machines, each seeing this directory, the base scenario and catena at\n"
            "# the same paths (a shared file system), give parallel their ssh logins, one per\n"
            "# line of a file: add --sshloginfile to the command, or pass it as an option:\n"
            "#   --sshloginfile nodes.txt\n"
            "cd ",
            p->nruns, text_clean(sweep, sizeof sweep, p->sweep), dir);
    sh_put(fp, dir);
    fputs(" || exit 2\n"
          "parallel --will-cite --joblog joblog.txt --resume-failed \"$@\" :::: jobs.txt\n"
          "ran=$?\n",
          fp);
    sh_put(fp, program);
    fputs(" sweep collect ", fp);
    sh_put(fp, dir);
    fputs("\n"
          "collected=$?\n"
          "# collect's status says whether every run finished (0), some did not (1), or the\n"
          "# directory is not a sweep (2); parallel's counts the jobs that failed.\n"
          "[ $collected -ne 0 ] && exit $collected\n"
          "exit $ran\n",
          fp);
}

/* Slurm reads #SBATCH lines word by word and expands % in --output: the directory has to
 * be written there as it is. */
static int slurm_safe(const char *dir, struct catena_error *err)
{
    const char *bad = strpbrk(dir, " \t\n\r%'\"\\");
    if (bad)
        return error_set(err, CATENA_EINPUT,
                         "%s: --emit slurm: the directory's path has '%c', which #SBATCH "
                         "--output cannot carry (choose another -o)",
                         dir, *bad);
    return CATENA_OK;
}

static void put_slurm(FILE *fp, const struct sweep_plan *p, const char *dir, const char *program)
{
    char label[128], sweep[4096];
    sweep_label(p, label, sizeof label);
    fprintf(fp,
            "#!/bin/sh\n"
            "# The %zu runs of the catena sweep %s as a Slurm job array: task i runs\n"
            "# line i+1 of jobs.txt. Submit it, wait for it, and collect sweep.csv:\n"
            "#   sbatch --wait %s/sweep.sbatch; ",
            p->nruns, text_clean(sweep, sizeof sweep, p->sweep), dir);
    sh_put(fp, program);
    fprintf(fp, " sweep collect %s\n", dir);
    fprintf(fp,
            "# Each task's output goes to slurm/JOB_TASK.out. To run at most K tasks at once,\n"
            "# submit with --array=0-%zu%%K; an array longer than the cluster's MaxArraySize\n"
            "# (1001 by default) has to be split into several submissions.\n"
            "#SBATCH --job-name=catena-%s\n"
            "#SBATCH --array=0-%zu\n"
            "#SBATCH --ntasks=1\n"
            "#SBATCH --cpus-per-task=1\n"
            "#SBATCH --output=%s/slurm/%%A_%%a.out\n"
            "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" ",
            p->nruns - 1, label, p->nruns - 1, dir);
    char *jobs = path_join(dir, "jobs.txt");
    sh_put(fp, jobs ? jobs : "jobs.txt");
    free(jobs);
    fputs(")\n"
          "if [ -z \"$line\" ]; then\n"
          "    echo \"sweep.sbatch: no line $((SLURM_ARRAY_TASK_ID + 1)) in jobs.txt\" >&2\n"
          "    exit 2\n"
          "fi\n"
          "exec /bin/sh -c \"$line\"\n",
          fp);
}

static int write_script(const struct sweep_plan *p, enum sweep_engine engine, const char *dir,
                        const char *program, struct catena_error *err)
{
    const char *name = engine == SWEEP_SLURM ? "sweep.sbatch" : "run-parallel.sh";
    struct outfile f;
    int rc = outfile_open(&f, dir, name, err);
    if (rc)
        return rc;
    if (engine == SWEEP_SLURM)
        put_slurm(f.fp, p, dir, program);
    else
        put_parallel(f.fp, p, dir, program);
    if ((rc = outfile_commit(&f, err)))
        return rc;
    char *path = path_join(dir, name);
    if (!path)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    if (chmod(path, 0755) != 0)
        rc = error_set(err, CATENA_EFAIL, "%s: cannot make it executable: %s", path,
                       strerror(errno));
    free(path);
    return rc;
}

int sweep_emit(const struct sweep_plan *p, enum sweep_engine engine, const char *dir,
               const char *program, struct catena_error *err)
{
    char *abs = NULL, *logs = NULL;
    /* Checked as given before anything is made, and again once absolute (the current
     * directory's path is part of the lines too). */
    int rc = sweep_check_lines(p, dir, program, err);
    if (rc || (rc = outfile_mkdirs(dir, err)))
        return rc;
    if (!(abs = realpath(dir, NULL)))
        return error_set(err, CATENA_EFAIL, "%s: cannot resolve: %s", dir, strerror(errno));
    if ((rc = sweep_check_lines(p, abs, program, err)) ||
        (engine == SWEEP_SLURM && (rc = slurm_safe(abs, err))))
        goto done;
    /* Slurm does not create the directory of --output, and a task without it fails. */
    if (engine == SWEEP_SLURM &&
        (!(logs = path_join(abs, "slurm")) || (rc = outfile_mkdirs(logs, err)))) {
        if (!logs)
            rc = error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
        goto done;
    }
    if ((rc = sweep_plan_write(p, abs, err)) || (rc = write_jobs(p, abs, program, err)))
        goto done;
    rc = write_script(p, engine, abs, program, err);
done:
    free(logs);
    free(abs);
    return rc;
}
