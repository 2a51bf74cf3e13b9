/* PNG frames of a run: read back from the recorded trajectory (so `catena run --render` and
 * `catena render RUN_DIR` draw the same pictures), framed by a camera fitted to the whole run
 * so it never jumps, timed in simulated seconds with positions interpolated between the two
 * recorded steps around each frame's time, and written as RUN_DIR/frames/frame-NNNNNN.png
 * plus an optional contact sheet, or piped to ffmpeg as a video (render/video.h). The options
 * are output.render of catena-scenario(5). */
#ifndef CATENA_RENDER_H
#define CATENA_RENDER_H

#include "core/error.h"
#include "model/model.h"
#include "scenario/render_opts.h"
#include "scenario/scenario.h"

struct render_result {
    long frames;   /* PNG files written */
    double wall_s; /* seconds spent, both passes and all writing */
};

/* Draws the run in run_dir (its trajectory, read as traj_read_open does, and topology.csv when
 * the model's links or pins can change) into out_dir/frames/frame-NNNNNN.png, and
 * out_dir/contact-sheet.png when asked, with the options o (the scenario's own are
 * scn->output.render). scn must be the scenario the run was made from. Stale frame-*.png files
 * in out_dir/frames are removed first. progress = 1 shows a progress line on stderr.
 * CATENA_EINPUT for a trajectory that does not match the model or cannot be read,
 * CATENA_EFAIL when a file cannot be written. */
int render_run(const struct scenario *scn, const struct render_opts *o, const char *run_dir,
               const char *out_dir, int progress, struct render_result *res,
               struct catena_error *err);

/* The same frames piped to ffmpeg into the video file video (.mp4, .webm or .gif,
 * render/video.h) instead of written as PNG files; out_dir gets the contact sheet, when
 * asked. The frame rate is fps, or with `every` the recorded steps in real time. Before
 * anything is drawn: CATENA_EINPUT for another file type, CATENA_EFAIL when ffmpeg is not
 * installed (the message names the Debian package); CATENA_EFAIL too when ffmpeg fails, and
 * then no video file is left. */
int render_run_video(const struct scenario *scn, const struct render_opts *o, const char *run_dir,
                     const char *video, const char *out_dir, int progress,
                     struct render_result *res, struct catena_error *err);

/* The frames a run of all the model's steps would get (fewer if it stops early). */
long render_frames_expected(const struct scenario *scn, const struct render_opts *o);

/* "stretch", "tension", "speed", "none". */
const char *render_color_by_name(enum render_color_by c);

#endif
