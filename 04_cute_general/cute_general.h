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
 * K-major tile, or its B operand with .x4.trans from a [k][n] tile (README, "ldmatrix"). Who
 * writes it decides what layouts are possible:
 *   - tma == 0: the kernel itself (cp.async, st.shared): any swizzle, the tile one box of
 *     *box_elems = row_elems elements a row;
 *   - tma == 1: the TMA, which writes a box densely in one of its modes: none, or 32B, 64B, 128B,
 *     that is Swizzle<1|2|3,4,3> on the box's byte offsets, Swizzle<B, 4 - log2(elem_bytes), 3>
 *     on its element offsets, and a box row of at most 32, 64 or 128 bytes in those modes (16
 *     bytes a row at least). A row longer than the mode allows is split into boxes side by side,
 *     each a tile of its own in shared memory, one copy each: choose the widest box, the fewest
 *     copies, in *box_elems (it divides row_elems).
 * Choose *box_elems and the Swizzle<B,M,S> of a box's element offsets under which the box is a
 * bijection onto itself, each 16-byte row that ldmatrix moves stays contiguous and in order, and
 * every ldmatrix.x4 over it is conflict-free in the calibrated model; with the TMA, one of its
 * modes (no swizzle: B = 0). Store them and return 0; return -1, storing nothing, when elem_bytes
 * is not 1, 2 or 4, row_elems is not a power of two, a row is shorter than 16 bytes, or tma is
 * not 0 or 1. */
int exercise_ldmatrix_layout(int elem_bytes, int row_elems, int tma, int* box_elems, int* b, int* m,
                             int* s);

/* Exercise, part 3: the 64-bit matrix descriptor through which wgmma reads one slice of an
 * fp16 operand from shared memory (part2_wgmma.md). The TMA wrote the operand's tile in `mode`
 * (0 none, 1 128B, 2 64B, 3 32B: the descriptor's own numbering) as boxes one atom row wide (16
 * bytes for none, else the mode's 32, 64 or 128) and box_rows rows deep, laid one after another
 * from a 1 KiB boundary: along K for a K-major operand (k_major 1: its rows run along K), along
 * M or N for an MN-major one. The slice starts at byte `start` (counted from any 1 KiB boundary;
 * a multiple of 16 inside the tile). Return the descriptor: start, LBO and SBO in their fields,
 * the base offset (0 here: every atom of such a tile starts on its period) and the mode. The
 * test compares its fields with the course's model (an LBO the mode does not use is not
 * compared) and, on an sm_90 GPU, has wgmma multiply two tiles through it. */
unsigned long long exercise_wgmma_descriptor(int mode, int k_major, unsigned box_rows,
                                             unsigned start);

#ifdef __cplusplus
}
#endif

#endif
