/* The four-wide kernels again, named probe_*, with their square roots and divisions replaced
 * by additions and multiplications (CATENA_KERNEL_PROBE in solver/batch/batch_avx.c): the positions
 * they leave are wrong; tests/bench_kernel only times them. */
#define CATENA_KERNEL_PROBE 1
#define batch_avx_usable probe_usable
#define batch_avx_stiff2 probe_stiff2
#define batch_avx_stiff3 probe_stiff3
#define batch_avx_xpbd2 probe_xpbd2
#define batch_avx_xpbd3 probe_xpbd3
#define batch_avx_xpbd2_held probe_xpbd2_held
#define batch_avx_xpbd3_held probe_xpbd3_held
#include "solver/batch/batch_avx.c"
