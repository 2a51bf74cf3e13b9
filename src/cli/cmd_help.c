/* `catena help` (also -h, --help) and `catena --version`: the help text lists every command
 * and its options; each command's --help prints the same text. */
#include "config.h"

#include "cli/cmd.h"

#include <stdlib.h>

void cmd_usage(FILE *out)
{
    fputs("Usage: catena COMMAND [OPTION]... [ARGUMENT]...\n"
          "Batch simulator for position-based dynamics: ropes, chains, pendulums.\n"
          "\n"
          "Commands:\n"
          "  run SCENARIO          simulate SCENARIO and write its outputs\n"
          "  validate SCENARIO...  check scenarios and print what they would simulate\n"
          "  render RUN_DIR        draw PNG frames of a finished run\n"
          "  catenary RUN_DIR|TRAJECTORY\n"
          "                        catenary report on a finished run's hanging chains\n"
          "  compare A B           compare two trajectories (files or run directories)\n"
          "  sweep SWEEP           run a parameter sweep (or emit it for parallel, Slurm)\n"
          "  sweep collect DIR     write DIR/sweep.csv from the runs of a sweep\n"
          "  bench [--quick] [--json FILE] [-j N] [CASE]...\n"
          "                        time the solver, writers and frames against plain\n"
          "                        references (catena bench --help)\n"
          "  help                  show this help\n"
          "\n"
          "Options for run:\n"
          "  -o, --output=DIR       write the outputs into DIR (default runs/NAME)\n"
          "      --steps=N          run N steps (sets time.steps)\n"
          "      --every=K          record every K-th step (sets output.every)\n"
          "      --format=LIST      trajectory formats, comma-separated: csv, json, npy\n"
          "                         (sets output.trajectory)\n"
          "      --until-settled=SPEED\n"
          "                         stop once every free point has stayed slower than\n"
          "                         SPEED m/s for a while (1 s unless the scenario says;\n"
          "                         sets time.until_settled.speed)\n"
          "      --set=PATH=VALUE   override a scalar by its dotted path, e.g.\n"
          "                         solver.iterations=40 or points.3.mass=2 (repeatable)\n"
          "      --report=LIST      reports to write at the end, comma-separated:\n"
          "                         catenary (sets output.reports)\n"
          "      --plot             reports also draw their PNG (catenary.png); on\n"
          "                         by itself when rendering is on\n"
          "      --render           draw PNG frames into DIR/frames (output.render)\n"
          "  -j, --threads=N        N threads share the solver's links (sets solver.threads;\n"
          "                         the results are the same bits with any N)\n"
          "  -q, --quiet            no progress line (shown only when stderr is a terminal)\n"
          "\n"
          "Options for run and validate:\n"
          "      --max-points=N     refuse scenarios of more than N points (default 50000000)\n"
          "      --max-memory=SIZE  refuse scenarios estimated to need more memory (512M, 4G;\n"
          "                         default: the machine's memory)\n"
          "\n",
          out);
    /* Two strings: ISO C promises string literals of 4095 characters at most. */
    fputs("Options for render:\n"
          "  -o, --output=DIR       write DIR/frames and DIR/contact-sheet.png (default\n"
          "                         RUN_DIR)\n"
          "      --fps=F            F frames per simulated second, interpolated\n"
          "      --every=K          a frame at every K-th step, as recorded\n"
          "      --size=WxH         frame size in pixels\n"
          "      --color-by=WHAT    stretch, tension, speed or none\n"
          "      --contact-sheet    also write contact-sheet.png\n"
          "      --level=N          PNG compression level, 0 to 9\n"
          "      --set=PATH=VALUE   override an output.render setting, e.g.\n"
          "                         output.render.line_width=3 (repeatable)\n"
          "  -q, --quiet            no progress line\n"
          "\n"
          "Options for catenary:\n"
          "      --body=NAME        the rope body NAME (default: every rope with both ends\n"
          "                         pinned)\n"
          "      --points=I..J      the chain of points I to J (global indices)\n"
          "      --step=N|last      the frame at step N (default: the last one)\n"
          "      --json             print catenary.json's form instead of the text\n"
          "      --plot=FILE.png    also draw the chain, the curves and the deviation\n"
          "      --scenario=FILE    the scenario of a trajectory file (default: the\n"
          "                         scenario.json beside it)\n"
          "\n"
          "Options for compare (B is the reference; |A-B| <= atol + rtol*|B| passes):\n"
          "      --atol=X           absolute tolerance in metres (default 1e-9)\n"
          "      --rtol=Y           relative tolerance (default 1e-9)\n"
          "      --steps=RANGE      only steps N, FIRST:LAST, FIRST: or :LAST\n"
          "      --points=RANGE     only points N, FIRST:LAST, FIRST: or :LAST\n"
          "      --json             print the report as JSON\n"
          "\n"
          "Options for sweep:\n"
          "  -o, --output=DIR       the sweep's directory (default sweeps/NAME)\n"
          "  -j, --jobs=N           at most N runs at a time (default: the CPUs)\n"
          "      --emit=ENGINE      write the jobs for ENGINE (parallel or slurm) instead\n"
          "                         of running them\n"
          "      --catena=PROGRAM   the catena the runs use (default: this one)\n"
          "  -n, --dry-run          check the sweep and print its runs' commands\n"
          "\n"
          "  -h, --help             show this help and exit\n"
          "      --version          show the version and exit\n"
          "\n"
          "Exit status: 0 success; 1 the run failed (diverged, output not written),\n"
          "trajectories differ beyond tolerance, or a run of a sweep failed;\n"
          "2 bad usage or bad input; 128+N interrupted by signal N.\n",
          out);
}

int cmd_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cmd_usage(stdout);
    return EXIT_SUCCESS;
}

int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    puts("catena " PACKAGE_VERSION);
    return EXIT_SUCCESS;
}
