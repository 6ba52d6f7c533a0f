/* Chapter 05: the reference answer to the exercise (see transpose.h and README.md). */
#include "transpose.h"
#include "model/layout.h"

/* S's offset is row * 64 + col: 6 row bits above 6 column bits, the low 2 of which stay inside a
 * 16-byte unit (M = 2). A quarter-warp's float4 stores hit rows 4b + j, b = 0..7: their row bits
 * 2..4 (offset bits 8..10) differ, so XOR those into the unit's 3 bits 2..4: S = 8 - 2 = 6. */
unsigned exercise_slot(unsigned row, unsigned col) {
    return layout_swizzle(row * 64 + col, 3, 2, 6);
}
