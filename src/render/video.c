/* Videos through ffmpeg (render/video.h). The encoders are those of Debian's ffmpeg: H.264
 * (libx264) in MP4 and VP9 (libvpx) in WebM, both 4:2:0 so that every player takes them, the
 * frame padded to even sides as 4:2:0 needs; GIF through a palette made for the whole clip
 * (palettegen, paletteuse), far better than the fixed 256 colours. Metadata that would carry
 * a date or a version is left out (-bitexact, -map_metadata -1). While frames are piped,
 * SIGPIPE is ignored so that an ffmpeg that stops shows as a failed write, not as catena's
 * death. */
#define _POSIX_C_SOURCE 200809L
#include "render/video.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/outfile.h"

struct render_video {
    char *path;         /* as the caller named it, for messages */
    struct outfile out; /* the temporary file ffmpeg writes, renamed at the end */
    pid_t pid;
    int fd;     /* ffmpeg's standard input */
    int broken; /* a frame could not be sent: never committed */
    size_t frame_bytes;
    struct sigaction old_pipe;
};

/* The container for path's extension ("mp4", "webm", "gif"), or NULL. */
static const char *container(const char *path)
{
    static const char *const kinds[] = {"mp4", "webm", "gif"};
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(dot + 1, kinds[i]) == 0)
            return kinds[i];
    return NULL;
}

/* ffmpeg's path on PATH into buf; 0, or -1 when it is not there. */
static int find_ffmpeg(char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (const char *p = path;; p += strcspn(p, ":") + 1) {
        const int n = (int)strcspn(p, ":");
        struct stat st;
        snprintf(buf, size, "%.*s%sffmpeg", n, n ? p : ".", "/");
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
            return 0;
        if (p[n] == '\0')
            return -1;
    }
}

int render_video_check(const char *path, struct catena_error *err)
{
    char ffmpeg[4096];
    if (!container(path))
        return error_set(err, CATENA_EINPUT,
                         "%s: --video: expected a file ending in .mp4, .webm or .gif", path);
    if (find_ffmpeg(ffmpeg, sizeof ffmpeg))
        return error_set(err, CATENA_EFAIL,
                         "%s: --video needs ffmpeg, which is not on PATH: install the Debian "
                         "package %s (apt-get install %s)",
                         path, RENDER_VIDEO_PACKAGE, RENDER_VIDEO_PACKAGE);
    return CATENA_OK;
}

/* The argument vector for the container kind: input, codec, output to tmp. Strings live in
 * the caller's buffers size and rate. */
static void ffmpeg_args(const char *argv[40], const char *ffmpeg, const char *kind,
                        const char *size, const char *rate, const char *tmp)
{
    static const char *const even = "pad=ceil(iw/2)*2:ceil(ih/2)*2";
    const char *head[] = {ffmpeg,     "-hide_banner",  "-nostats", "-loglevel", "error",
                          "-f",       "rawvideo",      "-pix_fmt", "rgba",      "-video_size",
                          size,       "-framerate",    rate,       "-i",        "pipe:0",
                          "-an",      "-map_metadata", "-1",       "-fflags",   "+bitexact",
                          "-flags:v", "+bitexact"};
    const char *mp4[] = {"-vf",  even, "-c:v",     "libx264", "-preset",   "medium",
                         "-crf", "18", "-pix_fmt", "yuv420p", "-movflags", "+faststart"};
    const char *webm[] = {"-vf",  even, "-c:v",    "libvpx-vp9", "-crf",     "30",
                          "-b:v", "0",  "-row-mt", "1",          "-pix_fmt", "yuv420p"};
    const char *gif[] = {"-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0"};
    size_t n = 0;
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        argv[n++] = head[i];
    const char **codec = !strcmp(kind, "mp4") ? mp4 : !strcmp(kind, "webm") ? webm : gif;
    const size_t nc = !strcmp(kind, "mp4")    ? sizeof mp4 / sizeof *mp4
                      : !strcmp(kind, "webm") ? sizeof webm / sizeof *webm
                                              : sizeof gif / sizeof *gif;
    for (size_t i = 0; i < nc; i++)
        argv[n++] = codec[i];
    argv[n++] = "-y";
    argv[n++] = "-f";
    argv[n++] = kind;
    argv[n++] = tmp;
    argv[n] = NULL;
}

