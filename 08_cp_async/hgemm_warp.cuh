/* Chapter 08, part 3: one warp's 64 x 64 tile of C on mma.sync.m16n8k16, what every tensor-core
 * kernel of the chapter shares: the lane's ldmatrix rows in the stage's tiles, a k16 step's
 * fragments (A .x4, B .x4.trans) and its 32 mma, and the store of the accumulators to C from
 * registers. The lanes' rows and D's elements are mma_fragments.h's maps, which
 * test_mma_fragments proves against the hardware. */
#ifndef HGEMM_WARP_CUH
#define HGEMM_WARP_CUH

#include "mma_fragments.h"
#include "ptx/matrix.cuh"
#include "ptx/shared.cuh"

#include <cuda_fp16.h>

/* The lane's ldmatrix offsets in its warp's tiles (the warp at rows wm, columns wn), the row
 * ldmatrix_x4_row gives it in each 16 x 16 block (mma_fragments.h, proven by test_mma_fragments):
 * A's blocks at (wm, 16 ks), for each of the slice's KS steps; B's at (0, wn + 16 j), for each
 * pair j of n8 tiles. Every layout keeps a whole 16-row step additive (16 rows move no bit the
 * swizzle reads: its YYY are row bits 0..2, or 1..2 / 2 at 64- / 32-byte rows), so these are the
 * only offsets computed: the rest are constants. */
template <typename TA, typename TB, int KS>
static __device__ __forceinline__ void hg_lane_offsets(int (&a_off)[KS], int (&b_off)[4], int wm,
                                                       int wn, int lane) {
    int row, col;
    ldmatrix_x4_row(lane, &row, &col);
#pragma unroll
    for (int ks = 0; ks < KS; ++ks) a_off[ks] = TA::at(wm + row, 16 * ks + col);
#pragma unroll
    for (int j = 0; j < 4; ++j) b_off[j] = TB::at(row, wn + 16 * j + col);
}

/* The warp's fragments of one k16 step: A's 4 m16 tiles, rows 16 apart (A_ROWS16 halves), from
 * a (the lane's row and column of tile 0), .x4; B's 8 n8 tiles in pairs from b + b_off[j], .x4
 * .trans (the B registers of tiles 2 j and 2 j + 1). */
template <int A_ROWS16>
static __device__ __forceinline__ void hg_fragments(unsigned (&af)[4][4], unsigned (&bf)[4][4],
                                                    const __half* a, const __half* b,
                                                    const int (&b_off)[4]) {
#pragma unroll
    for (int i = 0; i < 4; ++i) ldmatrix<4, false>(af[i], smem_address(a + i * A_ROWS16));
#pragma unroll
    for (int j = 0; j < 4; ++j) ldmatrix<4, true>(bf[j], smem_address(b + b_off[j]));
}

/* One k16 step of the warp's 64 x 64 tile: 4 x 8 mma, each A fragment used by 8 in a row. */
static __device__ __forceinline__ void
hg_mma_step(float (&acc)[4][8][4], const unsigned (&af)[4][4], const unsigned (&bf)[4][4]) {
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            mma_m16n8k16(acc[i][j], af[i], bf[j / 2][2 * (j % 2)], bf[j / 2][2 * (j % 2) + 1]);
}

/* C = alpha acc + beta C for the warp's 64 x 64 tile at (row0, col0), inside M x N. D's floats
 * 2h, 2h + 1 of tile (i, j) lie side by side in a row (mma_d_element), stored as a float2 when N
 * is even (the pair is then 8-byte aligned). */
static __device__ __forceinline__ void hg_store(float* C, int M, int N, int row0, int col0,
                                                const float (&acc)[4][8][4], float alpha,
                                                float beta, int lane) {
    const bool pairs = N % 2 == 0;
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                int row, col;
                mma_d_element(lane, 2 * h, &row, &col);
                const int r = row0 + 16 * i + row, c = col0 + 8 * j + col;
                if (r >= M || c >= N) continue;
                float* out = C + (size_t)r * N + c;
                float2 v = make_float2(alpha * acc[i][j][2 * h], alpha * acc[i][j][2 * h + 1]);
                if (pairs) {
                    if (beta != 0.0f) {
                        const float2 old = *reinterpret_cast<const float2*>(out);
                        v.x += beta * old.x;
                        v.y += beta * old.y;
                    }
                    *reinterpret_cast<float2*>(out) = v;
                } else {
                    out[0] = beta == 0.0f ? v.x : v.x + beta * out[0];
                    if (c + 1 < N) out[1] = beta == 0.0f ? v.y : v.y + beta * out[1];
                }
            }
}

#endif
