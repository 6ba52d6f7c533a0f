/* The warp operations the reductions use, one name for the GPU (the intrinsics, all 32 lanes in
 * the mask: every lane of a warp always calls) and for the exercise's CPU test (the warp
 * simulator, warp_sim.h). */
#ifndef REDUCE_OPS_H
#define REDUCE_OPS_H

#include "warp_sim.h"

#ifdef __CUDACC__
#define REDUCE_OP static __host__ __device__ __forceinline__
#else
#define REDUCE_OP static inline
#endif

enum { FULL_WARP = 0xffffffffu };

REDUCE_OP float shfl_down(float v, unsigned delta) {
#ifdef __CUDA_ARCH__
    return __shfl_down_sync(FULL_WARP, v, delta);
#else
    return warp_sim_shfl_down(v, delta);
#endif
}

REDUCE_OP float shfl_xor(float v, unsigned lane_mask) {
#ifdef __CUDA_ARCH__
    return __shfl_xor_sync(FULL_WARP, v, lane_mask);
#else
    return warp_sim_shfl_xor(v, lane_mask);
#endif
}

/* This thread's index in the block, and the block's size (1-D blocks). */
REDUCE_OP int thread_index(void) {
#ifdef __CUDA_ARCH__
    return (int)threadIdx.x;
#else
    return warp_sim_tid();
#endif
}
REDUCE_OP int block_threads(void) {
#ifdef __CUDA_ARCH__
    return (int)blockDim.x;
#else
    return warp_sim_threads();
#endif
}

REDUCE_OP void sync_block(void) {
#ifdef __CUDA_ARCH__
    __syncthreads();
#else
    warp_sim_syncthreads();
#endif
}

#endif
