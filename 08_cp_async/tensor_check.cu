/* Chapter 08, part 3's check (tensor.h): every variant selected against a CPU double reference on
 * odd shapes, beta 0 over NaN and beta 0.5 over random C, every element within the tolerance. */
#include "tensor.h"
#include "gemm/harness.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/rng.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tensor_fill_halves(__half* h, size_t n, unsigned long long* seed) {
    for (size_t i = 0; i < n; ++i)
        h[i] = __float2half((float)rng_u32(seed) / 4294967296.0f * 2.0f - 1.0f);
}

/* The tolerance, relative to |alpha| sum_k |a_ik b_kj| + |beta c_ij|: the products of halves
 * are exact in fp32, and each mma adds 16 of them into the fp32 accumulator, rounding (the tensor
 * cores may truncate the alignment of addends): K / 16 + 4 roundings, 16 FLT_EPSILON each. */
static double tolerance(int K) {
    return 16.0 * FLT_EPSILON * (K / 16 + 4);
}

/* One shape, every selected variant, beta = 0 over NaN and beta = 0.5 over random C. */
static int check_shape(const course_args* a, const course_variants* running, gemm_shape s,
                       cublasHandle_t cublas, unsigned long long* seed) {
    const size_t na = (size_t)s.M * s.K, nb = (size_t)s.K * s.N, nc = (size_t)s.M * s.N;
    course_buffer A = course_buffer_alloc(na * sizeof(__half)),
                  B = course_buffer_alloc(nb * sizeof(__half)), C = course_buffer_alloc(nc * 4);
    __half *ha = (__half*)A.host, *hb = (__half*)B.host;
    float *c = (float*)C.host, *c0 = (float*)malloc((nc ? nc : 1) * 4);
    double *dot = (double*)malloc((nc ? nc : 1) * 8), *mag = (double*)malloc((nc ? nc : 1) * 8);
    if (!c0 || !dot || !mag) die("out of host memory");
    tensor_fill_halves(ha, na, seed);
    tensor_fill_halves(hb, nb, seed);
    for (size_t i = 0; i < nc; ++i) c0[i] = (float)rng_u32(seed) / 4294967296.0f * 2.0f - 1.0f;
    for (int i = 0; i < s.M; ++i)
        for (int j = 0; j < s.N; ++j) {
            double d = 0, m = 0;
            for (int k = 0; k < s.K; ++k) {
                const double p = (double)__half2float(ha[(size_t)i * s.K + k]) *
                                 __half2float(hb[(size_t)k * s.N + j]);
                d += p;
                m += fabs(p);
            }
            dot[(size_t)i * s.N + j] = d;
            mag[(size_t)i * s.N + j] = m;
        }
    course_buffer_upload(&A);
    course_buffer_upload(&B);
    const float alpha = 1.5f, betas[2] = {0.0f, 0.5f};
    const double tol = tolerance(s.K);
    int failed = 0;
    for (int i = 0; i < running->n; ++i) {
        const tensor_variant* x = tensor_at(running, i);
        if (!x->launch || !course_variant_selected(a, &x->v)) continue;
        for (int b = 0; b < 2; ++b) {
            const float beta = betas[b];
            if (beta == 0.0f) {
                course_buffer_poison(&C); /* NaN: must be overwritten, not read */
            } else {
                memcpy(c, c0, nc * 4);
                course_buffer_upload(&C);
            }
            const tensor_call call = {(const __half*)A.dev,
                                      (const __half*)B.dev,
                                      (float*)C.dev,
                                      s.M,
                                      s.N,
                                      s.K,
                                      alpha,
                                      beta,
                                      cublas};
            x->launch(&call);
            CUDA_CHECK_LAUNCH();
            course_buffer_download(&C);
            size_t wrong = 0, first = 0;
            double worst = 0;
            for (size_t e = 0; e < nc; ++e) {
                const double want = alpha * dot[e] + beta * c0[e];
                const double scale = fabs(alpha) * mag[e] + fabs(beta * c0[e]);
                const double err = fabs((double)c[e] - want) / (scale > 0 ? scale : 1.0);
                if (!(err <= tol) && !wrong++) first = e;
                if (worst == worst && !(err <= worst)) worst = err; /* a NaN, once met, stays */
            }
            char where[64];
            snprintf(where, sizeof where, "%dx%dx%d beta %g", s.M, s.N, s.K, beta);
            if (course_report_error(x->v.name, where, "worst error of sum |alpha a b| + |beta c|",
                                    worst, tol)) {
                printf("    %zu of %zu WRONG, the first at (%zu, %zu): %g, want %g\n", wrong, nc,
                       first / s.N, first % s.N, c[first], alpha * dot[first] + beta * c0[first]);
                failed = 1;
            }
        }
    }
    course_buffer_free(&A);
    course_buffer_free(&B);
    course_buffer_free(&C);
    free(c0), free(dot), free(mag);
    return failed;
}

int tensor_check(const course_args* a, const course_variants* running, cublasHandle_t cublas) {
    if (a->variant &&
        (!strcmp(a->variant, TENSOR_CEILING) || !strcmp(a->variant, TENSOR_WGMMA_CEILING))) {
        printf("check: %s computes nothing to check\n", a->variant);
        return 0;
    }
    /* Edges in every direction, K below, at and past a slice, rows not 16-byte aligned (K or N
     * not a multiple of 8), K = 0 (C = beta C) with rows unaligned and aligned (hgemm_mma's two
     * paths, which the TMA variants fall back to at K = 0), 264 x 18440: 290 tiles of 256 x 128,
     * so that hgemm_tma_persistent's blocks, one an SM, take two or three each on the H200's 132
     * SMs (on any GPU of fewer than 290 SMs some take two; K = 72: two slices, the next tile's
     * first loaded during this one), and two shapes drawn from the seed.
     * The last two fixed ones keep, under the sanitizers' --size 132, the aligned path with
     * several slices: enough for the cp.async pipelines to refill a stage, not for the TMA's (3
     * stages of 64 k) or the persistent blocks, which 08_cp_async.*_hgemm sanitize at
     * 264 x 18440 x 456. */
    gemm_shape shapes[19] = {{1, 1, 1},      {1, 300, 7},      {300, 1, 9},     {17, 33, 9},
                             {128, 256, 32}, {129, 257, 65},   {300, 200, 104}, {64, 520, 1000},
                             {1000, 8, 16},  {257, 129, 8},    {511, 513, 517}, {33, 65, 0},
                             {72, 128, 0},   {264, 18440, 72}, {130, 128, 128}, {72, 128, 104}};
    int n = 16;
    unsigned long long seed = a->seed;
    for (int k = 0; k < 2; ++k)
        shapes[n++] = {1 + (int)rng_below(&seed, 600), 1 + (int)rng_below(&seed, 600),
                       1 + (int)rng_below(&seed, 600)};
    n = gemm_select_check_shapes(a, shapes, n);
    int failed = 0;
    for (int i = 0; i < n; ++i) failed |= check_shape(a, running, shapes[i], cublas, &seed);
    printf("check: tensor-core GEMM, %d shape%s, beta 0 (over NaN) and 0.5, tolerance (K / 16 + "
           "4) x 16 FLT_EPSILON of sum |a b|: %s\n",
           n, n == 1 ? "" : "s", failed ? "FAILED" : "all variants agree with the CPU (double)");
    return failed;
}
