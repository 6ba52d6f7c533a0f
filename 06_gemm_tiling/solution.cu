/* Chapter 06: the reference answer to the exercise, kernel 3's two steps (gemm.h, README.md). */
#include "gemm.h"

/* Lane tx of a warp (one row ty of threads) reads A(row, k0 + tx): 32 consecutive floats of one
 * row, one 128-byte line; and B(k0 + ty, col): also consecutive. Both go to As[ty][tx] and
 * Bs[ty][tx], consecutive words: no bank conflict. */
void exercise_load_tiles(const float* A, const float* B, int M, int N, int K, int block_row,
                         int block_col, int k0, int ty, int tx, float* As, float* Bs) {
    const int a_row = block_row * T3 + ty, a_col = k0 + tx;
    const int b_row = k0 + ty, b_col = block_col * T3 + tx;
    As[ty * T3 + tx] = a_row < M && a_col < K ? A[(size_t)a_row * K + a_col] : 0.0f;
    Bs[ty * T3 + tx] = b_row < K && b_col < N ? B[(size_t)b_row * N + b_col] : 0.0f;
}

/* In step k a warp reads As[ty][k], one word for all 32 lanes (a broadcast), and Bs[k][tx], 32
 * consecutive words: one wavefront each. The zeros past the edges add nothing. */
float exercise_tile_dot(const float* As, const float* Bs, int ty, int tx, float acc) {
    for (int k = 0; k < T3; ++k) acc += As[ty * T3 + k] * Bs[k * T3 + tx];
    return acc;
}