/* Starts ffmpeg with argv, its standard input the read end of a new pipe; the write end is
 * left in v->fd, close-on-exec so that ffmpeg sees the end of its input when catena closes
 * it. */
static int spawn(struct render_video *v, const char *const *argv, struct catena_error *err)
{
    int fds[2];
    if (pipe(fds) != 0)
        return error_set(err, CATENA_EFAIL, "%s: cannot make a pipe to ffmpeg: %s", v->path,
                         strerror(errno));
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    const pid_t pid = fork();
    if (pid == 0) {
        /* only async-signal-safe calls between fork and exec */
        if (dup2(fds[0], STDIN_FILENO) < 0)
            _exit(127);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    const int e = errno;
    close(fds[0]);
    if (pid < 0) {
        close(fds[1]);
        return error_set(err, CATENA_EFAIL, "%s: cannot start ffmpeg: %s", v->path, strerror(e));
    }
    v->pid = pid;
    v->fd = fds[1];
    return CATENA_OK;
}

struct render_video *render_video_open(const char *path, int width, int height, double fps,
                                       struct catena_error *err)
{
    char ffmpeg[4096], size[64], rate[64], dir[4096];
    const char *kind = container(path);
    if (render_video_check(path, err) || find_ffmpeg(ffmpeg, sizeof ffmpeg))
        return NULL;
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    struct render_video *v = calloc(1, sizeof *v);
    if (!v) {
        error_set(err, CATENA_EFAIL, "%s: out of memory", path);
        return NULL;
    }
    v->fd = -1;
    v->frame_bytes = (size_t)width * (size_t)height * 4;
    if (!(v->path = malloc(strlen(path) + 1))) {
        error_set(err, CATENA_EFAIL, "%s: out of memory", path);
        free(v);
        return NULL;
    }
    strcpy(v->path, path);
    if (outfile_open(&v->out, dir, slash ? slash + 1 : path, err)) {
        free(v->path);
        free(v);
        return NULL;
    }
    snprintf(size, sizeof size, "%dx%d", width, height);
    snprintf(rate, sizeof rate, "%.17g", fps);
    const char *argv[40];
    ffmpeg_args(argv, ffmpeg, kind, size, rate, v->out.tmp);
    if (spawn(v, argv, err)) {
        outfile_abort(&v->out);
        free(v->path);
        free(v);
        return NULL;
    }
    struct sigaction ign = {.sa_handler = SIG_IGN};
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &v->old_pipe);
    return v;
}

int render_video_frame(struct render_video *v, const struct raster *r, struct catena_error *err)
{
    const unsigned char *p = r->px;
    size_t left = v->frame_bytes;
    while (left > 0) {
        const ssize_t n = write(v->fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            v->broken = 1;
            return error_set(err, CATENA_EFAIL, "%s: ffmpeg stopped reading frames: %s", v->path,
                             strerror(n < 0 ? errno : EIO));
        }
        p += n;
        left -= (size_t)n;
    }
    return CATENA_OK;
}

/* Closes ffmpeg's input, waits for it and restores SIGPIPE; its wait status. */
static int finish(struct render_video *v)
{
    int status = 0;
    if (v->fd >= 0)
        close(v->fd);
    v->fd = -1;
    while (waitpid(v->pid, &status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGPIPE, &v->old_pipe, NULL);
    return status;
}

int render_video_close(struct render_video *v, struct catena_error *err)
{
    const int st = finish(v);
    int rc;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !v->broken) {
        rc = outfile_commit(&v->out, err);
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        rc = error_set(err, CATENA_EFAIL, "%s: ffmpeg stopped reading frames", v->path);
        outfile_abort(&v->out);
    } else {
        if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
            rc = error_set(err, CATENA_EFAIL, "%s: ffmpeg could not be started", v->path);
        else if (WIFEXITED(st))
            rc = error_set(err, CATENA_EFAIL, "%s: ffmpeg failed with exit status %d", v->path,
                           WEXITSTATUS(st));
        else
            rc = error_set(err, CATENA_EFAIL, "%s: ffmpeg was killed by signal %d", v->path,
                           WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        outfile_abort(&v->out);
    }
    free(v->path);
    free(v);
    return rc;
}

void render_video_abort(struct render_video *v)
{
    if (!v)
        return;
    kill(v->pid, SIGTERM); /* what it made is thrown away: no need to let it finish */
    finish(v);
    outfile_abort(&v->out);
    free(v->path);
    free(v);
}
