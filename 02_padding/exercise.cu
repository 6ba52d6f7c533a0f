/* Chapter 02 exercise: write exercise_padded_stride (see padding.h and README.md, "Exercise"),
 * then run
 *     scripts/grade.sh 02_padding
 * The test compares your strides with a search over the course's calibrated model for every
 * row length from 1 to 130 at 1, 2, 4, 8 and 16 bytes, and checks that bad input gives -1. */
#include "padding.h"

int exercise_padded_stride(int row_elems, int elem_bytes) {
    (void)row_elems;
    (void)elem_bytes;
    /* TODO: for a candidate stride, which word and which bank does each lane's element land
     * in, and which lanes does the hardware serve together at this width (chapter 01)? Return
     * the smallest stride >= row_elems whose column reads are conflict-free. */
    return 0; /* not written yet */
}
