/* What a block of kernels 1-6 reads: its slice of x, zeros past the end (a partial warp's last
 * lanes hold zeros, so every shuffle may name all 32 lanes). */
#ifndef REDUCE_LOADS_CUH
#define REDUCE_LOADS_CUH

#include "reduce.h"

#include <stddef.h>

__device__ __forceinline__ float load_or_zero(const float* x, size_t n, size_t i) {
    return i < n ? x[i] : 0.0f;
}

/* Kernels 4-6 start with an add: each thread loads two elements RT apart (a block covers 2 RT),
 * so that half the threads of kernel 3 are not idle from the first step. */
__device__ __forceinline__ float first_add(const float* x, size_t n) {
    const size_t i = blockIdx.x * (size_t)(2 * RT) + threadIdx.x;
    return load_or_zero(x, n, i) + load_or_zero(x, n, i + RT);
}

#endif
