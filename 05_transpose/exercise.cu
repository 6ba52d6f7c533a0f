/* Chapter 05 exercise: write exercise_slot (see transpose.h and README.md, "Exercise"), then run
 *     scripts/grade.sh 05_transpose
 * On a machine with a GPU the test runs kernel 7 with your slot on odd shapes; everywhere, it
 * checks on the CPU that the slot is a bijection, keeps float4 units whole and makes the
 * kernel's shared-memory stores and loads conflict-free in the model. layout_swizzle (chapter
 * 04's Swizzle<B,M,S>) is in model/layout.h, included here for you. */
#include "transpose.h"
#include "model/layout.h"

unsigned exercise_slot(unsigned row, unsigned col) {
    (void)row;
    (void)col;
    /* TODO: where does element (row, col) of the 64 x 64 transposed tile live? Keep each unit
     * of four floats together and aligned, and give the 8 rows 4b + j (b = 0..7) of one unit
     * column 8 different 16-byte bank groups (chapter 04: choose B, M and S). */
    return 0; /* not written yet: every element in slot 0 */
}
