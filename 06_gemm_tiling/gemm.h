/* Chapter 06: what the program, its model, the solution and the exercise share.
 *
 * Every matrix is row-major: A is M x K (element (i, k) at A[i * K + k]), B is K x N, C is M x N,
 * and every kernel computes C = alpha * A * B + beta * C. With beta = 0, C is not read (as in
 * BLAS), so an output full of NaN is overwritten, not propagated. */
#ifndef GEMM_H
#define GEMM_H

#ifdef __CUDACC__
#define GEMM_HD    __host__ __device__
#define GEMM_CONST static constexpr __host__ __device__
#else
#define GEMM_HD
#define GEMM_CONST static inline
#endif

#include "layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- the exercise: kernel 3
 * Kernel 3 tiles C into T3 x T3 blocks; thread (ty, tx) of a block computes one element of C.
 * For each K-slice k0 = 0, T3, 2 T3, ... the block stages A's and B's T3 x T3 tiles in shared
 * memory, As[ty * T3 + tx] = A(block_row * T3 + ty, k0 + tx) and Bs[ty * T3 + tx] =
 * B(k0 + ty, block_col * T3 + tx), with 0 for elements outside the matrices, waits, and adds one
 * tile's dot product to its sum. The learner writes the two steps one thread does (README.md,
 * "Exercise"); the kernel (gemm_smem.cuh) calls them between its barriers. */
enum { T3 = 32 };

/* Kernel 4 (1-D blocktiling) and kernel 5 (2-D): their fixed tiles, shared with the bank model. */
enum { K4_BM = 64, K4_BN = 64, K4_BK = 8, K4_TM = 8, K4_NT = K4_BM * K4_BN / K4_TM };
enum { K5_BM = 128, K5_BN = 128, K5_BK = 8, K5_T = 8, K5_NT = K5_BM * K5_BN / (K5_T * K5_T) };

/* Thread (ty, tx) stores its element of A's tile and of B's tile for the slice at k0. */
GEMM_HD void exercise_load_tiles(const float* A, const float* B, int M, int N, int K, int block_row,
                                 int block_col, int k0, int ty, int tx, float* As, float* Bs);

/* Thread (ty, tx) adds row ty of As times column tx of Bs to acc and returns the sum. */
GEMM_HD float exercise_tile_dot(const float* As, const float* Bs, int ty, int tx, float acc);

/* ---------------------------------------------------------------- kernels 6 to 8
 * One kernel (gemm_kernels.cuh, gemm_vec) in three steps, each one parameter of this geometry:
 * a BM x BN tile of C per block, K-slices of BK, NT threads, each thread an 8 x 8 micro-tile made
 * of 2 x 2 blocks of 4 x 4, so that its fragments of A and B are two float4 each. A's slice is
 * stored transposed (As[k][m], so that a thread reads its 4 rows as one float4), B's as it is
 * (Bs[k][n]). */
typedef enum {
    SPREAD_BLOCK = 0, /* kernel 6: threads in a 16 x 16 grid over the block; a thread's 4 x 4
                         blocks sit BM / 2 rows and BN / 2 columns apart */
    SPREAD_WARP = 1   /* kernels 7, 8: each warp owns a WM x WN warp tile, its lanes a 4 x 8 (or
                         8 x 4) grid in it; a thread's 4 x 4 blocks sit half a warp tile apart */
} gemm_spread;

typedef enum {
    SLOT_PLAIN = 0,   /* As[k][m] at k * BM + m */
    SLOT_PADDED = 1,  /* at k * (BM + 4) + m: 4, not 1, to keep each float4 16-byte aligned */
    SLOT_SWIZZLED = 2 /* Swizzle<B,M,S>(k * BM + m), B, M, S: gemm_swizzle_b/m/s */
} gemm_slot;

typedef struct {
    int bm, bn, bk, nt;
    gemm_spread spread;
    int lanes_m;      /* SPREAD_WARP: lanes along M (4 or 8); lanes along N = 32 / lanes_m */
    gemm_slot a_slot; /* A's layout in shared memory */
    int b_padded;     /* 1: Bs rows padded to BN + 4 (the trap: B had no conflict) */
    int stages;       /* 1: load, sync, compute, sync; 2: double-buffered */
} gemm_geometry;

/* The thread micro-tile: 2 x 2 blocks of 4 x 4. */
enum { MICRO = 8, QUAD = 4 };

/* The functions below take the geometry's fields one by one, not the struct: in a kernel they are
 * template constants, and the compiler folds every index to an immediate only when it sees them
 * as plain constants. */

/* Thread tid's first row and column in the block tile, and the distance to its second 4 x 4
 * block along M (step_m) and N (step_n). */
GEMM_CONST void gemm_thread_origin(int bm, int bn, int spread, int lanes_m, int tid, int* row0,
                                   int* col0, int* step_m, int* step_n) {
    if (spread == SPREAD_BLOCK) { /* a 16 x 16 thread grid: 16 x 4 rows per half */
        *row0 = tid / 16 * QUAD;
        *col0 = tid % 16 * QUAD;
        *step_m = bm / 2;
        *step_n = bn / 2;
    } else {
        const int lanes_n = 32 / lanes_m, wm = lanes_m * MICRO, wn = lanes_n * MICRO;
        const int warp = tid / 32, lane = tid % 32, warps_n = bn / wn;
        *row0 = warp / warps_n * wm + lane / lanes_n * QUAD;
        *col0 = warp % warps_n * wn + lane % lanes_n * QUAD;
        *step_m = wm / 2;
        *step_n = wn / 2;
    }
}

