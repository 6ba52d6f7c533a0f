/* Chapter 01's kernel: strided_read<W>, every lane of every warp loading W bytes of shared
 * memory at lane * stride * W + j * step (j < UNROLL, over and over), and what it shares with
 * the CPU's reference and the launcher (the words' values, the step, the footprint). */
#ifndef STRIDED_READ_CUH
#define STRIDED_READ_CUH

#include "strided_read.h"
#include "device/sm_limits.cuh"
#include "ptx/shared.cuh"
#include "ptx/special.cuh"

/* What word i of the tile holds: a hash keyed by the run's random seed, so that the data differ
 * from run to run and a wrong address gives a wrong sum. */
static __host__ __device__ unsigned word_value(unsigned i, unsigned key) {
    return (i * 2654435761u + 12345u) ^ key;
}

/* Bytes between a lane's UNROLL loads: whole 4-byte words, so that every load of a thread sees
 * the same bank pattern, also at 1 and 2 bytes. */
static __host__ __device__ unsigned step_bytes(int width) {
    return width < 4 ? 4u : (unsigned)width;
}

/* 4-byte words a block uses: the 32 lanes' strided span plus the UNROLL shifts. */
static __host__ __device__ unsigned footprint_words(int width, unsigned stride) {
    return (32u * stride * (unsigned)width + UNROLL * step_bytes(width) + 3u) / 4u;
}

/* Thread 0 of each block records the SM clock before and after the loop and the SM it ran on,
 * so that bytes per clock come from the SM's own cycle counter, whatever its frequency. */
template <int W>
__global__ void __launch_bounds__(BENCH_THREADS, COURSE_MIN_BLOCKS(BENCH_THREADS, BLOCKS_PER_SM))
    strided_read(unsigned stride, int iters, unsigned key, unsigned* out,
                 unsigned long long* clocks) {
    extern __shared__ __align__(16) unsigned words[];
    for (unsigned i = threadIdx.x; i < footprint_words(W, stride); i += blockDim.x)
        words[i] = word_value(i, key);
    __syncthreads();

    /* ld_shared: one volatile LDS of W bytes each, so the compiler keeps every load in the
     * loop; the j * step offsets fold into the instructions. */
    const unsigned first = smem_address(words) + (threadIdx.x % 32u) * stride * W;
    if (threadIdx.x == 0) clocks[3 * blockIdx.x] = clock64();
    unsigned acc = 0;
#pragma unroll 1
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int j = 0; j < UNROLL; ++j) acc += word_sum(ld_shared<W>(first + j * step_bytes(W)));
    }
    __syncthreads(); /* the block is done when its slowest warp is */
    if (threadIdx.x == 0) {
        const unsigned smid = ptx_smid();
        clocks[3 * blockIdx.x + 1] = clock64();
        clocks[3 * blockIdx.x + 2] = smid;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

#endif
