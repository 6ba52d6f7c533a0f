/* Chapter 06: the shared-memory accesses of one K-slice of kernels 3, 4 and 5, warp by warp, put
 * through the calibrated bank model, written out as gemm_kernels.cuh does them (kernels 6 to 8:
 * common/gemm/smem_cost.c, from their geometry). */
#include "gemm.h"

#include <string.h>

/* ---------------------------------------------------------------- kernel 3: 32 x 32 threads
 * Thread (ty, tx) = (tid / 32, tid % 32): warp w is row ty = w. Stores As[ty][tx], Bs[ty][tx];
 * reads As[ty][k] (one address per warp: a broadcast) and Bs[k][tx] (a row). */
/* Kernels 3, 4 and 5 store their tiles at consecutive words: lane l of warp w at w * 32 + l. */
static unsigned consecutive_store(const void* ctx, int w, int l, int i) {
    (void)ctx, (void)i;
    return (unsigned)(w * 32 + l) * 4;
}
static unsigned k3_a_read(const void* ctx, int w, int l, int k) {
    (void)ctx, (void)l;
    return (unsigned)(w * T3 + k) * 4;
}
static unsigned k3_b_read(const void* ctx, int w, int l, int k) {
    (void)ctx, (void)w;
    return (unsigned)(k * T3 + l) * 4;
}

int gemm_model_smem(gemm_smem_cost* c) {
    memset(c, 0, sizeof *c);
    const int warps = T3 * T3 / 32;
    if (gemm_model_add_access(c, "A and B tile stores", 4, 1, warps, 2, consecutive_store, NULL) ||
        gemm_model_add_access(c, "A reads As[ty][k]", 4, 0, warps, T3, k3_a_read, NULL) ||
        gemm_model_add_access(c, "B reads Bs[k][tx]", 4, 0, warps, T3, k3_b_read, NULL))
        return -1;
    gemm_model_finish(c);
    return 0;
}

/* ---------------------------------------------------------------- kernel 4: 64 x 64, BK 8
 * 512 threads; thread tid computes column tid % 64, rows tid / 64 * 8 .. + 7. Stores: As[m][k]
 * at tid (m = tid / 8, k = tid % 8) and Bs[k][n] at tid: consecutive words. Reads: As[m][k]
 * (the same m for a whole warp: a broadcast) and Bs[k][tid % 64] (a row). */
static unsigned k4_a_read(const void* ctx, int w, int l, int i) {
    (void)ctx;
    const int tid = w * 32 + l, dot = i / K4_TM, r = i % K4_TM;
    return (unsigned)((tid / K4_BN * K4_TM + r) * K4_BK + dot) * 4;
}
static unsigned k4_b_read(const void* ctx, int w, int l, int dot) {
    (void)ctx;
    return (unsigned)(dot * K4_BN + (w * 32 + l) % K4_BN) * 4;
}

int gemm_model_blocktile_1d(gemm_smem_cost* c) {
    memset(c, 0, sizeof *c);
    const int warps = K4_NT / 32;
    if (gemm_model_add_access(c, "A and B tile stores", 4, 1, warps, 2, consecutive_store, NULL) ||
        gemm_model_add_access(c, "A reads As[m][k]", 4, 0, warps, K4_BK * K4_TM, k4_a_read, NULL) ||
        gemm_model_add_access(c, "B reads Bs[k][n]", 4, 0, warps, K4_BK, k4_b_read, NULL))
        return -1;
    gemm_model_finish(c);
    return 0;
}

/* ---------------------------------------------------------------- kernel 5: 128 x 128, BK 8
 * 256 threads in a 16 x 16 grid, each an 8 x 8 block of C: rows tid / 16 * 8 .., columns
 * tid % 16 * 8 ... Stores: consecutive words, as kernel 4. Reads, per k: As[row][k] for its 8
 * rows (a warp holds two thread rows: two addresses 8 x 8 words apart, one bank) and
 * Bs[k][col .. col + 7] (16 columns of threads 8 words apart: 4 on each bank). */
static unsigned k5_a_read(const void* ctx, int w, int l, int i) {
    (void)ctx;
    const int tid = w * 32 + l, k = i / K5_T, r = i % K5_T;
    return (unsigned)((tid / 16 * K5_T + r) * K5_BK + k) * 4;
}
static unsigned k5_b_read(const void* ctx, int w, int l, int i) {
    (void)ctx;
    const int tid = w * 32 + l, k = i / K5_T, j = i % K5_T;
    return (unsigned)(k * K5_BN + tid % 16 * K5_T + j) * 4;
}

int gemm_model_blocktile_2d(gemm_smem_cost* c) {
    memset(c, 0, sizeof *c);
    const int warps = K5_NT / 32;
    if (gemm_model_add_access(c, "A and B tile stores", 4, 1, warps, 8, consecutive_store, NULL) ||
        gemm_model_add_access(c, "A reads As[m][k]", 4, 0, warps, K5_BK * K5_T, k5_a_read, NULL) ||
        gemm_model_add_access(c, "B reads Bs[k][n]", 4, 0, warps, K5_BK * K5_T, k5_b_read, NULL))
        return -1;
    gemm_model_finish(c);
    return 0;
}
