/* Chapter 03 exercise: write exercise_half2_slot (see xor_swizzle.h and README.md, "Exercise"),
 * then run
 *     scripts/grade.sh 03_xor_swizzle
 * The test checks that your layout is a bijection on the tile and that column and row accesses
 * of pairs are conflict-free in the course's calibrated model. The lesson's layouts are in
 * model/layout.h, included here for you. */
#include "xor_swizzle.h"
#include "model/layout.h"

unsigned exercise_half2_slot(unsigned row, unsigned pair) {
    (void)row;
    (void)pair;
    /* TODO: where does pair (row, pair) live? Keep the two halves of a pair in one word, and
     * give the 32 rows of a pair column 32 different banks. */
    return 0; /* not written yet: every pair in word 0 */
}