/* log2 of a power of two up to 2^12, without recursion or loops (both stop constant folding). */
GEMM_CONST int gemm_log2(int x) {
    return (x >= 2) + (x >= 4) + (x >= 8) + (x >= 16) + (x >= 32) + (x >= 64) + (x >= 128) +
           (x >= 256) + (x >= 512) + (x >= 1024) + (x >= 2048) + (x >= 4096);
}

/* The swizzle of A's transposed slice. A warp's transposed stores write, for one k, 32 / (BK / 4)
 * consecutive rows m (offset bits 0 .. log2(128 / BK) - 1) for each of the BK / 4 float4 columns
 * k = 4q + j: the same banks, a BK / 4-way conflict. XOR q (offset bits log2(BM) + 2 and up) into
 * the bank bits just above the rows: B = log2(BK / 4), M = log2(128 / BK), S = log2(BM) + 2 - M.
 * M >= 2 keeps every float4 whole, so the compute reads stay single vectors. */
GEMM_CONST int gemm_swizzle_b(int bk) {
    return gemm_log2(bk / QUAD);
}
GEMM_CONST int gemm_swizzle_m(int bk) {
    return gemm_log2(128 / bk);
}
GEMM_CONST int gemm_swizzle_s(int bm, int bk) {
    return gemm_log2(bm) + 2 - gemm_swizzle_m(bk);
}

/* Where As[k][m] and Bs[k][n] live, in floats from the start of one stage. The swizzle reads its
 * bits YYY from k (offset bits >= log2(BM)) and flips bits ZZZ of m (below bit 5), so for m < BM
 *     Swizzle(k * BM + m) = k * BM + (m ^ flip(k)),   flip(k) = Swizzle(k * BM) ^ (k * BM):
 * written so, the flip is a constant for each k of an unrolled loop, and a kernel pays one XOR per
 * thread and k-group instead of the whole swizzle at every access. */
GEMM_CONST int gemm_a_slot(int a_slot, int bm, int bk, int k, int m) {
    return a_slot == SLOT_PADDED ? k * (bm + QUAD) + m
           : a_slot == SLOT_SWIZZLED
               ? k * bm + (m ^ (int)(layout_swizzle((unsigned)(k * bm), gemm_swizzle_b(bk),
                                                    gemm_swizzle_m(bk), gemm_swizzle_s(bm, bk)) ^
                                     (unsigned)(k * bm)))
               : k * bm + m;
}
GEMM_CONST int gemm_b_slot(int b_padded, int bn, int k, int n) {
    return k * (bn + (b_padded ? QUAD : 0)) + n;
}
GEMM_CONST int gemm_a_stage_floats(int a_slot, int bm, int bk) {
    return bk * (bm + (a_slot == SLOT_PADDED ? QUAD : 0));
}
GEMM_CONST int gemm_b_stage_floats(int b_padded, int bn, int bk) {
    return bk * (bn + (b_padded ? QUAD : 0));
}

/* ---------------------------------------------------------------- the bank model
 * Shared-memory wavefronts per request of one K-slice, by the calibrated model (smem_model.h),
 * summed over every warp of a block: what Nsight Compute divides over a whole launch. */
typedef struct {
    const char* what; /* "A tile store", ... */
    int width;        /* bytes per lane */
    int is_store;
    double wavefronts, ideal; /* per request */
    int requests;             /* per block and K-slice */
} gemm_access_cost;

enum { GEMM_MAX_ACCESSES = 4 };
typedef struct {
    int n;
    gemm_access_cost access[GEMM_MAX_ACCESSES];
    double st, ld; /* the averages over every store (load) request */
} gemm_smem_cost;

/* One access of a table: the byte offset lane `lane` of warp `warp` touches in its `i`-th
 * request of this kind (of `per_warp`); added to c with its wavefronts and ideal per request.
 * gemm_model_finish then sets c->ld and c->st, the averages over every load (store) request:
 * what ncu's wavefronts / requests measure. (Chapter 08 models its kernels with them too.) */
typedef unsigned (*gemm_lane_offset_fn)(const void* ctx, int warp, int lane, int i);
int gemm_model_add_access(gemm_smem_cost* c, const char* what, int width, int is_store, int warps,
                          int per_warp, gemm_lane_offset_fn at, const void* ctx);
void gemm_model_finish(gemm_smem_cost* c);

/* Kernels 3, 4, 5 (their fixed tiles) and kernels 6 to 8 (a geometry). Return 0, or -1 if an
 * access is malformed. */
int gemm_model_smem(gemm_smem_cost* c);
int gemm_model_blocktile_1d(gemm_smem_cost* c);
int gemm_model_blocktile_2d(gemm_smem_cost* c);
int gemm_model_vec(const gemm_geometry* g, gemm_smem_cost* c);

#ifdef __cplusplus
}
#endif

#endif
