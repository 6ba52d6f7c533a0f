/* The index functions of layout.h: each a bijection on its tile, and the column access of a
 * 32x32 tile of 4-byte words conflict-free for padding by an odd number and for XOR, 32-way for
 * the plain layout. */
#include "layout.h"
#include "smem_model.h"
#include "test_util.h"

#include <string.h>

enum { ROWS = 32, COLS = 32 };

/* Distinct slots for every (row, col), all inside rows * (cols + pad) slots. */
static int is_bijection(layout_kind kind, unsigned pad) {
    static unsigned char used[ROWS * (COLS + 32)];
    memset(used, 0, sizeof used);
    for (unsigned r = 0; r < ROWS; ++r)
        for (unsigned c = 0; c < COLS; ++c) {
            unsigned i = kind == LAYOUT_PLAIN    ? layout_plain(r, c, COLS)
                         : kind == LAYOUT_PADDED ? layout_padded(r, c, COLS, pad)
                                                 : layout_xor(r, c, COLS);
            if (i >= ROWS * (COLS + pad) || used[i]++) return 0;
        }
    return 1;
}

/* Wavefronts when lane i reads element (i, col) of 4-byte words. */
static int column_wavefronts(layout_kind kind, unsigned pad, unsigned col) {
    smem_access a = smem_strided(4, SMEM_LOAD, 0, 0);
    for (unsigned lane = 0; lane < 32; ++lane)
        a.offset[lane] = 4 * (kind == LAYOUT_PLAIN    ? layout_plain(lane, col, COLS)
                              : kind == LAYOUT_PADDED ? layout_padded(lane, col, COLS, pad)
                                                      : layout_xor(lane, col, COLS));
    return smem_wavefronts(&a);
}

int main(void) {
    EXPECT(is_bijection(LAYOUT_PLAIN, 0), "plain");
    EXPECT(is_bijection(LAYOUT_XOR, 0), "xor");
    for (unsigned pad = 0; pad <= 32; ++pad)
        EXPECT(is_bijection(LAYOUT_PADDED, pad), "pad %u", pad);
    for (unsigned col = 0; col < COLS; ++col) {
        EXPECT(column_wavefronts(LAYOUT_PLAIN, 0, col) == 32, "plain col %u", col);
        EXPECT(column_wavefronts(LAYOUT_XOR, 0, col) == 1, "xor col %u", col);
        EXPECT(column_wavefronts(LAYOUT_PADDED, 1, col) == 1, "pad 1 col %u", col);
        EXPECT(column_wavefronts(LAYOUT_PADDED, 2, col) == 2, "pad 2 col %u", col);
        EXPECT(column_wavefronts(LAYOUT_PADDED, 8, col) == 8, "pad 8 col %u", col);
    }
    /* XOR's inverse is itself: reading (r, c ^ r) from row r finds column c. */
    for (unsigned r = 0; r < ROWS; ++r)
        for (unsigned c = 0; c < COLS; ++c)
            EXPECT(layout_xor(r, c, COLS) - r * COLS == (c ^ r), "xor (%u,%u)", r, c);
    return test_finish("test_layout");
}
