/* Kernel 3: shared-memory tiling. A block of T3 x T3 threads owns a T3 x T3 tile of C; for each
 * K-slice it stages A's and B's T3 x T3 tiles in shared memory, and each thread then reads a row
 * of one and a column of the other from there: every element of A and B is fetched from global
 * memory once per block instead of once per thread, T3 = 32 times fewer loads.
 *
 * gemm_smem is the lesson's kernel. gemm_smem_exercise is the same kernel with its two steps
 * called from the learner's code (solution.cu or exercise.cu, compiled apart): the exercise's
 * test grades it, and the program times it beside gemm_smem (`smem_exercise`), which shows what
 * the two calls across files cost. */
#ifndef GEMM_SMEM_CUH
#define GEMM_SMEM_CUH

#include "gemm.h"
#include "gemm/tile_io.cuh"

__global__ void __launch_bounds__(T3* T3)
    gemm_smem(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
              float* C) {
    __shared__ float As[T3 * T3], Bs[T3 * T3];
    const int ty = threadIdx.x / T3, tx = threadIdx.x % T3;
    const int row = blockIdx.y * T3 + ty, col = blockIdx.x * T3 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T3) {
        /* Lane tx reads 32 consecutive floats of a row of A and of B, stored at consecutive
         * words: coalesced and conflict-free. */
        As[ty * T3 + tx] = load_or_zero(A, M, K, K, row, k0 + tx);
        Bs[ty * T3 + tx] = load_or_zero(B, K, N, N, k0 + ty, col);
        __syncthreads(); /* every tile element written before anyone reads */
        for (int k = 0; k < T3; ++k) acc += As[ty * T3 + k] * Bs[k * T3 + tx];
        __syncthreads(); /* every read done before the next slice overwrites the tiles */
    }
    if (row < M && col < N) gemm_store(C, (size_t)row * N + col, acc, alpha, beta);
}

__global__ void __launch_bounds__(T3* T3)
    gemm_smem_exercise(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                       float* C) {
    __shared__ float As[T3 * T3], Bs[T3 * T3];
    const int ty = threadIdx.x / T3, tx = threadIdx.x % T3;
    const int row = blockIdx.y * T3 + ty, col = blockIdx.x * T3 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T3) {
        exercise_load_tiles(A, B, M, N, K, blockIdx.y, blockIdx.x, k0, ty, tx, As, Bs);
        __syncthreads();
        acc = exercise_tile_dot(As, Bs, ty, tx, acc);
        __syncthreads();
    }
    if (row < M && col < N) gemm_store(C, (size_t)row * N + col, acc, alpha, beta);
}

static inline dim3 gemm_smem_grid(int M, int N) {
    return dim3((unsigned)((N + T3 - 1) / T3), (unsigned)((M + T3 - 1) / T3));
}

#endif
