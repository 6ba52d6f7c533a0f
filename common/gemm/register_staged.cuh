/* The register-staged SIMT GEMM: chapter 06's kernels 6, 7 and 8 (one template, three steps of
 * its geometry, gemm/geometry.h) and the baseline chapter 08's cp.async kernels are measured
 * against. Every kernel takes (M, N, K, alpha, A, B, beta, C), row-major, any M, N, K >= 0.
 * The geometry is a template's constant: BM, BN, BK, NT, how threads spread over the tile, A's
 * shared layout, stages. Edges: `vec` (K and N multiples of 4, 16-byte aligned matrices) lets
 * whole float4s load and store; any float4 that crosses an edge, or every one when vec is 0, goes
 * element by element with 0 past the edge. */
#ifndef COURSE_GEMM_REGISTER_STAGED_CUH
#define COURSE_GEMM_REGISTER_STAGED_CUH

#include "device/sm_limits.cuh"
#include "gemm/tile_io.cuh"

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
            a_next[l] = load4(A, M, K, K, bm + f / (BK / QUAD), k0 + f % (BK / QUAD) * QUAD, vec);
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) { /* float4 f: row f / (BN/4), column 4 (f % (BN/4)) */
            const int f = tid + l * NT;
            b_next[l] = load4(B, K, N, N, k0 + f / (BN / QUAD), bn + f % (BN / QUAD) * QUAD, vec);
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

    gemm_store_micro_tile(C, M, N, N, bm + row0, bn + col0, step_m, step_n, acc, alpha, beta, vec);
}

#endif
