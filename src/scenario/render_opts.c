/* The render settings' defaults (see scenario/render_opts.h). */
#include "scenario/render_opts.h"

struct render_opts render_opts_default(void)
{
    return (struct render_opts){
        .fps = 30,
        .every = 0,
        .width = 800,
        .height = 600,
        .color_by = RENDER_BY_STRETCH,
        .line_width = 2,
        .point_radius = 3,
        .yaw = 30,
        .pitch = 20,
        .level = 1,
        .sheet = {.enabled = 0, .frames = 12, .columns = 4, .width = 0},
    };
}
