/* Chapter 07's benchmark (--bench, and the lesson's second part): the measurements, their table,
 * the CSV and the lesson's summary. */
#ifndef REDUCE_BENCH_H
#define REDUCE_BENCH_H

#include "reduce_variants.h"
#include "host/bench.h"
#include "host/cli.h"
#include "host/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One variant at one n. */
typedef struct {
    const reduce_variant* v;
    size_t n, sets;
    bench_result t;
    double gbps, of_cub;
    int wrong, in_l2;
} reduce_measurement;

/* Every variant of t but the counter-example (with --variant, that one and CUB) at n = 2^16, 2^17,
 * ... up to --size, into m (room for max); returns how many measurements there are. */
int reduce_bench(const char* program, const course_variants* t, const course_args* a,
                 const course_device* dev, const reduce_workspace* ws, reduce_measurement* m,
                 int max);

/* The table of the measurements, a wrong sum (or scan) marked. */
void reduce_print_measurements(const reduce_measurement* m, int n);

/* The CSV: a row per measurement (the columns plot.gp and the ncu test read). */
void reduce_write_csv(const char* path, const course_device* dev, const char* command_line,
                      const reduce_measurement* m, int n);

/* The lesson's summary: GB/s and the share of CUB's at 2^16, 2^20, 2^24, 2^28, a row per sum. */
void reduce_print_summary(const course_device* dev, const course_variants* t,
                          const reduce_measurement* m, int n);

#ifdef __cplusplus
}
#endif

#endif
