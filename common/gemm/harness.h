/* The GEMM chapters' host side (06, 08): cuBLAS as the baseline, the check on odd shapes against
 * a double reference and against cuBLAS, the benchmark's shapes and timing, the summary table.
 * A chapter's variant record begins with a gemm_variant (which begins with the course_variant of
 * host/variant.h) and adds what else it knows of the kernel (bank model, geometry); the functions
 * below take the chapter's table as a course_variants. */
#ifndef GEMM_HARNESS_H
#define GEMM_HARNESS_H

#include "host/bench.h"
#include "host/cli.h"
#include "host/csv.h"
#include "host/device.h"
#include "host/variant.h"

/* C = alpha A B + beta C on row-major matrices: A is M x K with rows lda floats apart (element
 * (i, k) at A[i * lda + k]), B K x N (ldb), C M x N (ldc); as in BLAS, lda >= max(1, K) and
 * ldb, ldc >= max(1, N). */
typedef struct {
    int M, N, K;
    float alpha, beta;
    const float *A, *B;
    float* C;
    int lda, ldb, ldc;
} gemm_call;

/* A call on dense matrices: every leading dimension the row's length. */
gemm_call gemm_call_dense(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C);

/* 1 when every leading dimension is the row's length (chapter 06's kernels take no other). */
int gemm_call_is_dense(const gemm_call* c);

typedef void (*gemm_launch_fn)(const gemm_call*);

typedef struct {
    course_variant v; /* name, number, description, baseline (cuBLAS), kernel, needs */
    gemm_launch_fn launch;
    int sweep;  /* 1: benchmarked at N^3 and (N/2)^3 only */
    int any_ld; /* 1: takes any leading dimension and base (the check's padded and shifted
                   layouts); 0: dense matrices, 16-byte aligned, only */
} gemm_variant;

typedef struct {
    int M, N, K;
} gemm_shape;

typedef struct {
    const gemm_variant* v;
    gemm_shape s;
    bench_result t;
    double gflops, of_cublas; /* of_cublas: cuBLAS's time at the same shape / this */
    double error;             /* relative distance to cuBLAS's result */
} gemm_measurement;

typedef struct {
    int regs, spill_bytes, smem_bytes, blocks_per_sm;
} gemm_resources;

/* cuBLAS SGEMM on row-major matrices, in the default math mode (fp32 FMAs, TF32 off) and with
 * CUBLAS_PEDANTIC_MATH; gemm_cublas_open first. */
void gemm_cublas_open(void);
void gemm_launch_cublas(const gemm_call* c);
void gemm_launch_cublas_pedantic(const gemm_call* c);

/* Whole float4s: row lengths K (A) and N (B, C) and every leading dimension multiples of 4, every
 * matrix 16-byte aligned. */
int gemm_float4_ok(const gemm_call* c);

/* The tolerance on ||C - ref||_F / ||(alpha A B, beta C)||_F for K products a sum. */
double gemm_tolerance(int K);

/* n floats uniform in [-1, 1) from *seed. */
void gemm_fill_uniform(float* x, size_t n, unsigned long long* seed);

/* Exits 2 with a message if A, B, C and a reference C of shape s do not fit in the GPU's free
 * memory (course_require_device_memory). */
void gemm_require_memory(const char* program, gemm_shape s);

/* ||x - ref||_F / ||ref||_F over n floats, computed on the device (NaN anywhere: NaN). */
double gemm_device_distance(const float* x, const float* ref, size_t n);

/* Record i of a table whose records begin with a gemm_variant. */
const gemm_variant* gemm_variant_at(const course_variants* t, int i);

/* Lets every kernel that asks for dynamic shared memory have it (above 48 KiB a kernel must opt
 * in): call once, after the device is open and before any occupancy query or launch. */
void gemm_configure(const course_variants* t);

/* Static and dynamic shared memory, registers, spills and blocks per SM of a kernel variant. */
gemm_resources gemm_kernel_resources(const gemm_variant* v);
void gemm_print_resources(const course_variants* t);

/* The check's shapes as the options select them: --shape MxNxK alone (with a note when the
 * CPU reference will take minutes), --size N those of shapes[0..n) no larger than N, else all.
 * Returns how many are left in shapes (which must hold one at least). */
int gemm_select_check_shapes(const course_args* a, gemm_shape* shapes, int n);

/* --check: every variant on odd shapes (or --shape, or those within --size), alpha and beta
 * drawn and beta = 0 over NaN, against a double reference, with dense matrices and, for the
 * variants that take any leading dimension, with rows padded and with bases moved off 16 bytes;
 * then every kernel against cuBLAS at cublas_size^3 (not with --shape). Returns an exit code. */
int gemm_run_check(const char* program, const course_variants* t, const course_args* a,
                   int cublas_size);

/* The benchmark's shapes (N^3 from 256^3 doubling, (N/2 + 1)^3, 2N x N/8 x N/2, N/2 x N/2 x N/16;
 * or --shape) and the measurements at each: cuBLAS first, then the variants (--variant: one), in
 * interleaved rounds from 10 repetitions up. Returns how many measurements m holds. */
int gemm_bench_shapes(const course_args* a, gemm_shape* s);
int gemm_run_bench(const char* program, const course_variants* t, const course_args* a,
                   gemm_measurement* m);
/* The same at the n shapes s[] (a sweep of its own); every variant of t at every shape. */
int gemm_run_bench_at(const char* program, const course_variants* t, const course_args* a,
                      const gemm_shape* s, int n, gemm_measurement* m);

int gemm_wrong(const gemm_measurement* x); /* disagrees with cuBLAS (NaN included) */

/* The columns every GEMM chapter's CSV has after its own (the ncu test and plot.gp read them by
 * name), and their fields for one measurement: flops, the timing, launches, GFLOP/s, the share
 * of cuBLAS, the distance to cuBLAS's result, and the kernel's registers, spills, shared memory
 * and blocks per SM. */
#define GEMM_CSV_RESULT_COLUMNS                                                                    \
    {"flops", CSV_REAL, 0}, CSV_TIMING_COLUMNS, {"launches", CSV_INT, 0}, {"gflops", CSV_REAL, 1}, \
        {"of_cublas", CSV_REAL, 4}, {"error_vs_cublas", CSV_SIGNIFICANT, 3},                       \
        {"registers", CSV_INT, 0}, {"spill_bytes", CSV_INT, 0}, {"smem_bytes", CSV_INT, 0}, {      \
        "blocks_per_sm", CSV_INT, 0                                                                \
    }
void gemm_csv_result(csv_table* t, const gemm_measurement* m);
void gemm_print_measurements(const gemm_measurement* m, int n);
void gemm_print_summary(const char* program, const course_device* dev, const course_variants* t,
                        const gemm_measurement* m, int n, const course_args* a);

#endif
