/* Chapter 06's kernels (kernel 3, the exercise, is in gemm_smem.cuh). Every kernel takes
 * (M, N, K, alpha, A, B, beta, C), row-major, any M, N, K >= 0: elements past an edge are loaded
 * as 0 and never stored, so every kernel is general (M, N >= 1, K >= 0); none needs its tile to
 * divide the shape. */
#ifndef GEMM_KERNELS_CUH
#define GEMM_KERNELS_CUH

#include "sm_limits.cuh"
#include "gemm.h"

/* C = alpha * acc + beta * C, not reading C when beta is 0. */
__device__ __forceinline__ void gemm_store(float* C, size_t at, float acc, float alpha,
                                           float beta) {
    C[at] = beta == 0.0f ? alpha * acc : alpha * acc + beta * C[at];
}

/* ---------------------------------------------------------------- kernel 1: naive
 * One thread per element of C; consecutive threads take consecutive *rows*. Each lane of a warp
 * then reads its own row of A (K floats apart: 32 transactions per load) and writes C down a
 * column: nothing coalesces. */
__global__ void gemm_naive(int M, int N, int K, float alpha, const float* A, const float* B,
                           float beta, float* C) {
    const int row = blockIdx.x * 32 + threadIdx.x % 32, col = blockIdx.y * 32 + threadIdx.x / 32;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    gemm_store(C, (size_t)row * N + col, acc, alpha, beta);
}

/* ---------------------------------------------------------------- kernel 2: coalesced
 * The same, with consecutive threads on consecutive *columns*: a warp reads one A element (a
 * broadcast), 32 consecutive B elements (one 128-byte line) and writes 32 consecutive C. */
__global__ void gemm_coalesced(int M, int N, int K, float alpha, const float* A, const float* B,
                               float beta, float* C) {
    const int col = blockIdx.x * 32 + threadIdx.x % 32, row = blockIdx.y * 32 + threadIdx.x / 32;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    gemm_store(C, (size_t)row * N + col, acc, alpha, beta);
}

/* An element of a row-major rows x cols matrix, or 0 past its edge. */
__device__ __forceinline__ float load_or_zero(const float* X, int rows, int cols, int r, int c) {
    return r < rows && c < cols ? X[(size_t)r * cols + c] : 0.0f;
}

/* ---------------------------------------------------------------- kernel 4: 1-D blocktiling
 * A 64 x 64 tile of C per block, K-slices of 8, 512 threads; each thread computes 8 elements of
 * one column. One B value from shared memory now serves 8 multiply-adds: shared-memory loads per
 * FMA drop from 2 to 1 + 1/8. */
__global__ void __launch_bounds__(K4_NT)
    gemm_blocktile_1d(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                      float* C) {
    __shared__ float As[K4_BM * K4_BK], Bs[K4_BK * K4_BN];
    const int tid = threadIdx.x, bm = blockIdx.y * K4_BM, bn = blockIdx.x * K4_BN;
    const int col = tid % K4_BN, row0 = tid / K4_BN * K4_TM; /* this thread's part of the tile */
    float acc[K4_TM] = {};
    for (int k0 = 0; k0 < K; k0 += K4_BK) {
        /* One element of each tile per thread: As[m][k] and Bs[k][n], both at index tid. */
        As[tid] = load_or_zero(A, M, K, bm + tid / K4_BK, k0 + tid % K4_BK);
        Bs[tid] = load_or_zero(B, K, N, k0 + tid / K4_BN, bn + tid % K4_BN);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < K4_BK; ++k) {
            const float b = Bs[k * K4_BN + col];
#pragma unroll
            for (int i = 0; i < K4_TM; ++i) acc[i] += As[(row0 + i) * K4_BK + k] * b;
        }
        __syncthreads();
    }
    for (int i = 0; i < K4_TM; ++i)
        if (bm + row0 + i < M && bn + col < N)
            gemm_store(C, (size_t)(bm + row0 + i) * N + bn + col, acc[i], alpha, beta);
}

/* ---------------------------------------------------------------- kernel 5: 2-D blocktiling
 * A 128 x 128 tile per block, 256 threads, each an 8 x 8 block of C: per k, 8 values of A and 8
 * of B from shared memory feed 64 multiply-adds (1/4 load per FMA). */
