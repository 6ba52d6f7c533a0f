/* The course's one random generator (splitmix64): every check draws its inputs from a seed it
 * prints, so that `--seed N` reproduces a failing run exactly. Plain C; rng_at also on the GPU,
 * for buffers too large to draw on the host. */
#ifndef COURSE_RNG_H
#define COURSE_RNG_H

#include "model/hd.h"

#define RNG_STEP 0x9e3779b97f4a7c15ull

/* splitmix64's output function: scatters the bits of z (a bijection). */
COURSE_HD_INLINE unsigned long long rng_mix(unsigned long long z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline unsigned long long rng_next(unsigned long long* state) {
    return rng_mix(*state += RNG_STEP);
}

/* Element i's draw for a buffer filled in parallel from `seed`: no state to carry from one
 * element to the next. */
COURSE_HD_INLINE unsigned long long rng_at(unsigned long long seed, unsigned long long i) {
    return rng_mix(i * RNG_STEP + seed);
}

/* A 32-bit draw; and one below n (n > 0; the tiny bias of the modulo does not matter here). */
static inline unsigned rng_u32(unsigned long long* state) {
    return (unsigned)(rng_next(state) >> 32);
}
static inline unsigned rng_below(unsigned long long* state, unsigned n) {
    return rng_u32(state) % n;
}

#endif
