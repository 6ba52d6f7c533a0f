/* Chapter 07: the reference answer to the exercise (see reduce.h and README.md). */
#include "reduce.h"
#include "reduce_ops.h"

/* Five steps halve the distance: after the step at 16, lane i holds v(i) + v(i + 16); after the
 * one at 1, lane 0 holds all 32. A lane whose partner is past lane 31 gets its own value back,
 * and what it adds is never read again. No shared memory, no barrier: the exchange is the
 * shuffle. */
float exercise_warp_reduce_sum(float v) {
    for (unsigned d = 16; d > 0; d /= 2) v += shfl_down(v, d);
    return v;
}

/* Each warp reduces its 32 values; lane 0 of each parks its sum in warp_sums; after the barrier
 * the first warp reduces those (0 for the lanes past the last warp). One barrier, 32 floats of
 * shared memory, instead of a log2(threads)-step tree with a barrier at every step. */
float exercise_block_reduce_sum(float v, float* warp_sums) {
    const int tid = thread_index(), lane = tid % 32, warp = tid / 32;
    v = exercise_warp_reduce_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    sync_block();
    if (warp == 0) {
        v = lane < block_threads() / 32 ? warp_sums[lane] : 0.0f;
        v = exercise_warp_reduce_sum(v);
    }
    return v;
}
