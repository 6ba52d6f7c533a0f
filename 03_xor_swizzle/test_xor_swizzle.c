/* Chapter 03 exercise test: exercise_half2_slot must be a bijection on the 32 x 32 words of the
 * tile, and every pair column and every row must read 32 different words (one per pair) in a
 * single wavefront in the calibrated model. A layout that puts every pair in one word fails
 * each of these, not only the bijection. */
#include "xor_swizzle.h"
#include "host/test_util.h"
#include "model/smem_model.h"

#include <string.h>

/* Lane i reads pair (i, k) (a column) or pair (k, i) (a row), one 4-byte word each. Returns the
 * wavefronts, and how many different words the 32 lanes read. */
static int wavefronts(int column, unsigned k, int* distinct) {
    smem_access a = smem_strided(4, SMEM_LOAD, 1, 0);
    for (unsigned i = 0; i < 32; ++i)
        a.offset[i] = 4 * (column ? exercise_half2_slot(i, k) : exercise_half2_slot(k, i));
    *distinct = 0;
    for (unsigned i = 0; i < 32; ++i) {
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; ++j) seen = a.offset[j] == a.offset[i];
        *distinct += !seen;
    }
    return smem_wavefronts(&a);
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    int used[1024];
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
    EXPECT(outside == 0 && collisions == 0,
           "not a bijection on the 1024 words: %d pairs outside them, %d sharing a word", outside,
           collisions);
    for (unsigned k = 0; k < 32; ++k)
        for (int column = 0; column < 2; ++column) {
            int distinct, wf = wavefronts(column, k, &distinct);
            EXPECT(distinct == 32 && wf == 1,
                   "reading %s %u: %d different words (want 32), %d wavefronts (want 1)",
                   column ? "pair column" : "row", k, distinct, wf);
        }
    return test_finish("test_xor_swizzle");
}
