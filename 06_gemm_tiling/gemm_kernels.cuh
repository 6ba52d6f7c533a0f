/* Chapter 06's kernels 1, 2, 4 and 5 (kernel 3, the exercise, is in gemm_smem.cuh; kernels 6 to 8
 * in common/gemm/register_staged.cuh). Every kernel takes
 * (M, N, K, alpha, A, B, beta, C), row-major, any M, N, K >= 0: elements past an edge are loaded
 * as 0 and never stored, so every kernel is general (M, N >= 1, K >= 0); none needs its tile to
 * divide the shape. */
#ifndef GEMM_KERNELS_CUH
#define GEMM_KERNELS_CUH

#include "gemm.h"
#include "device/sm_limits.cuh"
#include "gemm/register_staged.cuh"
#include "gemm/tile_io.cuh"

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
        As[tid] = load_or_zero(A, M, K, K, bm + tid / K4_BK, k0 + tid % K4_BK);
        Bs[tid] = load_or_zero(B, K, N, N, k0 + tid / K4_BN, bn + tid % K4_BN);
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
            As[e] = load_or_zero(A, M, K, K, bm + e / K5_BK, k0 + e % K5_BK);
            Bs[e] = load_or_zero(B, K, N, N, k0 + e / K5_BN, bn + e % K5_BN);
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

#endif
