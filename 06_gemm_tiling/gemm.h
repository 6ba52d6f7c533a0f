/* Chapter 06: what the program, its model, the solution and the exercise share.
 *
 * Every matrix is row-major: A is M x K (element (i, k) at A[i * K + k]), B is K x N, C is M x N,
 * and every kernel computes C = alpha * A * B + beta * C. With beta = 0, C is not read (as in
 * BLAS), so an output full of NaN is overwritten, not propagated. */
#ifndef GEMM_H
#define GEMM_H

#include "gemm/geometry.h"
#include "gemm/smem_cost.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- the exercise: kernel 3
 * Kernel 3 tiles C into T3 x T3 blocks; thread (ty, tx) of a block computes one element of C.
 * For each K-slice k0 = 0, T3, 2 T3, ... the block stages the slice's T3 x T3 tile of A (the
 * block's rows) and of B (the block's columns) in shared memory, row-major, 0 for elements
 * outside the matrices, waits, and adds one tile's dot product to its sum. The learner writes
 * the two steps one thread does (README.md, "Exercise"); gemm_smem_exercise (gemm_smem.cuh)
 * calls them between its barriers. */
enum { T3 = 32 };

/* Kernel 4 (1-D blocktiling) and kernel 5 (2-D): their fixed tiles, shared with the bank model. */
enum { K4_BM = 64, K4_BN = 64, K4_BK = 8, K4_TM = 8, K4_NT = K4_BM * K4_BN / K4_TM };
enum { K5_BM = 128, K5_BN = 128, K5_BK = 8, K5_T = 8, K5_NT = K5_BM * K5_BN / (K5_T * K5_T) };

/* Thread (ty, tx) stores its element of A's tile and of B's tile for the slice at k0. */
COURSE_HD void exercise_load_tiles(const float* A, const float* B, int M, int N, int K,
                                   int block_row, int block_col, int k0, int ty, int tx, float* As,
                                   float* Bs);

/* Thread (ty, tx) adds row ty of As times column tx of Bs to acc and returns the sum. */
COURSE_HD float exercise_tile_dot(const float* As, const float* Bs, int ty, int tx, float acc);

/* The bank model of kernels 3, 4 and 5 (their fixed tiles; kernels 6 to 8: gemm_model_vec).
 * Return 0, or -1 if an access is malformed. */
int gemm_model_smem(gemm_smem_cost* c);
int gemm_model_blocktile_1d(gemm_smem_cost* c);
int gemm_model_blocktile_2d(gemm_smem_cost* c);

/* The chapter's pictures (--picture DIR, gemm_pictures.cu): kernel 7's warp tile and its shared
 * reads, for warptile, kernel 7's geometry. Returns an exit code (course_picture_draw's). */
int gemm_pictures(const char* dir, const gemm_geometry* warptile);

#ifdef __cplusplus
}
#endif

#endif
