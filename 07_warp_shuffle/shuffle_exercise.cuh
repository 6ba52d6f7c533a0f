/* Kernel 6 as the exercise writes it: reduce_shuffle with the block sum of solution.cu (or of the
 * learner's exercise.cu), compiled apart and reached through relocatable device code. The program
 * measures it beside the inline kernel 6 (variant shuffle_exercise: what the call costs); the
 * exercise's test grades the learner's functions inside it. Defined in shuffle_exercise.cu. */
#ifndef SHUFFLE_EXERCISE_CUH
#define SHUFFLE_EXERCISE_CUH

#include <stddef.h>

__global__ void reduce_shuffle_exercise(const float* x, size_t n, float* out);

#endif
