/* Chapter 04 exercise: write exercise_choose_swizzle, exercise_ldmatrix_layout and
 * exercise_wgmma_descriptor (see cute_general.h, README.md's "Exercise" and part2_wgmma.md's),
 * then run
 *     scripts/grade.sh 04_cute_general
 * The test applies your Swizzle<B,M,S> to tiles of every element size, vector width and row
 * length and checks its properties in the course's calibrated model. */
#include "cute_general.h"

int exercise_choose_swizzle(int elem_bytes, int vec, int row_elems, int* b, int* m, int* s) {
    (void)elem_bytes;
    (void)vec;
    (void)row_elems;
    /* TODO: M from the elements that move as one; B from how many such groups fill the
     * 32 banks (and how many a row has); S from where the row bits start. */
    *b = *m = *s = 0; /* not written yet: no swizzle at all */
    return 0;
}

int exercise_ldmatrix_layout(int elem_bytes, int row_elems, int tma, int* box_elems, int* b, int* m,
                             int* s) {
    (void)elem_bytes;
    (void)tma;
    /* TODO: which rows does one 8x8 matrix of an ldmatrix.x4 read, and how are they served
     * (README, "ldmatrix")? How wide a box can the TMA write, and in which of its modes? */
    *box_elems = row_elems;
    *b = *m = *s = 0; /* not written yet: no swizzle at all */
    return 0;
}

unsigned long long exercise_wgmma_descriptor(int mode, int k_major, unsigned box_rows,
                                             unsigned start) {
    (void)mode;
    (void)k_major;
    (void)box_rows;
    (void)start;
    /* TODO: which strides does the TMA's fill leave between core matrices, along MN and along K
     * (LBO, SBO)? Then each field: where it sits, in what unit, and the mode's number. */
    return 0;
}
