/* Kernel 6 calling the exercise's exercise_block_reduce_sum (shuffle_exercise.cuh). */
#include "reduce.h"
#include "reduce_loads.cuh"
#include "shuffle_exercise.cuh"

__global__ void __launch_bounds__(RT)
    reduce_shuffle_exercise(const float* x, size_t n, float* out) {
    __shared__ float warp_sums[32];
    const float v = exercise_block_reduce_sum(first_add(x, n), warp_sums);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
