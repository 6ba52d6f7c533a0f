/* Chapter 04 exercise: the reference answer, the procedure of README.md worked in code. */
#include "cute_general.h"
#include "model/wgmma_desc.h"

static int is_power_of_two(int x) {
    return x > 0 && (x & (x - 1)) == 0;
}

static int log2_of(int x) {
    int n = 0;
    while (x > 1) x >>= 1, ++n;
    return n;
}

/* The unit that moves as one: the vector, but never less than a 4-byte word, since a bank
 * delivers words (lanes in one word share it; lanes in one bank and different words wait).
 * M: the unit's bits stay. U: units that fill one 128-byte line of the 32 banks. R: units in a
 * row. S: the row bits begin at bit M + log2(R); when several rows share a line (R < U), the
 * low row bits already pick where in the line a row sits, so start above them, at M + log2(U).
 * B: XOR as many row bits as a line has unit positions, but no more than the row has units. */
int exercise_choose_swizzle(int elem_bytes, int vec, int row_elems, int* b, int* m, int* s) {
    if (!is_power_of_two(elem_bytes) || !is_power_of_two(vec) || !is_power_of_two(row_elems) ||
        elem_bytes > 16 || vec * elem_bytes > 16 || row_elems < vec)
        return -1;
    int unit = vec * elem_bytes < 4 ? 4 / elem_bytes : vec; /* elements */
    int lg_u = log2_of(128 / (unit * elem_bytes)), lg_r = log2_of(row_elems) - log2_of(unit);
    *m = log2_of(unit);
    *b = lg_r < 0 ? 0 : lg_u < lg_r ? lg_u : lg_r;
    *s = lg_u > lg_r ? lg_u : lg_r;
    return 0;
}

/* An ldmatrix matrix is 8 lanes' 16-byte rows, served alone (the model's rule 4), and those rows
 * are 8 consecutive tile rows at one 16-byte column, for A and for B through .trans alike: the
 * column read of 16-byte vectors above, on the rows the writer allows. The TMA's widest box row
 * is its 128B mode's 128 bytes; on a box of 2^k 16-byte units (k <= 3) part 1 gives
 * Swizzle<k, log2(16 / elem_bytes), 3>, which is the TMA's mode of 2^k * 16 bytes (none for one
 * unit): the mode the box's width calls for is the one ldmatrix needs. */
int exercise_ldmatrix_layout(int elem_bytes, int row_elems, int tma, int* box_elems, int* b, int* m,
                             int* s) {
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4) return -1;
    if (!is_power_of_two(row_elems) || row_elems * elem_bytes < 16 || (tma != 0 && tma != 1))
        return -1;
    const int box = tma && row_elems * elem_bytes > 128 ? 128 / elem_bytes : row_elems;
    int bb, mm, ss;
    if (exercise_choose_swizzle(elem_bytes, 16 / elem_bytes, box, &bb, &mm, &ss)) return -1;
    *box_elems = box;
    *b = bb;
    *m = mm;
    *s = ss;
    return 0;
}

/* The strides the TMA's fill implies (wgmma_tma_strides: model/wgmma_desc.h says why each), then
 * the fields (wgmma_desc: each >> 4, the mode in bits 62..63); the pattern is the atom's start,
 * on its period, so the base offset is 0. */
unsigned long long exercise_wgmma_descriptor(int mode, int k_major, unsigned box_rows,
                                             unsigned start) {
    const wgmma_mode m = (wgmma_mode)mode;
    unsigned lbo, sbo;
    wgmma_tma_strides(m, k_major, box_rows, &lbo, &sbo);
    return wgmma_desc(m, start, start - start % wgmma_period(m), lbo, sbo);
}
