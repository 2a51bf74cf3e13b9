/* `catena bench`, the command (cli/cmd_bench.c): options, the table on stdout, --json. Part of
 * the program beside main.c, which dispatches to it. */
#ifndef CATENA_CMD_BENCH_H
#define CATENA_CMD_BENCH_H

/* argv[1] is "bench"; returns the exit status: 0 every case ran and passed its checks, 1 a
 * case failed, 2 bad usage. */
int cmd_bench(int argc, char **argv);

#endif
