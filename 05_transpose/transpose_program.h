/* Chapter 05's program: what its files share. A variant is one record (transpose_variants.cu
 * holds the table), built for float and for double; the check (transpose_check.cu), the
 * benchmark (transpose_bench.cu) and the reports (transpose_report.c) take the records that run;
 * main (transpose.cu) ties them together. */
#ifndef TRANSPOSE_PROGRAM_H
#define TRANSPOSE_PROGRAM_H

#include "transpose.h"
#include "host/bench.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/variant.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The element types every variant runs on: ELEMENT_TYPES[FLOAT], ELEMENT_TYPES[DOUBLE]. */
enum { FLOAT, DOUBLE, N_TYPES };
typedef struct {
    const char* name; /* "float": the CSV's type column */
    size_t bytes;
} element_type;
extern const element_type ELEMENT_TYPES[N_TYPES];

/* Kernel 7's tile and block size, chosen by the sweep (README, "The sweep"): the best of it at
 * 8192^2 and 16384^2 on the H200. The copy ceiling uses the same, and so do the pictures. */
enum { VEC_TILE_ROWS = 64, VEC_TILE_COLS = 64, VEC_THREADS = 256 };

/* The byte course_buffer_poison writes (host/buffers.h), in every output before a variant runs:
 * no input element is made of it alone. */
enum { POISON_BYTE = 0xff };

/* A matrix of rows x cols elements, row-major. */
typedef struct {
    int rows, cols;
} shape;

/* Enqueues the variant on the default stream: out = the transpose of in (or in itself). */
typedef void (*launch_fn)(const void* in, void* out, int rows, int cols);

/* A variant as built for one element type. */
typedef struct {
    launch_fn launch;   /* NULL: not built for this type (the tile exceeds 48 KiB) */
    const void* kernel; /* NULL: cudaMemcpy */
    int modelled;       /* 1: model holds its shared-memory accesses (kernels 4-7) */
    smem_cost model;
} transpose_build;

typedef struct {
    course_variant v;         /* v.kernel: the float build's, which decides where it runs */
    int transposes;           /* 0: out = in (memcpy, the copy kernel) */
    int sweep;                /* 1: a tile of the sweep, measured at the sweep's shapes */
    int tile_rows, tile_cols; /* the block's tile of the input; 0 for cudaMemcpy */
    transpose_build of_type[N_TYPES];
} transpose_variant;

/* Every variant, in the lesson's order (cudaMemcpy first: every ratio needs its time): the table
 * main works on, its models computed (a misaligned access stops the program). */
course_variants transpose_variants(void);

/* Exits 2 with a message if `sets` input and output matrices of shape s do not fit in the GPU's
 * free memory. */
void transpose_require_memory(shape s, const element_type* type, size_t sets);

/* The check: the variants --variant selects, every shape of the lesson's list (or --shape),
 * float and double, each output poisoned first and compared exactly with the CPU's transpose.
 * Returns EXIT_OK or EXIT_CHECK_FAILED. */
int transpose_check(const transpose_variant* v, int n, const course_args* a);

/* One timed variant at one shape and type. */
typedef struct {
    const transpose_variant* v;
    int type, rows, cols;
    bench_result t;
    double gbps, of_memcpy; /* of_memcpy: memcpy's time at the same shape and type / this */
    unsigned long long wrong;
    int in_l2; /* the rotated sets fit in 3x the L2: the figure is not DRAM's */
} measurement;

/* The benchmark's shapes: squares N/16 .. N (doubling), N x N/16 and N/16 x N; the sweep runs at
 * N/2 and N. --shape: that one shape for both. Returns how many (16 at most); sweep[i] marks
 * the sweep's. */
int transpose_bench_shapes(const course_args* a, shape* s, int* sweep);

/* Times every variant (with --variant, that one beside cudaMemcpy) at its shapes, each verified
 * on the GPU; fills m (room for 1024) and returns how many. */
int transpose_bench(const transpose_variant* v, int n, const course_args* a,
                    const course_device* dev, measurement* m);

void transpose_print_measurements(const measurement* m, int n);
void transpose_write_csv(const char* path, const course_device* dev, const char* command_line,
                         const measurement* m, int n);

/* The chapter's pictures (--picture DIR, transpose_pictures.cu): kernel 7's micro-blocks, and
 * one warp's stores into S and loads from it, with and without the swizzle. Returns EXIT_OK,
 * EXIT_SKIPPED without gnuplot, or EXIT_CHECK_FAILED. */
int transpose_pictures(const char* dir);

/* The lesson's closing tables: every variant, then the sweep, at the sweep's shapes. */
void transpose_print_summary(const course_device* dev, const transpose_variant* v, int n,
                             const measurement* m, int n_m, const course_args* a);

#ifdef __cplusplus
}
#endif

#endif
