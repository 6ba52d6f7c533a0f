/* Index functions for a 2-D tile in shared memory: where element (row, col) lives, counted in
 * elements from the start of the tile. One definition serves kernels (__host__ __device__ under
 * nvcc), CPU tests and the bank-map pictures (plain static inline under a C compiler), so what
 * the tests prove is what the kernels run.
 *
 *   plain   row * cols + col                 column walks hit one bank: 32-way conflict
 *   padded  row * (cols + pad) + col         pad shifts each row by pad banks
 *   xor     row * cols + (col ^ (row % cols)) permutes each row; no extra bytes
 *   xor_narrow  rows narrower than 32 words: XOR with the row bits the bank does not see
 *
 * The XOR swizzle for cols = 32 (5 column bits), one 32-bit word per element:
 *
 *      row bits   r4 r3 r2 r1 r0
 *      col bits   c4 c3 c2 c1 c0
 *      stored at  row * 32 + (c4^r4 c3^r3 c2^r2 c1^r1 c0^r0)
 *
 * For a fixed row, col -> col ^ row is its own inverse, so it is a permutation of the row: no
 * two columns collide and every row still fills its 32 slots. For a fixed col, the 32 rows of a
 * column land on 32 different slots, hence 32 different banks. */
#ifndef COURSE_LAYOUT_H
#define COURSE_LAYOUT_H

/* COURSE_HD_INLINE is constexpr under nvcc: a kernel's tile size is derived from its layout at
 * compile time (tile_slots). */
#include "model/hd.h"

typedef enum { LAYOUT_PLAIN = 0, LAYOUT_PADDED = 1, LAYOUT_XOR = 2 } layout_kind;

COURSE_HD_INLINE unsigned layout_plain(unsigned row, unsigned col, unsigned cols) {
    return row * cols + col;
}

COURSE_HD_INLINE unsigned layout_padded(unsigned row, unsigned col, unsigned cols, unsigned pad) {
    return row * (cols + pad) + col;
}

/* cols must be a power of two. Only the column bits below cols change, so a row stays a row. */
COURSE_HD_INLINE unsigned layout_xor(unsigned row, unsigned col, unsigned cols) {
    return row * cols + (col ^ (row & (cols - 1)));
}

/* A row narrower than the 32 banks (cols = 16, 8, ... words): 32 / cols consecutive rows share
 * one 128-byte line of banks, and the low row bits already choose where in that line a row
 * starts. XOR the column with the row bits above them instead, (row / (32 / cols)):
 *
 *   cols = 16:  bank = 16 * r0 + (c ^ (r4 r3 r2 r1))     rows 0..31 -> 32 different banks
 *
 * The textbook c ^ (row % cols) gives rows r and r + 16 the same bank: a 2-way conflict.
 * Domain: cols a power of two, any size; from 32 words on no two rows share a line and this is
 * layout_xor (test_layout holds both). */
COURSE_HD_INLINE unsigned layout_xor_narrow(unsigned row, unsigned col, unsigned cols) {
    return row * cols + (col ^ ((row / (cols < 32u ? 32u / cols : 1u)) & (cols - 1)));
}

/* CuTe's Swizzle<B,M,S> on a linear offset (chapter 04). Keep the low M bits (a unit of 2^M
 * elements moves as one), take the B bits that start at bit M + S (YYY, the "row" bits) and XOR
 * them into the B bits that start at bit M (ZZZ, the "column" bits):
 *
 *   offset   ... Y Y Y . . . . . . . Z Z Z m m m      here B = 3, M = 3, S = 7
 *                ^bit M+S            ^bit M ^bit 0
 *   result   ... Y Y Y . . . . . . . Z^Y .. m m m     ZZZ ^= YYY; every other bit kept
 *
 * A negative S puts YYY below ZZZ (the shift goes left). XOR with bits that stay unchanged
 * undoes itself, so the map is its own inverse: a bijection on every aligned 2^(M+B+|S|) block.
 * layout_xor(r, c, 32) is Swizzle<5,0,5> on r * 32 + c; layout_xor_narrow(r, c, 16) is
 * Swizzle<4,0,5> on r * 16 + c (test_layout holds both). Valid when layout_swizzle_invalid says
 * so: B, M >= 0, |S| >= B, and no bit past 31. */
COURSE_HD_INLINE unsigned layout_swizzle(unsigned offset, int b, int m, int s) {
    unsigned yyy = ((1u << b) - 1u) << (m + (s > 0 ? s : 0));
    return s >= 0 ? offset ^ ((offset & yyy) >> s) : offset ^ ((offset & yyy) << -s);
}

/* NULL for a valid Swizzle<B,M,S>, else why not. */
COURSE_HD_INLINE const char* layout_swizzle_invalid(int b, int m, int s) {
    return b < 0                           ? "B must be 0 or more"
           : m < 0                         ? "M must be 0 or more"
           : (s < 0 ? -s : s) < b          ? "|S| must be at least B"
           : m + (s < 0 ? -s : s) + b > 31 ? "the swizzle's bits go past bit 30"
                                           : 0;
}

#if defined(__CUDACC__)
/* The compile-time form, for kernels: Swizzle<B,M,S>()(offset), the same function. */
template <int B, int M, int S>
struct Swizzle {
    static_assert(B >= 0 && M >= 0 && (S < 0 ? -S : S) >= B && M + (S < 0 ? -S : S) + B <= 31,
                  "Swizzle<B,M,S>: B, M >= 0, |S| >= B, bits below 31");
    constexpr __host__ __device__ unsigned operator()(unsigned offset) const {
        return layout_swizzle(offset, B, M, S);
    }
};
#endif

/* The 32 x 32 tile of 4-byte words that chapters 02 and 03 compare, in any of the three
 * layouts (padded: row stride 33). */
COURSE_HD_INLINE unsigned layout_index(unsigned row, unsigned col, layout_kind kind) {
    return kind == LAYOUT_PADDED ? layout_padded(row, col, 32, 1)
           : kind == LAYOUT_XOR  ? layout_xor(row, col, 32)
                                 : layout_plain(row, col, 32);
}

#endif
