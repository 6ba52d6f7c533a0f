/* The SIMT GEMMs' global-memory edges: a tile's loads with 0 past the matrix, and a thread's
 * micro-tile of C stored as C = alpha * acc + beta * C (C not read when beta is 0). Any M, N,
 * K >= 0: elements past an edge are loaded as 0 and never stored. */
#ifndef COURSE_GEMM_TILE_IO_CUH
#define COURSE_GEMM_TILE_IO_CUH

#include "gemm/geometry.h"

#include <stddef.h>

/* C = alpha * acc + beta * C, not reading C when beta is 0. */
__device__ __forceinline__ void gemm_store(float* C, size_t at, float acc, float alpha,
                                           float beta) {
    C[at] = beta == 0.0f ? alpha * acc : alpha * acc + beta * C[at];
}

/* An element of a row-major rows x cols matrix whose rows are ld apart, or 0 past its edge. */
__device__ __forceinline__ float load_or_zero(const float* X, int rows, int cols, int ld, int r,
                                              int c) {
    return r < rows && c < cols ? X[(size_t)r * ld + c] : 0.0f;
}

/* Four consecutive elements of row r from column c, 0 past the edge. */
__device__ __forceinline__ float4 load4(const float* X, int rows, int cols, int ld, int r, int c,
                                        int vec) {
    if (vec && r < rows && c + 3 < cols) return *(const float4*)&X[(size_t)r * ld + c];
    float4 v;
    v.x = load_or_zero(X, rows, cols, ld, r, c);
    v.y = load_or_zero(X, rows, cols, ld, r, c + 1);
    v.z = load_or_zero(X, rows, cols, ld, r, c + 2);
    v.w = load_or_zero(X, rows, cols, ld, r, c + 3);
    return v;
}

/* A thread's 8 x TN micro-tile of C (TN = 8 here, 16 in chapter 08), its 2 x TN/4 blocks of 4 x 4
 * at rows r0 + h * step_m and columns c0 + w * step_n of an M x N matrix whose rows are ldc
 * apart: C = alpha * acc + beta * C, as float4 where the row holds 4 more (and vec says float4
 * are aligned), else element by element up to the edges. */
template <int TN>
__device__ __forceinline__ void gemm_store_micro_tile(float* C, int M, int N, int ldc, int r0,
                                                      int c0, int step_m, int step_n,
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
                float* out = &C[(size_t)r * ldc + c];
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
                        if (c + j < N) gemm_store(C, (size_t)r * ldc + c + j, v[j], alpha, beta);
                }
            }
        }
}

#endif
