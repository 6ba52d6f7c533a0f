/* Chapter 02: what the program, the solution and the exercise share. */
#ifndef PADDING_H
#define PADDING_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise: a tile has rows of row_elems elements of elem_bytes bytes (1, 2, 4, 8 or 16), and a
 * warp reads one column: lane i reads element (i, c), byte (i * stride + c) * elem_bytes. Return
 * the smallest row stride, in elements and at least row_elems, that makes this column read
 * conflict-free (as few wavefronts as a contiguous read of the same width) for every column
 * c < row_elems. Return -1 for any other width or a row_elems below 1. */
int exercise_padded_stride(int row_elems, int elem_bytes);

#ifdef __cplusplus
}
#endif

#endif
