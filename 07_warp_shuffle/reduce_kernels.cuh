/* Chapter 07's kernels. Each of kernels 1-6 reduces one block's slice of x into out[blockIdx.x]
 * (0 past the end of x); the program calls it again on those partial sums until one is left.
 * Kernel 7 does the whole sum in one launch. Every kernel here is the lesson's own: none calls the
 * exercise (kernel 6 with the exercise's functions is shuffle_exercise.cu). */
#ifndef REDUCE_KERNELS_CUH
#define REDUCE_KERNELS_CUH

#include "reduce_loads.cuh"
#include "reduce_ops.h"

#include <stddef.h>

/* ---------------------------------------------------------------- kernel 1: divergent tree
 * At stride s, threads whose index is a multiple of 2s add their partner's value. Every warp
 * stays busy for the first steps while most of its lanes sit idle (lanes 0, 2, 4, ... then 0, 4,
 * 8, ...): divergence, not bank conflicts (the active lanes hit distinct banks). */
__global__ void __launch_bounds__(RT) reduce_divergent(const float* x, size_t n, float* out) {
    __shared__ float sdata[RT];
    const unsigned tid = threadIdx.x;
    sdata[tid] = load_or_zero(x, n, blockIdx.x * (size_t)RT + tid);
    __syncthreads();
    for (unsigned s = 1; s < RT; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

/* ---------------------------------------------------------------- kernel 2: strided index
 * The same tree with the work packed into the first threads: thread t handles index 2 s t. No
 * divergence until fewer than 32 threads work, but lane t now touches word 2 s t: a stride of 2s
 * words, up to an 8-way bank conflict as s grows (the model's table). */
__global__ void __launch_bounds__(RT) reduce_strided(const float* x, size_t n, float* out) {
    __shared__ float sdata[RT];
    const unsigned tid = threadIdx.x;
    sdata[tid] = load_or_zero(x, n, blockIdx.x * (size_t)RT + tid);
    __syncthreads();
    for (unsigned s = 1; s < RT; s *= 2) {
        const unsigned index = 2 * s * tid;
        if (index < RT) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

/* ---------------------------------------------------------------- kernel 3: sequential
 * Halve the stride instead: at stride s the first s threads add word t + s to word t. The
 * active lanes read consecutive words: conflict-free, and whole warps retire together. */
__global__ void __launch_bounds__(RT) reduce_sequential(const float* x, size_t n, float* out) {
    __shared__ float sdata[RT];
    const unsigned tid = threadIdx.x;
    sdata[tid] = load_or_zero(x, n, blockIdx.x * (size_t)RT + tid);
    __syncthreads();
    for (unsigned s = RT / 2; s > 0; s /= 2) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

/* ---------------------------------------------------------------- kernel 4: first add */
__global__ void __launch_bounds__(RT) reduce_first_add(const float* x, size_t n, float* out) {
    __shared__ float sdata[RT];
    const unsigned tid = threadIdx.x;
    sdata[tid] = first_add(x, n);
    __syncthreads();
    for (unsigned s = RT / 2; s > 0; s /= 2) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

/* ---------------------------------------------------------------- kernel 5: the last warp
 * Once 32 threads or fewer work, one warp finishes alone, with __syncwarp() instead of block
 * barriers. Each step reads, waits for the whole warp, writes, waits again: since Volta a warp's
 * lanes are not guaranteed to run in lockstep (independent thread scheduling), so without the
 * waits a lane may read its partner's word before or after the partner has updated it. */
__global__ void __launch_bounds__(RT) reduce_last_warp(const float* x, size_t n, float* out) {
    __shared__ float sdata[RT];
    const unsigned tid = threadIdx.x;
    sdata[tid] = first_add(x, n);
    __syncthreads();
    for (unsigned s = RT / 2; s > 32; s /= 2) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        float v = sdata[tid];
        for (unsigned s = 32; s > 0; s /= 2) {
            v += sdata[tid + s];
            __syncwarp(); /* every lane has read before any lane writes */
            sdata[tid] = v;
            __syncwarp(); /* every lane has written before the next read */
        }
        if (tid == 0) out[blockIdx.x] = v;
    }
}

/* The counter-example (never a result; README, "Why volatile is not enough"): the pre-Volta
 * warp-synchronous ending, which relied on the 32 lanes executing each statement together.
 * `volatile` forces every access to shared memory but orders nothing between lanes. */
__global__ void __launch_bounds__(RT) reduce_warp_volatile(const float* x, size_t n, float* out) {
    __shared__ float sdata[RT];
    const unsigned tid = threadIdx.x;
    sdata[tid] = first_add(x, n);
    __syncthreads();
    for (unsigned s = RT / 2; s > 32; s /= 2) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float* vs = sdata;
        vs[tid] += vs[tid + 32];
        vs[tid] += vs[tid + 16];
        vs[tid] += vs[tid + 8];
        vs[tid] += vs[tid + 4];
        vs[tid] += vs[tid + 2];
        vs[tid] += vs[tid + 1];
        if (tid == 0) out[blockIdx.x] = vs[0];
    }
}

/* ---------------------------------------------------------------- kernel 6: shuffles
 * Registers instead of the tree: each warp adds its 32 values with five shuffles, and 32 floats
 * of shared memory carry the warp sums across one barrier. The two functions are the exercise's
 * answer, written here so that the kernel is whole in one file. */

/* The sum of v over the warp's 32 lanes, in lane 0. Five steps halve the distance: after the one
 * at 16, lane i holds v(i) + v(i + 16); after the one at 1, lane 0 holds all 32. A lane whose
 * partner is past lane 31 gets its own value back, and what it adds is never read again. */
__device__ __forceinline__ float warp_reduce_sum(float v) {
    for (unsigned d = 16; d > 0; d /= 2) v += __shfl_down_sync(FULL_WARP, v, d);
    return v;
}

/* The sum of v over the block (whole warps), in thread 0: lane 0 of each warp parks its warp's sum
 * in warp_sums (32 floats of shared memory); after the barrier the first warp adds them (0 for the
 * lanes past the last warp). Called twice with the same warp_sums, it needs a barrier between. */
__device__ __forceinline__ float block_reduce_sum(float v, float* warp_sums) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_reduce_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_reduce_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    return v;
}

__global__ void __launch_bounds__(RT) reduce_shuffle(const float* x, size_t n, float* out) {
    __shared__ float warp_sums[32];
    const float v = block_reduce_sum(first_add(x, n), warp_sums);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

/* A butterfly: with XOR partners every lane ends with the warp's sum, no broadcast needed. */
__device__ __forceinline__ float warp_sum_butterfly(float v) {
    for (unsigned m = 16; m > 0; m /= 2) v += shfl_xor(v, m);
    return v;
}

/* Kernel 6 with __shfl_xor_sync: the first warp needs no second shuffle to spread the result,
 * any thread of it could write it. */
__global__ void __launch_bounds__(RT) reduce_butterfly(const float* x, size_t n, float* out) {
    __shared__ float warp_sums[32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float v = warp_sum_butterfly(first_add(x, n));
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = warp_sum_butterfly(lane < RT / 32 ? warp_sums[lane] : 0.0f);
        if (lane == 31) out[blockIdx.x] = v; /* every lane holds the sum */
    }
}

/* ---------------------------------------------------------------- kernel 7: one pass
 * A grid that fills the GPU once, each thread streaming float4s (UNROLL of them in flight) over a
 * grid-stride loop, the block reduced by shuffles; each block parks its sum in partials, and the
 * block that arrives last (an atomic counter) adds the partials and writes the result: one launch,
 * no second pass. The counter is left at 0 for the next launch. */
template <int NT, int UNROLL>
__global__ void __launch_bounds__(NT)
    reduce_one_pass(const float* __restrict__ x, size_t n, float* partials, unsigned* arrived,
                    float* out) {
    __shared__ float warp_sums[32];
    __shared__ int is_last;
    const size_t stride = (size_t)gridDim.x * NT, first = blockIdx.x * (size_t)NT + threadIdx.x;
    /* float4s while x is 16-byte aligned (it is from cudaMalloc); the tail element by element. */
    const size_t n4 = (size_t)x % 16 == 0 ? n / 4 : 0;
    const float4* x4 = (const float4*)x;
    float v = 0.0f;
    size_t i = first;
    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
        float4 a[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) a[u] = x4[i + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) v += (a[u].x + a[u].y) + (a[u].z + a[u].w);
    }
    for (; i < n4; i += stride) {
        const float4 a = x4[i];
        v += (a.x + a.y) + (a.z + a.w);
    }
    for (size_t t = 4 * n4 + first; t < n; t += stride) v += x[t];

    v = block_reduce_sum(v, warp_sums);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence(); /* the partial is visible to every block before the count says so */
        is_last = atomicAdd(arrived, 1u) == gridDim.x - 1;
        __threadfence(); /* and the last block reads what the others wrote before they counted */
    }
    __syncthreads();
    if (is_last) {
        float p = 0.0f;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += NT) p += __ldcg(&partials[b]);
        p = block_reduce_sum(p, warp_sums);
        if (threadIdx.x == 0) {
            *out = p;
            *arrived = 0;
        }
    }
}

/* ---------------------------------------------------------------- beyond reductions: a scan
 * Each warp's inclusive prefix sum of its 32 elements (out[i] = x[w*32] + ... + x[i]), the classic
 * way through shared memory (Hillis-Steele: 5 steps, each a read of the partner, a store, two
 * __syncwarp) and with __shfl_up_sync, where the partner's value arrives in a register. */
__global__ void __launch_bounds__(RT) scan_warp_smem(const float* x, size_t n, float* out) {
    __shared__ float s[RT];
    const unsigned tid = threadIdx.x, lane = tid % 32;
    const size_t i = blockIdx.x * (size_t)RT + tid;
    float v = load_or_zero(x, n, i);
    s[tid] = v;
    for (unsigned d = 1; d < 32; d *= 2) {
        __syncwarp();
        const float t = lane >= d ? s[tid - d] : 0.0f;
        __syncwarp();
        v += t;
        s[tid] = v;
    }
    if (i < n) out[i] = v;
}

__global__ void __launch_bounds__(RT) scan_warp_shuffle(const float* x, size_t n, float* out) {
    const unsigned lane = threadIdx.x % 32;
    const size_t i = blockIdx.x * (size_t)RT + threadIdx.x;
    float v = load_or_zero(x, n, i);
    for (unsigned d = 1; d < 32; d *= 2) {
        const float t = __shfl_up_sync(FULL_WARP, v, d);
        if (lane >= d) v += t;
    }
    if (i < n) out[i] = v;
}

#endif
