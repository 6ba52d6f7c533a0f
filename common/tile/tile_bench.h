/* Running tile variants on the GPU, the same way in every tile chapter: a correctness check
 * against the CPU on fresh random tiles, the benchmark, and the speedups against each
 * variant's `against`. */
#ifndef COURSE_TILE_BENCH_H
#define COURSE_TILE_BENCH_H

#include "host/device.h"
#include "tile/tile_variant.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the variant on random tiles drawn from *seed (advanced) at small shapes (1 and 3 blocks,
 * 1 and 2 loop iterations), outputs poisoned first. Returns the number of wrong elements. */
size_t tile_check(const tile_variant* x, unsigned long long* seed);

/* Times `iters` loop iterations on one full wave of blocks (warm-up 2, timed_reps
 * repetitions) on random tiles drawn from *seed, then verifies the last output. */
tile_measurement tile_bench(const tile_variant* x, const course_device* dev, int iters,
                            int timed_reps, unsigned long long* seed);

/* Runs the variants r[0..n) (their model filled in): the check (if check), then the benchmark
 * (if bench, `iters` loop iterations, `timed_reps` repetitions), and fills the speedups; the
 * random tiles come from `seed`, which it prints. Prints a line per failing variant; returns
 * EXIT_OK or EXIT_CHECK_FAILED. */
int tile_run(tile_variant* r, int n, const course_device* dev, int check, int bench, int iters,
             int timed_reps, unsigned long long seed);

#ifdef __cplusplus
}
#endif

#endif
