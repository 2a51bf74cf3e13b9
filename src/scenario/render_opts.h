/* The render settings of a scenario (output.render, catena-scenario(5)): what frames are
 * drawn and how. The scenario loader checks and fills them (scenario/output_render.c);
 * render/ draws with them. */
#ifndef CATENA_RENDER_OPTS_H
#define CATENA_RENDER_OPTS_H

#include "core/vec.h"

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

#endif
