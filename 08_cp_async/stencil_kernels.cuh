/* Chapter 08, part 1: the same streaming kernel three ways, to see a load's latency and then hide
 * it. y[i] = sum_{j=-R..R} w[j + R] x[i + j], R = STENCIL_RADIUS (x is 0 outside 0 .. n-1), one
 * tile of STENCIL_TILE outputs at a time: each block walks tiles b, b + grid, ... (a grid that
 * fills the GPU once), staging the tile and its halo, STENCIL_SPAN = STENCIL_TILE + 2R floats, in
 * shared memory, where each float is read 2R + 1 times.
 *   1 stencil_sync    float4 loads through registers, __syncthreads, compute, __syncthreads
 *   2 stencil_async   the same staging with cp.async (16 bytes a copy, no registers), waited for
 *   3 stencil_double  two stages: tile k + 1's copies in flight while tile k is computed
 * x must be 16-byte aligned (cudaMalloc); STENCIL_TILE and STENCIL_RADIUS multiples of 4, so that
 * every staged chunk of 4 floats starts 16-byte aligned in both memories. */
#ifndef STENCIL_KERNELS_CUH
#define STENCIL_KERNELS_CUH

#include "ptx/cp_async.cuh"

/* The radius (17 points), a tile's outputs, the floats staged for one tile (the tile and its
 * halo), a block's threads. */
enum {
    STENCIL_RADIUS = 8,
    STENCIL_TILE = 1024,
    STENCIL_SPAN = STENCIL_TILE + 2 * STENCIL_RADIUS,
    STENCIL_NT = 256
};

__constant__ float stencil_w[2 * STENCIL_RADIUS + 1];

/* Output i0 + t .. of one tile from its staged span (s[0] is x[i0 - STENCIL_RADIUS]). */
static __device__ __forceinline__ void stencil_tile(const float* s, float* y, long long n,
                                                    long long i0) {
    for (int t = threadIdx.x; t < STENCIL_TILE; t += STENCIL_NT) {
        if (i0 + t >= n) return;
        float acc = 0.0f;
#pragma unroll
        for (int j = 0; j <= 2 * STENCIL_RADIUS; ++j) acc = fmaf(stencil_w[j], s[t + j], acc);
        y[i0 + t] = acc;
    }
}

/* Chunk c (4 floats) of the span of the tile at i0: its global source and how many of its 16
 * bytes exist (0 past either end: cp.async writes zeros). */
static __device__ __forceinline__ int span_chunk(const float* x, long long n, long long i0, int c,
                                                 const float** src) {
    const long long first = i0 - STENCIL_RADIUS + 4LL * c;
    const long long have = first < 0 ? 0 : first >= n ? 0 : n - first < 4 ? n - first : 4;
    *src = have ? x + first : x;
    return (int)have * 4;
}

/* The same 16-byte chunks as the copies below, through registers: a load, then a store that
 * waits for it. */
__global__ void __launch_bounds__(STENCIL_NT) stencil_sync(const float* x, float* y, long long n) {
    __shared__ __align__(16) float s[STENCIL_SPAN];
    const long long tiles = (n + STENCIL_TILE - 1) / STENCIL_TILE;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const long long i0 = tile * STENCIL_TILE;
        for (int c = threadIdx.x; c < STENCIL_SPAN / 4; c += STENCIL_NT) {
            const float* src;
            const int bytes = span_chunk(x, n, i0, c, &src);
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (bytes == 16) {
                v = *(const float4*)src;
            } else if (bytes) { /* the last, partial chunk */
                v.x = src[0];
                if (bytes > 4) v.y = src[1];
                if (bytes > 8) v.z = src[2];
            }
            *(float4*)&s[4 * c] = v;
        }
        __syncthreads();
        stencil_tile(s, y, n, i0);
        __syncthreads(); /* the next tile overwrites s */
    }
}

static __device__ __forceinline__ void stage_span(float* s, const float* x, long long n,
                                                  long long i0) {
    for (int c = threadIdx.x; c < STENCIL_SPAN / 4; c += STENCIL_NT) {
        const float* src;
        const int bytes = span_chunk(x, n, i0, c, &src);
        if (bytes == 16 || bytes == 0) {
            cp_async_16(s + 4 * c, src, bytes);
        } else { /* the last, partial chunk: no copy reads past x[n - 1] */
#pragma unroll
            for (int j = 0; j < 4; ++j)
                cp_async_4(s + 4 * c + j, j * 4 < bytes ? src + j : x, j * 4 < bytes ? 4 : 0);
        }
    }
    cp_async_commit();
}

__global__ void __launch_bounds__(STENCIL_NT) stencil_async(const float* x, float* y, long long n) {
    __shared__ __align__(16) float s[STENCIL_SPAN];
    const long long tiles = (n + STENCIL_TILE - 1) / STENCIL_TILE;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        stage_span(s, x, n, tile * STENCIL_TILE);
        cp_async_wait(0);
        __syncthreads();
        stencil_tile(s, y, n, tile * STENCIL_TILE);
        __syncthreads();
    }
}

__global__ void __launch_bounds__(STENCIL_NT)
    stencil_double(const float* x, float* y, long long n) {
    __shared__ __align__(16) float s[2][STENCIL_SPAN];
    const long long tiles = (n + STENCIL_TILE - 1) / STENCIL_TILE;
    long long tile = blockIdx.x;
    if (tile < tiles) stage_span(s[0], x, n, tile * STENCIL_TILE);
    for (int k = 0; tile < tiles; tile += gridDim.x, ++k) {
        /* The next tile's copies go out before this one's wait: one group in flight. The stage
         * they fill was last read in iteration k - 1, before its closing barrier. */
        const long long next = tile + gridDim.x;
        if (next < tiles)
            stage_span(s[(k + 1) & 1], x, n, next * STENCIL_TILE);
        else
            cp_async_commit(); /* an empty group keeps the count */
        cp_async_wait(1);
        __syncthreads();
        stencil_tile(s[k & 1], y, n, tile * STENCIL_TILE);
        __syncthreads();
    }
}

#endif
