/* Chapter 02 exercise: write exercise_padded_stride (see padding.h and README.md, "Exercise"),
 * then run
 *     cmake --preset exercises && cmake --build --preset exercises && ctest --preset exercises
 * The test compares your strides with a search over the course's calibrated model for every
 * row length from 1 to 130 at 4, 8 and 16 bytes. */
#include "padding.h"

int exercise_padded_stride(int row_elems, int elem_bytes) {
    (void)row_elems;
    (void)elem_bytes;
    /* TODO: which strides put the 32 lanes of a column (8 or 16 lanes per group at 8 and 16
     * bytes) on different banks? Return the smallest such stride >= row_elems. */
    return 0; /* not written yet */
}
