/* Chapter 01's experiment, as its files share it: the constants of the kernel strided_read<W>
 * (strided_read.cuh), the variants' record and a variant's measurement (bank_basics.cu), and
 * what the chapter prints of them (bank_report.c). */
#ifndef STRIDED_READ_H
#define STRIDED_READ_H

#include "host/bench.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    UNROLL = 12,         /* independent loads per thread per iteration (no register spills) */
    MAX_STRIDE = 32,     /* elements */
    BENCH_THREADS = 512, /* 16 warps a block */
    BLOCKS_PER_SM = 4,   /* __launch_bounds__' minimum, so each thread may use 32 registers: on a
                          * 64-warp SM (sm_80, sm_90) 4 blocks fill its warp slots; the benchmark
                          * launches as many as the occupancy API says this GPU holds */
    CHECK_THREADS = 96,  /* the check also runs a block of 3 warps */
    N_WIDTHS = 5
};
static const int WIDTHS[N_WIDTHS] = {1, 2, 4, 8, 16};

/* Variant wW_sS: every lane loads W bytes at lane * S * W (+ j * max(W, 4), j < UNROLL); its
 * kernel strided_read<W>, its dynamic shared memory the footprint of the stride. */
typedef struct {
    course_variant v;
    int width;       /* bytes a lane loads */
    unsigned stride; /* elements between lanes */
} bank_variant;

/* One variant's benchmark. */
typedef struct {
    bank_variant x;
    int model_wf, ideal_wf;
    bench_result t;
    double bytes_per_clk_sm; /* from the SM cycle counters, last timed repetition */
    double slowdown;         /* median time / median time of stride 1 at the same width */
    int launches;            /* every launch of this variant, the verifying one included */
} measurement;

/* The model's wavefronts for one warp load of this width and stride. */
int model_wavefronts(int width, unsigned stride);

/* What the chapter prints: the lesson's model tables, the measurements, the CSV (the columns
 * plot.gp and the ncu test read), the summary. */
void print_model_tables(void);
void print_measurements(const measurement* m, int n);
void write_csv(const char* path, const course_device* dev, const course_args* args,
               const measurement* m, int n);
void print_summary(const course_device* dev, const char* program, const measurement* m, int n);

#ifdef __cplusplus
}
#endif

#endif
