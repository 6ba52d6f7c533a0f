/* The register-tile geometry of the SIMT GEMMs: chapter 06's kernels 6 to 8 and the cp.async and
 * TMA kernels of chapter 08 that start from them.
 *
 * Every matrix is row-major: A is M x K (element (i, k) at A[i * K + k]), B is K x N, C is M x N,
 * and every kernel computes C = alpha * A * B + beta * C. With beta = 0, C is not read (as in
 * BLAS), so an output full of NaN is overwritten, not propagated.
 *
 * One kernel (gemm/register_staged.cuh, gemm_vec) in three steps, each one parameter of this
 * geometry: a BM x BN tile of C per block, K-slices of BK, NT threads, each thread an 8 x 8
 * micro-tile made of 2 x 2 blocks of 4 x 4, so that its fragments of A and B are two float4 each.
 * A's slice is stored transposed (As[k][m], so that a thread reads its 4 rows as one float4), B's
 * as it is (Bs[k][n]). */
#ifndef COURSE_GEMM_GEOMETRY_H
#define COURSE_GEMM_GEOMETRY_H

#include "model/layout.h"

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
COURSE_HD_INLINE void gemm_thread_origin(int bm, int bn, int spread, int lanes_m, int tid,
                                         int* row0, int* col0, int* step_m, int* step_n) {
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

/* The swizzle of A's transposed slice. A warp's transposed stores write, for one k, 32 / (BK / 4)
 * consecutive rows m (offset bits 0 .. log2(128 / BK) - 1) for each of the BK / 4 float4 columns
 * k = 4q + j: the same banks, a BK / 4-way conflict. XOR q (offset bits log2(BM) + 2 and up) into
 * the bank bits just above the rows: B = log2(BK / 4), M = log2(128 / BK), S = log2(BM) + 2 - M.
 * M >= 2 keeps every float4 whole, so the compute reads stay single vectors. */
COURSE_HD_INLINE int gemm_swizzle_b(int bk) {
    return course_log2(bk / QUAD);
}
COURSE_HD_INLINE int gemm_swizzle_m(int bk) {
    return course_log2(128 / bk);
}
COURSE_HD_INLINE int gemm_swizzle_s(int bm, int bk) {
    return course_log2(bm) + 2 - gemm_swizzle_m(bk);
}

/* Where As[k][m] and Bs[k][n] live, in floats from the start of one stage. The swizzle reads its
 * bits YYY from k (offset bits >= log2(BM)) and flips bits ZZZ of m (below bit 5), so for m < BM
 *     Swizzle(k * BM + m) = k * BM + (m ^ flip(k)),   flip(k) = Swizzle(k * BM) ^ (k * BM):
 * written so, the flip is a constant for each k of an unrolled loop, and a kernel pays one XOR per
 * thread and k-group instead of the whole swizzle at every access. */
COURSE_HD_INLINE int gemm_a_slot(int a_slot, int bm, int bk, int k, int m) {
    return a_slot == SLOT_PADDED ? k * (bm + QUAD) + m
           : a_slot == SLOT_SWIZZLED
               ? k * bm + (m ^ (int)(layout_swizzle((unsigned)(k * bm), gemm_swizzle_b(bk),
                                                    gemm_swizzle_m(bk), gemm_swizzle_s(bm, bk)) ^
                                     (unsigned)(k * bm)))
               : k * bm + m;
}
COURSE_HD_INLINE int gemm_b_slot(int b_padded, int bn, int k, int n) {
    return k * (bn + (b_padded ? QUAD : 0)) + n;
}
COURSE_HD_INLINE int gemm_a_stage_floats(int a_slot, int bm, int bk) {
    return bk * (bm + (a_slot == SLOT_PADDED ? QUAD : 0));
}
COURSE_HD_INLINE int gemm_b_stage_floats(int b_padded, int bn, int bk) {
    return bk * (bn + (b_padded ? QUAD : 0));
}

#endif
