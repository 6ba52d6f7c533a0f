/* The course's one random generator (splitmix64): every check draws its inputs from a seed it
 * prints, so that `--seed N` reproduces a failing run exactly. Plain C, host only. */
#ifndef COURSE_RNG_H
#define COURSE_RNG_H

static inline unsigned long long rng_next(unsigned long long* state) {
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A 32-bit draw; and one below n (n > 0; the tiny bias of the modulo does not matter here). */
static inline unsigned rng_u32(unsigned long long* state) {
    return (unsigned)(rng_next(state) >> 32);
}
static inline unsigned rng_below(unsigned long long* state, unsigned n) {
    return rng_u32(state) % n;
}

#endif
