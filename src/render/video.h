/* A video file (.mp4, .webm or .gif) made by ffmpeg(1) from frames piped to its standard
 * input as raw RGBA: no frame touches the disk. ffmpeg is found on PATH and started without
 * a shell (fork and execvp with an argument vector); it writes a temporary file beside the
 * video that is renamed into place only once ffmpeg has exited with status 0 (core/outfile.h),
 * so a video under its final name is always complete. */
#ifndef CATENA_RENDER_VIDEO_H
#define CATENA_RENDER_VIDEO_H

#include "core/error.h"
#include "gfx/raster.h"

/* The Debian package that provides ffmpeg, for the message when it is missing. */
#define RENDER_VIDEO_PACKAGE "ffmpeg"

/* Checks that path ends in .mp4, .webm or .gif (CATENA_EINPUT otherwise) and that ffmpeg is
 * on PATH (CATENA_EFAIL otherwise, naming the package to install), before any drawing. */
int render_video_check(const char *path, struct catena_error *err);

struct render_video;

/* Starts ffmpeg encoding width x height frames at fps frames per second into path (through
 * its temporary file). NULL with err set when it cannot start. */
struct render_video *render_video_open(const char *path, int width, int height, double fps,
                                       struct catena_error *err);

/* Sends frame r (of the size given to render_video_open) to ffmpeg. CATENA_EFAIL when ffmpeg
 * no longer reads (it stopped: render_video_close then says how, and keeps no file). */
int render_video_frame(struct render_video *v, const struct raster *r, struct catena_error *err);

/* Ends the input, waits for ffmpeg and, when it exited with status 0 and had every frame,
 * renames the video into place; otherwise removes the temporary file and says how ffmpeg
 * ended. Frees v. */
int render_video_close(struct render_video *v, struct catena_error *err);

/* Stops ffmpeg (SIGTERM), waits for it, removes the temporary file and frees v; NULL is a
 * no-op. */
void render_video_abort(struct render_video *v);

#endif
