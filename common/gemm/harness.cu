/* The GEMM harness (harness.h): cuBLAS, the variants' set-up and resources, inputs and errors.
 * The check is in check.cu, the benchmark in bench.cu. */
#include "gemm/harness.h"

#include "host/check.h"
#include "host/rng.h"

#include <cublas_v2.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- cuBLAS */

#define CUBLAS_CHECK(call)                                                                         \
    do {                                                                                           \
        cublasStatus_t st_ = (call);                                                               \
        if (st_ != CUBLAS_STATUS_SUCCESS)                                                          \
            die("%s: %s (%s)", #call, cublasGetStatusString(st_), cublasGetStatusName(st_));       \
    } while (0)

/* Two handles: the default math mode (fp32 FMAs; TF32 only if asked for, and it is not), and
 * CUBLAS_PEDANTIC_MATH, the prescribed precision in every phase, timed beside it as a check on
 * the baseline (README.md: within 0.5% of it). */
static cublasHandle_t cublas_default, cublas_pedantic;

void gemm_cublas_open(void) {
    CUBLAS_CHECK(cublasCreate(&cublas_default));
    CUBLAS_CHECK(cublasSetMathMode(cublas_default, CUBLAS_DEFAULT_MATH));
    CUBLAS_CHECK(cublasCreate(&cublas_pedantic));
    CUBLAS_CHECK(cublasSetMathMode(cublas_pedantic, CUBLAS_PEDANTIC_MATH));
}

/* cuBLAS is column-major. A row-major M x K matrix read column-major is its transpose, so the
 * row-major C = A B is the column-major C^T = B^T A^T: pass B first, swap M and N; a row-major
 * leading dimension is the column-major one of the transpose. No data moves. */
static void sgemm_cublas(cublasHandle_t h, const gemm_call* c) {
    CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, c->N, c->M, c->K, &c->alpha, c->B, c->ldb,
                             c->A, c->lda, &c->beta, c->C, c->ldc));
}
void gemm_launch_cublas(const gemm_call* c) {
    sgemm_cublas(cublas_default, c);
}
void gemm_launch_cublas_pedantic(const gemm_call* c) {
    sgemm_cublas(cublas_pedantic, c);
}

static int at_least_1(int n) {
    return n > 0 ? n : 1;
}

gemm_call gemm_call_dense(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C) {
    const gemm_call c = {
        M, N, K, alpha, beta, A, B, C, at_least_1(K), at_least_1(N), at_least_1(N)};
    return c;
}

int gemm_call_is_dense(const gemm_call* c) {
    return c->lda == at_least_1(c->K) && c->ldb == at_least_1(c->N) && c->ldc == at_least_1(c->N);
}

int gemm_float4_ok(const gemm_call* c) {
    return c->K % 4 == 0 && c->N % 4 == 0 && c->lda % 4 == 0 && c->ldb % 4 == 0 &&
           c->ldc % 4 == 0 && (uintptr_t)c->A % 16 == 0 && (uintptr_t)c->B % 16 == 0 &&
           (uintptr_t)c->C % 16 == 0;
}

const gemm_variant* gemm_variant_at(const course_variants* t, int i) {
    return (const gemm_variant*)course_variant_at(t, i);
}

void gemm_configure(const course_variants* t) {
    for (int i = 0; i < t->n; ++i) {
        const course_variant* x = &gemm_variant_at(t, i)->v;
        if (x->kernel && x->needs.dynamic_smem)
            CUDA_CHECK(cudaFuncSetAttribute(x->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)x->needs.dynamic_smem));
    }
}

gemm_resources gemm_kernel_resources(const gemm_variant* v) {
    gemm_resources r;
    memset(&r, 0, sizeof r);
    const course_variant* x = &v->v;
    if (!x->kernel) return r;
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, x->kernel));
    r.regs = attr.numRegs;
    r.spill_bytes = (int)attr.localSizeBytes;
    r.smem_bytes = (int)(attr.sharedSizeBytes + x->needs.dynamic_smem);
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &r.blocks_per_sm, x->kernel, x->needs.threads, x->needs.dynamic_smem));
    return r;
}

void gemm_print_resources(const course_variants* t) {
    printf("\nResources per kernel (compiler, via cudaFuncGetAttributes; occupancy API):\n");
    printf("%-17s %7s %10s %12s %11s %13s\n", "kernel", "threads", "registers", "spill bytes",
           "smem bytes", "blocks per SM");
    for (int i = 0; i < t->n; ++i) {
        const gemm_variant* v = gemm_variant_at(t, i);
        if (!v->v.kernel) continue;
        const gemm_resources r = gemm_kernel_resources(v);
        printf("%-17s %7d %10d %12d %11d %13d\n", v->v.name, v->v.needs.threads, r.regs,
               r.spill_bytes, r.smem_bytes, r.blocks_per_sm);
    }
}

/* ---------------------------------------------------------------- inputs and errors */

/* Tolerance on ||C - ref||_F / ||(alpha A B, beta C)||_F: fp32 sums of K products with random
 * signs drift like sqrt(K) roundings of FLT_EPSILON / 2; 8 FLT_EPSILON sqrt(K + 1) leaves room
 * for that and is still ~1000x below what one wrong element of a 255 x 255 result costs. */
double gemm_tolerance(int K) {
    return 8.0 * FLT_EPSILON * sqrt((double)K + 1.0);
}

void gemm_fill_uniform(float* x, size_t n, unsigned long long* seed) {
    for (size_t i = 0; i < n; ++i) x[i] = (float)(rng_u32(seed) / 2147483648.0 - 1.0);
}

/* Bytes that A, B and C of a shape need; exits 2 with a message if they do not fit in the GPU's
 * free memory. */
void gemm_require_memory(const char* program, gemm_shape s) {
    char what[128];
    snprintf(what, sizeof what, "%dx%dx%d (A, B, C and a reference C)", s.M, s.N, s.K);
    course_require_device_memory(
        program, 4.0 * ((double)s.M * s.K + (double)s.K * s.N + 2.0 * s.M * s.N), what);
}

/* Relative Frobenius distances on the device: out[0] += sum (x - y)^2, out[1] += sum y^2. */
__global__ void diff_norms(const float* x, const float* y, size_t n, double* out) {
    double d2 = 0, y2 = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        const double d = (double)x[i] - y[i];
        d2 += d * d;
        y2 += (double)y[i] * y[i];
    }
    atomicAdd(&out[0], d2);
    atomicAdd(&out[1], y2);
}

/* ||x - ref||_F / ||ref||_F, on the device: diff_norms on two blocks per SM of the GPU in use. */
double gemm_device_distance(const float* x, const float* ref, size_t n) {
    int dev, sms;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    double *d, h[2];
    CUDA_CHECK(cudaMalloc(&d, sizeof h));
    CUDA_CHECK(cudaMemset(d, 0, sizeof h));
    diff_norms<<<2 * sms, 256>>>(x, ref, n, d);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d));
    return sqrt(h[0]) / (h[1] > 0 ? sqrt(h[1]) : 1.0);
}
