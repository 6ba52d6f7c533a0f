/* Chapter 01: what the program, the solution and the exercise share. */
#ifndef BANK_BASICS_H
#define BANK_BASICS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise, part 1: the bank that holds byte offset byte_offset of shared memory. */
unsigned exercise_bank_of(unsigned byte_offset);

/* Exercise, part 2: the wavefronts one warp-wide 4-byte access needs. offset[i] is lane i's byte
 * offset (a multiple of 4); bit i of mask says whether lane i takes part. */
int exercise_wavefronts_4byte(const unsigned offset[32], unsigned mask);

#ifdef __cplusplus
}
#endif

#endif
