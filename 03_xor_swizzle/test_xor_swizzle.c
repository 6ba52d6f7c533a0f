/* Chapter 03 exercise test: exercise_half2_slot must be a bijection on the 32 x 32 words of the
 * tile, and pair-column and row accesses must be conflict-free in the calibrated model. */
#include "smem_model.h"
#include "test_util.h"
#include "xor_swizzle.h"

#include <string.h>

/* Lane i reads pair (i, p) (column) or pair (r, i) (row), one 4-byte word each. */
static int wavefronts(int column, unsigned fixed) {
    smem_access a = smem_strided(4, SMEM_LOAD, 1, 0);
    for (unsigned i = 0; i < 32; ++i)
        a.offset[i] = 4 * (column ? exercise_half2_slot(i, fixed) : exercise_half2_slot(fixed, i));
    return smem_wavefronts(&a);
}

int main(void) {
    unsigned char used[1024];
    memset(used, 0, sizeof used);
    int collisions = 0, outside = 0;
    for (unsigned r = 0; r < 32; ++r)
        for (unsigned p = 0; p < 32; ++p) {
            unsigned w = exercise_half2_slot(r, p);
            if (w >= 1024)
                ++outside;
            else if (used[w]++)
                ++collisions;
        }
    EXPECT(outside == 0, "%d pairs stored outside the 1024 words", outside);
    EXPECT(collisions == 0, "%d pairs share a word with another pair (not a bijection)",
           collisions);
    for (unsigned k = 0; k < 32; ++k) {
        int col = wavefronts(1, k), row = wavefronts(0, k);
        EXPECT(col == 1, "reading pair column %u: %d wavefronts, want 1", k, col);
        EXPECT(row == 1, "reading row %u: %d wavefronts, want 1", k, row);
    }
    return test_finish("test_xor_swizzle");
}