__global__ void __launch_bounds__(K5_NT)
    gemm_blocktile_2d(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                      float* C) {
    __shared__ float As[K5_BM * K5_BK], Bs[K5_BK * K5_BN];
    const int tid = threadIdx.x, bm = blockIdx.y * K5_BM, bn = blockIdx.x * K5_BN;
    const int row0 = tid / 16 * K5_T, col0 = tid % 16 * K5_T;
    float acc[K5_T][K5_T] = {}, a[K5_T], b[K5_T];
    for (int k0 = 0; k0 < K; k0 += K5_BK) {
#pragma unroll
        for (int i = 0; i < K5_BM * K5_BK / K5_NT; ++i) { /* 4 elements of each tile per thread */
            const int e = tid + i * K5_NT;
            As[e] = load_or_zero(A, M, K, bm + e / K5_BK, k0 + e % K5_BK);
            Bs[e] = load_or_zero(B, K, N, k0 + e / K5_BN, bn + e % K5_BN);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < K5_BK; ++k) {
#pragma unroll
            for (int i = 0; i < K5_T; ++i) a[i] = As[(row0 + i) * K5_BK + k];
#pragma unroll
            for (int j = 0; j < K5_T; ++j) b[j] = Bs[k * K5_BN + col0 + j];
#pragma unroll
            for (int i = 0; i < K5_T; ++i)
#pragma unroll
                for (int j = 0; j < K5_T; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < K5_T; ++i)
        for (int j = 0; j < K5_T; ++j)
            if (bm + row0 + i < M && bn + col0 + j < N)
                gemm_store(C, (size_t)(bm + row0 + i) * N + bn + col0 + j, acc[i][j], alpha, beta);
}

/* ---------------------------------------------------------------- kernels 6, 7, 8
 * The geometry (gemm.h) is a template's constant: BM, BN, BK, NT, how threads spread over the
 * tile, A's shared layout, stages. Edges: `vec` (K and N multiples of 4, 16-byte aligned
 * matrices) lets whole float4s load and store; any float4 that crosses an edge, or every one
 * when vec is 0, goes element by element with 0 past the edge. */
/* Four consecutive elements of row r of a rows x cols matrix from column c, 0 past its edge. */
__device__ __forceinline__ float4 load4(const float* X, int rows, int cols, int r, int c, int vec) {
    if (vec && r < rows && c + 3 < cols) return *(const float4*)&X[(size_t)r * cols + c];
    float4 v;
    v.x = load_or_zero(X, rows, cols, r, c);
    v.y = load_or_zero(X, rows, cols, r, c + 1);
    v.z = load_or_zero(X, rows, cols, r, c + 2);
    v.w = load_or_zero(X, rows, cols, r, c + 3);
    return v;
}

/* A thread's 8 x TN micro-tile of C (TN = 8 here, 16 in chapter 08), its 2 x TN/4 blocks of 4 x 4
 * at rows r0 + h * step_m and columns c0 + w * step_n: C = alpha * acc + beta * C, as float4 where
 * the row holds 4 more (and vec says float4 are aligned), else element by element up to the
 * edges. */
template <int TN>
__device__ __forceinline__ void gemm_store_micro_tile(float* C, int M, int N, int r0, int c0,
                                                      int step_m, int step_n,
                                                      const float (&acc)[MICRO][TN], float alpha,
                                                      float beta, int vec, int row_step = 1) {
#pragma unroll
    for (int hm = 0; hm < 2; ++hm)
#pragma unroll
        for (int i = 0; i < QUAD; ++i) {
            const int r = r0 + hm * step_m + i * row_step;
            if (r >= M) continue;
#pragma unroll
            for (int hn = 0; hn < TN / QUAD; ++hn) {
                const int c = c0 + hn * step_n;
                const float* v = &acc[hm * QUAD + i][hn * QUAD];
                float* out = &C[(size_t)r * N + c];
                if (vec && c + 3 < N) {
                    float4 o = make_float4(alpha * v[0], alpha * v[1], alpha * v[2], alpha * v[3]);
                    if (beta != 0.0f) {
                        const float4 old = *(const float4*)out;
                        o.x += beta * old.x, o.y += beta * old.y, o.z += beta * old.z,
                            o.w += beta * old.w;
                    }
                    *(float4*)out = o;
                } else {
#pragma unroll
                    for (int j = 0; j < QUAD; ++j)
                        if (c + j < N) gemm_store(C, (size_t)r * N + c + j, v[j], alpha, beta);
                }
            }
        }
}

template <int BM, int BN, int BK, int NT, int SPREAD, int LANES_M, int A_SLOT, int B_PADDED,
          int STAGES, int MIN_BLOCKS>
__global__ void __launch_bounds__(NT, COURSE_MIN_BLOCKS(NT, MIN_BLOCKS))
    gemm_vec(int M, int N, int K, float alpha, const float* __restrict__ A,
             const float* __restrict__ B, float beta, float* __restrict__ C, int vec) {
    constexpr int A_LOADS = BM * BK / QUAD / NT, B_LOADS = BK * BN / QUAD / NT;
    constexpr int A_FLOATS = gemm_a_stage_floats(A_SLOT, BM, BK),
                  B_FLOATS = gemm_b_stage_floats(B_PADDED, BN, BK);
    static_assert(A_LOADS >= 1 && B_LOADS >= 1 && BM * BK % (QUAD * NT) == 0 &&
                      BK * BN % (QUAD * NT) == 0,
                  "whole float4 loads per thread");
    static_assert(SPREAD != SPREAD_BLOCK || (NT == 256 && BM == 128 && BN == 128),
                  "SPREAD_BLOCK is a 16 x 16 thread grid over a 128 x 128 tile");
    constexpr int LM = LANES_M > 0 ? LANES_M : 1; /* SPREAD_BLOCK has no lane grid */
    static_assert(SPREAD != SPREAD_WARP ||
                      (LANES_M > 0 && (BM / (LM * MICRO)) * (BN / (32 / LM * MICRO)) * 32 == NT),
                  "SPREAD_WARP: the warp tiles cover the block tile, one warp each");
    static_assert(A_SLOT != SLOT_SWIZZLED || (BK >= 8 && BK <= 32 && BM >= 32),
                  "the swizzle's rows (128 / BK) and k bits (BK / 4) fit one 32-bank line");
    __shared__ __align__(16) float As[STAGES][A_FLOATS];
    __shared__ __align__(16) float Bs[STAGES][B_FLOATS];
    auto a_slot = [](int k, int m) { return gemm_a_slot(A_SLOT, BM, BK, k, m); };
    auto b_slot = [](int k, int n) { return gemm_b_slot(B_PADDED, BN, k, n); };

    const int tid = threadIdx.x, bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    int row0 = 0, col0 = 0, step_m = 0, step_n = 0;
    gemm_thread_origin(BM, BN, SPREAD, LANES_M, tid, &row0, &col0, &step_m, &step_n);

    float4 a_next[A_LOADS], b_next[B_LOADS]; /* the next slice, on its way from global memory */
    auto fetch = [&](int k0) {
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) { /* float4 f: row f / (BK/4), k 4 (f % (BK/4)) */
            const int f = tid + l * NT;
            a_next[l] = load4(A, M, K, bm + f / (BK / QUAD), k0 + f % (BK / QUAD) * QUAD, vec);
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) { /* float4 f: row f / (BN/4), column 4 (f % (BN/4)) */
            const int f = tid + l * NT;
            b_next[l] = load4(B, K, N, k0 + f / (BN / QUAD), bn + f % (BN / QUAD) * QUAD, vec);
        }
    };
    auto stash =
        [&](int s) { /* A transposed, one float at a time; B as one float4 */
#pragma unroll
                     for (int l = 0; l < A_LOADS; ++l) {
                         const int f = tid + l * NT, m = f / (BK / QUAD),
                                   k = f % (BK / QUAD) * QUAD;
                         As[s][a_slot(k + 0, m)] = a_next[l].x;
                         As[s][a_slot(k + 1, m)] = a_next[l].y;
                         As[s][a_slot(k + 2, m)] = a_next[l].z;
                         As[s][a_slot(k + 3, m)] = a_next[l].w;
                     }
#pragma unroll
                     for (int l = 0; l < B_LOADS; ++l) {
                         const int f = tid + l * NT;
                         *(float4*)&Bs[s][b_slot(f / (BN / QUAD), f % (BN / QUAD) * QUAD)] =
                             b_next[l];
                     }
        };

    float acc[MICRO][MICRO] = {};
    const int slices = (K + BK - 1) / BK;
    if (slices > 0) {
        fetch(0);
        stash(0);
    }
    __syncthreads();
    for (int t = 0; t < slices; ++t) {
        const int s = STAGES == 2 ? t & 1 : 0;
        /* Double-buffered: the next slice's global loads are issued before this slice's math,
         * so their latency hides behind it. */
        if (STAGES == 2 && t + 1 < slices) fetch((t + 1) * BK);
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a0 = *(const float4*)&As[s][a_slot(k, row0)],
                         a1 = *(const float4*)&As[s][a_slot(k, row0 + step_m)],
                         b0 = *(const float4*)&Bs[s][b_slot(k, col0)],
                         b1 = *(const float4*)&Bs[s][b_slot(k, col0 + step_n)];
            const float a[MICRO] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[MICRO] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < MICRO; ++i)
#pragma unroll
                for (int j = 0; j < MICRO; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (STAGES == 2) {
            /* The other stage was last read in slice t - 1, before the barrier that ended it. */
            if (t + 1 < slices) stash(s ^ 1);
            __syncthreads();
        } else if (t + 1 < slices) {
            __syncthreads(); /* everyone is done reading the one stage */
            fetch((t + 1) * BK);
            stash(0);
            __syncthreads();
        }
    }

    gemm_store_micro_tile(C, M, N, bm + row0, bn + col0, step_m, step_n, acc, alpha, beta, vec);
}

#endif
