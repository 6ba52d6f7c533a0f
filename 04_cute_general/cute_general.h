/* Chapter 04: what the program, the solution and the exercise share. */
#ifndef CUTE_GENERAL_H
#define CUTE_GENERAL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise: a tile's rows hold row_elems elements of elem_bytes bytes (1, 2, 4, 8 or 16), and
 * kernels move them vec elements at a time (one access of vec * elem_bytes <= 16 bytes).
 * Choose the Swizzle<B,M,S> (layout_swizzle in layout.h, applied to the element offset
 * row * row_elems + col) under which
 *   - the tile is a bijection onto itself,
 *   - each aligned group of vec elements stays contiguous and in order,
 *   - a warp reading one column of groups (lane i: group c of row i) and a warp reading one row
 *     (lane i: group i) are conflict-free in the calibrated model.
 * Store it in *b, *m, *s and return 0; return -1, storing nothing, when elem_bytes, vec or
 * row_elems is not a power of two, elem_bytes > 16, vec * elem_bytes > 16, or row_elems < vec. */
int exercise_choose_swizzle(int elem_bytes, int vec, int row_elems, int* b, int* m, int* s);

/* Exercise, part 2: a tile's rows hold row_elems elements of elem_bytes bytes (1, 2 or 4: int8,
 * half, tf32), and a tensor-core kernel reads it with ldmatrix: mma's A operand with .x4 from a
 * K-major tile, or its B operand with .x4.trans from a [k][n] tile (README, "ldmatrix").
 * Choose the Swizzle<B,M,S> under which the tile is a bijection onto itself, each 16-byte row
 * that ldmatrix moves stays contiguous and in order, and every ldmatrix.x4 over the tile is
 * conflict-free in the calibrated model. Store it in *b, *m, *s and return 0; return -1, storing
 * nothing, when elem_bytes is not 1, 2 or 4, row_elems is not a power of two, or a row is
 * shorter than 16 bytes. */
int exercise_ldmatrix_swizzle(int elem_bytes, int row_elems, int* b, int* m, int* s);

#ifdef __cplusplus
}
#endif

#endif
