/* Chapter 03: what the program, the solution and the exercise share. */
#ifndef XOR_SWIZZLE_H
#define XOR_SWIZZLE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise: a 32 x 64 tile of 16-bit elements (fp16, bf16) lives in 32 x 32 four-byte words,
 * and kernels access it two elements at a time: pair p of row r is elements 2p and 2p+1.
 * Return the word (0..1023) where pair (row, pair) is stored, so that
 *   - every pair has its own word (a bijection on the tile),
 *   - a warp reading one pair column (lane i: row i, same pair) is conflict-free,
 *   - a warp reading one row (lane i: pair i) is conflict-free. */
unsigned exercise_half2_slot(unsigned row, unsigned pair);

#ifdef __cplusplus
}
#endif

#endif
