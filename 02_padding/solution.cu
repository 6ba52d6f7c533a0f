/* Chapter 02 exercise: the reference answer. */
#include "padding.h"

/* Lane i reads element i * s (in elements of w bytes). A 4-byte warp access is one group of 32
 * lanes: lane i lands in bank (i * s) % 32, and those are all different exactly when s is odd.
 * An 8-byte access is served a half-warp at a time: 16 lanes, each on the two banks of element
 * (i * s) % 16, all different when s is odd. A 16-byte access, a quarter-warp at a time: 8 lanes
 * on the four banks of (i * s) % 8, again all different when s is odd. So at every width the
 * answer is the first odd stride at or above the row length: pad by one element or none. */
int exercise_padded_stride(int row_elems, int elem_bytes) {
    if (row_elems < 1 || (elem_bytes != 4 && elem_bytes != 8 && elem_bytes != 16)) return -1;
    return row_elems | 1;
}
