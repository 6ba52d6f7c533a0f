/* Chapter 03 exercise: the reference answer. */
#include "xor_swizzle.h"
#include "model/layout.h"

/* A pair is one 4-byte word, so the tile is a 32 x 32 tile of words and the XOR swizzle applies
 * to the pair index: row r keeps its 32 words, permuted by p ^ r. XORing the element index
 * instead (e ^ r, then the word e / 2) would see only r >> 1 in the bank (2-way conflicts) and,
 * for odd rows, put a pair's two halves in the wrong order. */
unsigned exercise_half2_slot(unsigned row, unsigned pair) {
    return layout_xor(row, pair, 32);
}
