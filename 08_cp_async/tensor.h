/* Chapter 08, part 3: an FP16 GEMM on the tensor cores, mma.sync fed by cp.async and ldmatrix,
 * tiles plain, padded and swizzled side by side and a small tile sweep (hgemm_kernels.cuh), then
 * fed by the TMA (hgemm_tma_kernels.cuh); checked against a CPU double reference on odd shapes,
 * measured against cuBLAS (fp16 in, fp32 accumulate and out) and against the program's own
 * mma.sync ceiling, in the same run.
 *   tensor_variants.cu  the variant table and the launches (the only file with the kernels but
 *                       hgemm_wgmma.cu, the wgmma kernels', built for sm_90a apart)
 *   tensor.cu           the part's run, the lesson's tables and the chapter's pictures
 *   tensor_check.cu     the check
 *   tensor_bench.cu     the benchmark, its CSV (the _hgemm side file) and the lesson's summary
 *   tensor_model.c      the bank model of the ldmatrix reads and of C's staging */
#ifndef TENSOR_H
#define TENSOR_H

#include "host/cli.h"
#include "host/device.h"
#include "host/tma_map.h"
#include "host/variant.h"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <stdint.h>

/* The side file of --csv FILE (course_side_path: x.csv -> x_hgemm.csv). */
#define TENSOR_CSV "_hgemm"

/* The ceilings' variants, timed apart (they compute no GEMM): mma.sync on registers, the
 * mma.sync kernels' ceiling; wgmma on shared memory (sm_90a), the wgmma kernels'. */
#define TENSOR_CEILING       "mma_ceiling"
#define TENSOR_WGMMA_CEILING "wgmma_ceiling"
enum { CEILING_NT = 256, CEILING_ITERS = 20000, CEILING_BLOCKS_PER_SM = 4 };

/* One call: C = alpha A B + beta C, A (M x K) and B (K x N) row-major halves, C row-major
 * floats; cublas: the handle the baseline uses. */
typedef struct {
    const __half *A, *B;
    float* C;
    int M, N, K;
    float alpha, beta;
    cublasHandle_t cublas;
} tensor_call;

typedef void (*tensor_launch_fn)(const tensor_call*);

/* Whether the TMA's tensor maps can take the call: 16-byte aligned rows (K and N multiples of 8)
 * and matrices (C's too where the kernel stores through a map: stores_c), K > 0, and the driver's
 * encoder. The TMA kernels fall back elsewhere (tensor_variants.cu, hgemm_wgmma.cu). */
static inline int tensor_tma_takes(const tensor_call* c, int stores_c) {
    return course_tma_encoder() && c->K > 0 && c->K % 8 == 0 && c->N % 8 == 0 &&
           (uintptr_t)c->A % 16 == 0 && (uintptr_t)c->B % 16 == 0 &&
           (!stores_c || (uintptr_t)c->C % 16 == 0);
}

typedef struct {
    course_variant v;        /* kernel: the one aligned shapes take (its registers: the CSV) */
    tensor_launch_fn launch; /* NULL: the ceiling */
    int sweep;
    int bm, bn, bk, stages;       /* the block's tile, the slice's depth, the pipeline's stages */
    int layout;                   /* hgemm_layout: the stage's tiles in shared memory */
    const void* unaligned_kernel; /* hgemm_mma for rows that are not 16-byte aligned */
    const void* fallback_kernel;  /* the TMA's: hgemm_mma of the same tile, swizzled, for the
                                   * aligned shapes the TMA cannot take (K = 0) */
    int stores_c_through_tma;     /* hgemm_tma_persistent: C staged in shared memory */
} tensor_variant;

/* The part's table: cuBLAS, the cp.async kernels and their sweep, the TMA's, the ceiling. */
course_variants tensor_variants(void);
const tensor_variant* tensor_at(const course_variants* t, int i);

/* Lets each kernel of `running` (the variants that run here) have its dynamic shared memory
 * (past 48 KiB a kernel must opt in): once the device is open. */
void tensor_configure(const course_variants* running);

/* The ceiling's kernel on `blocks` blocks of CEILING_NT threads, CEILING_ITERS rounds; each
 * thread writes its sum into out. */
void tensor_launch_ceiling(int blocks, float* out);

/* The lesson's CPU part: the kernels (the sweep on one line) and the bank model's tables. */
void tensor_print_lesson(const course_variants* t);

/* With --check, or in the lesson: the check; then, not with --check, the benchmark, its CSV
 * (--csv FILE's TENSOR_CSV side file) and, in the lesson, the summary. Nothing where the ceiling
 * does not run. Returns 0, or 1 if a check failed or an output was wrong. */
int tensor_run(const char* program, const course_args* a, const course_device* dev,
               const course_variants* running, int lesson);

/* The chapter's pictures (--picture DIR): C's staging in hgemm_tma_persistent, its order and its
 * banks; the first error's exit code, else 0. */
int tensor_pictures(const char* dir);

/* Random halves in [-1, 1): exactly representable, so the CPU reference sees what the GPU
 * sees. */
void tensor_fill_halves(__half* h, size_t n, unsigned long long* seed);

/* Every variant selected (--variant, else all) against the CPU on odd shapes (--shape: that
 * shape), beta 0 over NaN and beta 0.5; returns 0 when all agree. */
int tensor_check(const course_args* a, const course_variants* running, cublasHandle_t cublas);

/* The benchmark at 4096^3 and 8192^3 (--size, --shape: as tensor_bench.cu says), the ceiling
 * and cuBLAS in the same run, each output against cuBLAS's; the CSV; in the lesson the summary.
 * Returns 0, or 1 if an output disagreed with cuBLAS's. */
int tensor_bench(const char* program, const course_args* a, const course_device* dev,
                 const course_variants* running, cublasHandle_t cublas, int lesson);

/* The model's ldmatrix wavefronts of a variant's tiles (tensor_model.h), dying where there is no
 * model; the mean of A's and B's. */
double tensor_ldmatrix_wavefronts(const tensor_variant* x, int* a_wf, int* b_wf);

#endif
