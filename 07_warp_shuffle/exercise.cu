/* Chapter 07 exercise: write the two functions (see reduce.h and README.md, "Exercise"), then run
 *     scripts/grade.sh 07_warp_shuffle
 * The test runs them on the CPU (a warp simulator runs each thread of a block as a host thread)
 * and, on a machine with a GPU, inside kernel 6, on full and partial warps and blocks. Use
 * shfl_down (or shfl_xor), thread_index, block_threads and sync_block from reduce_ops.h. */
#include "reduce.h"
#include "reduce_ops.h"

float exercise_warp_reduce_sum(float v) {
    /* TODO: add the values of the 32 lanes with shfl_down, so that lane 0 ends with the sum. */
    return v; /* not written yet: lane 0 returns only its own value */
}

float exercise_block_reduce_sum(float v, float* warp_sums) {
    (void)warp_sums;
    /* TODO: reduce each warp, park each warp's sum in warp_sums[warp], sync_block(), then let
     * the first warp reduce warp_sums. */
    return exercise_warp_reduce_sum(v);
}
