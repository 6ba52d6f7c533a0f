/* Chapter 07's check (--check, and the lesson's first part). */
#ifndef REDUCE_CHECK_H
#define REDUCE_CHECK_H

#include "reduce_variants.h"
#include "host/cli.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every variant of t that course_variant_selected picks, at n = 0, 1, 31, 32, 33, 1023, 1025,
 * 1000003 and 2^28 (--size N: that n alone): the sums exact on integer-valued inputs and within
 * the tolerance on random floats, the scans exact up to 1000003; outputs poisoned with NaN first.
 * Returns EXIT_OK or EXIT_CHECK_FAILED. */
int reduce_check(const char* program, const course_variants* t, const course_args* a,
                 const reduce_workspace* ws);

#ifdef __cplusplus
}
#endif

#endif
