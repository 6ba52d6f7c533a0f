/* Chapter 06 exercise: write kernel 3's two steps (see gemm.h and README.md, "Exercise"), then run
 *     scripts/grade.sh 06_gemm_tiling
 * The test runs your functions on the CPU (one thread after another, as the kernel's barriers
 * order them) and, on a machine with a GPU, inside kernel 3, on odd shapes against a double
 * reference. */
#include "gemm.h"

void exercise_load_tiles(const float* A, const float* B, int M, int N, int K, int block_row,
                         int block_col, int k0, int ty, int tx, float* As, float* Bs) {
    (void)A, (void)B, (void)M, (void)N, (void)K, (void)block_row, (void)block_col, (void)k0;
    (void)ty, (void)tx, (void)As, (void)Bs;
    /* TODO: this thread stages one element of each tile, stored where it sits in the tile (As
     * and Bs hold the tiles row-major, T3 floats a row). A's tile is the T3 x T3 block of A at
     * block row block_row and the K-slice from k0; B's, the block of B at the K-slice from k0
     * and block column block_col. Pick the element from (ty, tx) so that the 32 threads of a
     * warp (one ty, tx = 0..31) read consecutive floats of one row of the matrix and write
     * consecutive words of the tile. An element past an edge of its matrix (M or K for A, K or
     * N for B) is 0. */
}

float exercise_tile_dot(const float* As, const float* Bs, int ty, int tx, float acc) {
    (void)As, (void)Bs, (void)ty, (void)tx;
    /* TODO: this thread's element of C (row ty, column tx of the block's tile of C) is a row of
     * A times a column of B. Add to acc the part of that sum this K-slice holds: the T3 products
     * of row ty of As with column tx of Bs. */
    return acc; /* not written yet: C = beta * C */
}
