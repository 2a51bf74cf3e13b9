/* The commands of catena, in the order `catena help` lists them: main dispatches through this
 * table, and the help, the did-you-mean and the shell completion read it. A new command adds
 * its spec here (and its declaration in cli/cmd.h). */
#include "cli/cmd.h"

const struct cmd_spec *cmd_current;

// clang-format off
const struct cmd_spec *const cmd_table[] = {
    &cmd_run_spec,
    &cmd_validate_spec,
    &cmd_render_spec,
    &cmd_catenary_spec,
    &cmd_compare_spec,
    &cmd_sweep_spec,
    &cmd_sweep_collect_spec,
    &cmd_bench_spec,
    &cmd_help_spec,
    NULL,
};
// clang-format on
