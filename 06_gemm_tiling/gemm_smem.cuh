/* Kernel 3: shared-memory tiling. A block of T3 x T3 threads owns a T3 x T3 tile of C; for each
 * K-slice it stages A's and B's T3 x T3 tiles in shared memory (exercise_load_tiles), and each
 * thread then reads a row of one and a column of the other from there (exercise_tile_dot): every
 * element of A and B is fetched from global memory once per block instead of once per thread,
 * T3 = 32 times fewer loads. Shared by the program and the exercise's test; the two steps are the
 * learner's (solution.cu, exercise.cu). */
#ifndef GEMM_SMEM_CUH
#define GEMM_SMEM_CUH

#include "gemm.h"

__global__ void __launch_bounds__(T3* T3)
    gemm_smem(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
              float* C) {
    __shared__ float As[T3 * T3], Bs[T3 * T3];
    const int ty = threadIdx.x / T3, tx = threadIdx.x % T3;
    const int row = blockIdx.y * T3 + ty, col = blockIdx.x * T3 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T3) {
        exercise_load_tiles(A, B, M, N, K, blockIdx.y, blockIdx.x, k0, ty, tx, As, Bs);
        __syncthreads(); /* every tile element written before anyone reads */
        acc = exercise_tile_dot(As, Bs, ty, tx, acc);
        __syncthreads(); /* every read done before the next slice overwrites the tiles */
    }
    if (row < M && col < N) {
        const size_t c = (size_t)row * N + col;
        C[c] = beta == 0.0f ? alpha * acc : alpha * acc + beta * C[c];
    }
}

static inline dim3 gemm_smem_grid(int M, int N) {
    return dim3((unsigned)((N + T3 - 1) / T3), (unsigned)((M + T3 - 1) / T3));
}

#endif
