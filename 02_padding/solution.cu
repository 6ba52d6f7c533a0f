/* Chapter 02 exercise: the reference answer. */
#include "padding.h"

/* Is the read of column c conflict-free at this stride? Chapter 01's rules: lanes are served in
 * groups that ask for at most 128 bytes (the whole warp at 1, 2 and 4 bytes, half-warps at 8,
 * quarter-warps at 16), and within a group each bank delivers one 4-byte word per wavefront
 * (lanes in one word share it, whatever bytes of it they read). The lanes of a column read
 * different elements, so the read is conflict-free when no bank holds two words of one group. */
static int column_conflict_free(int stride, int c, int elem_bytes) {
    int group = elem_bytes <= 4 ? 32 : 128 / elem_bytes;
    for (int first = 0; first < 32; first += group) {
        long word_in_bank[32];
        for (int b = 0; b < 32; ++b) word_in_bank[b] = -1;
        for (int lane = first; lane < first + group; ++lane) {
            long byte = ((long)lane * stride + c) * elem_bytes;
            for (long w = byte / 4; w <= (byte + elem_bytes - 1) / 4; ++w) {
                int bank = (int)(w % 32);
                if (word_in_bank[bank] >= 0 && word_in_bank[bank] != w) return 0;
                word_in_bank[bank] = w;
            }
        }
    }
    return 1;
}

/* At 4 bytes and more the answer is the first odd stride (in elements) at or above the row:
 * every column then has the same pattern. At 1 and 2 bytes lanes meet in words, the bank
 * pattern depends on the column, and an odd stride is not enough (a 64-wide half tile needs
 * 66, not 65): search. A stride of an odd number of words always works, so the search ends. */
int exercise_padded_stride(int row_elems, int elem_bytes) {
    if (row_elems < 1 || (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 &&
                          elem_bytes != 8 && elem_bytes != 16))
        return -1;
    for (int stride = row_elems;; ++stride) {
        int ok = 1;
        for (int c = 0; c < row_elems && ok; ++c) ok = column_conflict_free(stride, c, elem_bytes);
        if (ok) return stride;
    }
}
