/* Chapter 01 exercise: write the two functions below, then run
 *     scripts/grade.sh 01_bank_basics
 * The test compares your answers with the course's calibrated model on thousands of warp
 * accesses. README.md ("Exercise") explains what each function must compute. */
#include "bank_basics.h"

unsigned exercise_bank_of(unsigned byte_offset) {
    (void)byte_offset;
    /* TODO: shared memory has 32 banks of 4 bytes; return the bank of byte_offset. */
    return 0xffffffffu; /* not written yet */
}

int exercise_wavefronts_4byte(const unsigned offset[32], unsigned mask) {
    (void)offset;
    (void)mask;
    /* TODO: count, for each bank, the distinct 4-byte words the active lanes ask of it. Lanes
     * asking for the same word are served together. Return the count of the busiest bank. */
    return -1; /* not written yet */
}
