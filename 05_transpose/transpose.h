/* Chapter 05: what the program, its model, the solution and the exercise share. */
#ifndef TRANSPOSE_H
#define TRANSPOSE_H

#include "model/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exercise: kernel 7 (transpose_vec) for float with a 64 x 64 tile. Its shared tile S holds
 * the *transposed* tile, 64 rows (input columns) of 64 floats (input rows), moved in units of
 * four floats (16 bytes). Return where element (row, col) of S lives, in floats (0..4095), so that
 *   - every element has its own slot (a bijection on the 4096 floats),
 *   - each unit of four (row, 4u..4u+3) stays four consecutive floats, aligned to four
 *     (the kernel stores and loads it as one float4),
 *   - the kernel's float4 stores (a quarter-warp writes units of rows 4b + j, b = 0..7, one
 *     column of units) and float4 loads (along a row) are conflict-free in the model.
 * The kernel uses it for both the write and the read-back; the test runs the kernel on odd
 * shapes on the GPU and checks the three properties on the CPU. */
COURSE_HD unsigned exercise_slot(unsigned row, unsigned col);

/* Kernel 7's tile: tile_rows x tile_cols input elements of elem_bytes (4 or 8) bytes, moved by
 * `threads` threads in V x V micro-blocks, V = 16 / elem_bytes elements. */
typedef struct {
    unsigned elem_bytes, tile_rows, tile_cols, threads;
} vec_geometry;

/* Where element (row, col) of S, the transposed tile (tile_cols rows of tile_rows elements),
 * lives, in elements. */
typedef unsigned (*vec_slot_fn)(unsigned row, unsigned col);

/* Shared-memory wavefronts per request, by the calibrated model, averaged over every warp
 * instruction of one tile (what Nsight Compute divides), and the ideal. */
typedef struct {
    double st, st_ideal, ld, ld_ideal;
} smem_cost;

/* Kernel 7: its float4/double2 stores of the register-transposed micro-blocks into S, and its
 * row-wise loads from S. Returns 0, or -1 if an access is misaligned. */
int vec_model(const vec_geometry* g, vec_slot_fn slot, smem_cost* c);

/* Kernels 4-6: the 32 x 32 tile written by rows (lane = column) and read back by columns
 * (lane = row), 32 x 8 threads, elements of elem_bytes, stored at slot(row, col). */
typedef unsigned (*tile32_slot_fn)(unsigned row, unsigned col);
int tile32_model(unsigned elem_bytes, tile32_slot_fn slot, smem_cost* c);

#ifdef __cplusplus
}
#endif

#endif
