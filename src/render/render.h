/* PNG frames of a run: read back from the recorded trajectory (so `catena run --render` and
 * `catena render RUN_DIR` draw the same pictures), framed by a camera fitted to the whole run
 * so it never jumps, timed in simulated seconds with positions interpolated between the two
 * recorded steps around each frame's time, and written as RUN_DIR/frames/frame-NNNNNN.png
 * plus an optional contact sheet. The options are output.render of catena-scenario(5). */
#ifndef CATENA_RENDER_H
#define CATENA_RENDER_H

#include "core/error.h"
#include "model/model.h"

/* What the links' colour shows (through viridis, with a legend). */
enum render_color_by {
    RENDER_BY_STRETCH, /* length / rest, 1 at rest */
    RENDER_BY_TENSION, /* N: (length - rest) / ((w_a + w_b) h^2 + compliance), see render/values.c
                        */
    RENDER_BY_SPEED,   /* m/s, the mean speed of the link's two end points */
    RENDER_BY_NONE,    /* the body's colour, no legend */
};

/* A grid of evenly spaced frames, each shrunk by averaging. */
struct render_sheet_opts {
    int enabled;
    int frames;  /* tiles, 1..RENDER_SHEET_MAX_FRAMES (fewer when the run has fewer frames) */
    int columns; /* tiles per row, >= 1 */
    int width;   /* px of the whole sheet; 0 = the frame width */
};

#define RENDER_SHEET_MAX_FRAMES 100

struct render_opts {
    double fps; /* frames per simulated second; 0 when every is used */
    long every; /* a frame at each recorded step that is a multiple of it, no interpolation;
                   0 when fps is used */
    int width;  /* px */
    int height; /* px */
    enum render_color_by color_by;
    int has_range;   /* 1: range_lo..range_hi is the colour map's range; 0: the run's own */
    double range_lo; /* in the unit of color_by */
    double range_hi;
    double line_width;   /* px */
    double point_radius; /* px; 0 draws no discs */
    int point_world;     /* 1: discs of each point's own radius (m), at least line_width / 2 */
    int has_view;        /* 1: view_center and view_width fix the camera; 0: fitted to the run */
    vec3 view_center;    /* m, the point at the middle of the image */
    double view_width;   /* m spanned by the image's width */
    double yaw, pitch;   /* degrees, 3D only: turn about the up axis, then tilt down */
    int level;           /* PNG compression, 0..9 (gfx/png_write.h) */
    struct render_sheet_opts sheet;
};

/* The defaults of catena-scenario(5): 30 fps, 800x600, stretch, 2 px lines, 3 px discs,
 * fitted camera, yaw 30, pitch 20, level 1, no contact sheet (12 frames, 4 columns). */
struct render_opts render_opts_default(void);

/* Turns rendering on for m (`catena run --render`): default options when the scenario has no
 * output.render, and a trajectory.npy when it records no trajectory, since frames are drawn
 * from the recorded steps. CATENA_EFAIL on OOM. */
int render_enable(struct model *m, struct catena_error *err);

struct render_result {
    long frames;   /* PNG files written */
    double wall_s; /* seconds spent, both passes and all writing */
};

/* Draws the run in run_dir (its trajectory, read as traj_read_open does, and topology.csv when
 * m's links or pins can change) into out_dir/frames/frame-NNNNNN.png, and
 * out_dir/contact-sheet.png when asked. m must be the model the run was made from. Stale
 * frame-*.png files in out_dir/frames are removed first. progress = 1 shows a progress line on
 * stderr. CATENA_EINPUT for a trajectory that does not match m or cannot be read, CATENA_EFAIL
 * when a file cannot be written. */
int render_run(const struct model *m, const struct render_opts *o, const char *run_dir,
               const char *out_dir, int progress, struct render_result *res,
               struct catena_error *err);

/* The frames a run of all m->steps steps would get (fewer if it stops early). */
long render_frames_expected(const struct model *m, const struct render_opts *o);

/* "stretch", "tension", "speed", "none". */
const char *render_color_by_name(enum render_color_by c);

#endif
