/* Chapter 08, the tensor-core part: where each element of an mma.m16n8k16 tile
 * lives in a warp's registers, and which shared-memory rows ldmatrix must be given so that its
 * registers are exactly those fragments, proven by test_mma_fragments.cu (CPU and GPU). The
 * kernels (hgemm_kernels.cuh, hgemm_tma_kernels.cuh) address their ldmatrix rows and their stores
 * of D through these same functions, so the test proves the kernels' addressing.
 *
 * mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: D (16 x 8, f32) = A (16 x 16, f16, row)
 * x B (16 x 8, f16, col) + C. Lane l: g = l / 4 (its group), t = l % 4 (its place in it).
 *   A: 4 registers of 2 halves: register j, half h holds A[g + 8 (j % 2)][2 t + h + 8 (j / 2)]
 *   B: 2 registers of 2 halves: register j, half h holds B[2 t + h + 8 j][g]
 *   C, D: 4 floats: float i holds D[g + 8 (i / 2)][2 t + i % 2]
 * ldmatrix.m8n8.xN (16-bit): lane 8 i + r gives the address of row r of matrix i; register i of
 * lane l then holds row l / 4, columns 2 (l % 4) + h of matrix i (.trans: row 2 (l % 4) + h,
 * column l / 4: the matrix transposed).
 * So for A (row-major M x K in shared memory) one ldmatrix.x4 at (m0, k0), lane l giving row
 * m0 + l % 16 at column k0 + 8 (l / 16), fills the four A registers; for B stored row-major
 * K x N ([k][n], as chapter 06 keeps it) one ldmatrix.x4.trans at (k0, n0), lane l giving row
 * k0 + l % 16 at column n0 + 8 (l / 16), fills the B registers of two n8 tiles (n0 and n0 + 8). */
#ifndef MMA_FRAGMENTS_H
#define MMA_FRAGMENTS_H

#include "model/hd.h"

/* Element (row, col) of the 16 x 16 A tile in lane's register j (0..3), half h (0, 1). */
COURSE_HD_INLINE void mma_a_element(int lane, int j, int h, int* row, int* col) {
    *row = lane / 4 + 8 * (j % 2);
    *col = 2 * (lane % 4) + h + 8 * (j / 2);
}

/* Element (k, n) of the 16 x 8 B tile in lane's register j (0, 1), half h. */
COURSE_HD_INLINE void mma_b_element(int lane, int j, int h, int* k, int* n) {
    *k = 2 * (lane % 4) + h + 8 * j;
    *n = lane / 4;
}

/* Element (row, col) of the 16 x 8 D tile in lane's float i (0..3). */
COURSE_HD_INLINE void mma_d_element(int lane, int i, int* row, int* col) {
    *row = lane / 4 + 8 * (i / 2);
    *col = 2 * (lane % 4) + i % 2;
}

/* ldmatrix: the (row, col) of its 8 x 8 matrix that lane receives in half h of the matrix's
 * register; trans: the transposed element. */
COURSE_HD_INLINE void ldmatrix_element(int lane, int h, int trans, int* row, int* col) {
    const int r = lane / 4, c = 2 * (lane % 4) + h;
    *row = trans ? c : r;
    *col = trans ? r : c;
}

/* The row lane gives to ldmatrix.x4 (A at (m0, k0)) or ldmatrix.x4.trans (B at (k0, n0)), as an
 * offset into the 16 x 16 block: (row, col) = (l % 16, 8 (l / 16)). Matrix i = l / 8 is then
 * rows 8 (i % 2) .. + 7 at column 8 (i / 2). */
COURSE_HD_INLINE void ldmatrix_x4_row(int lane, int* row, int* col) {
    *row = lane % 16;
    *col = 8 * (lane / 16);
}

#endif
