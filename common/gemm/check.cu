/* The GEMM harness's check: every variant on odd shapes against a double reference, then against
 * cuBLAS (harness.h). */
#include "gemm/harness.h"

#include "host/buffers.h"
#include "host/check.h"
#include "host/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ||got - ref||_F / scale, scale = sqrt(scale2) (1 if 0); NaN anywhere makes it NaN. */
static double rel_error(const float* got, const double* ref, size_t n, double scale2) {
    double d2 = 0;
    for (size_t i = 0; i < n; ++i) {
        const double d = (double)got[i] - ref[i];
        d2 += d * d;
    }
    return sqrt(d2) / (scale2 > 0 ? sqrt(scale2) : 1.0);
}

/* How the check lays a shape's matrices out in memory: floats added to every row (lda = K + pad,
 * ldb, ldc = N + pad) and floats each base is moved by from its allocation's start (1: off any
 * 16-byte boundary). */
typedef struct {
    const char* name;
    int pad_a, pad_b, pad_c, shift_a, shift_b, shift_c;
} gemm_layout;

static const gemm_layout LAYOUTS[] = {
    {"dense", 0, 0, 0, 0, 0, 0},
    {"rows padded by 3, 5, 1", 3, 5, 1, 0, 0, 0}, /* no leading dimension a multiple of 4 */
    {"rows padded by 4, 8, 4", 4, 8, 4, 0, 0, 0}, /* aligned, but longer than the row */
    {"bases 4 bytes off", 0, 0, 0, 1, 1, 1},      /* dense, every base off 16 bytes */
    {"A's base 4 bytes off", 0, 0, 0, 1, 0, 0},   /* one operand unaligned, the others not */
    {"C's base 4 bytes off", 0, 0, 0, 0, 0, 1},
};
enum { N_LAYOUTS = sizeof LAYOUTS / sizeof LAYOUTS[0] };

/* A rows x cols matrix x (dense, on the host) copied into a device buffer with rows ld apart from
 * float `shift`, the gaps between rows NaN (a kernel that reads them shows it). */
static float* upload_strided(course_buffer* dev, const float* x, int rows, int cols, int ld,
                             int shift) {
    float* h = (float*)dev->host;
    const size_t n = dev->bytes / 4;
    for (size_t i = 0; i < n; ++i) h[i] = NAN;
    for (int r = 0; r < rows; ++r)
        memcpy(h + shift + (size_t)r * ld, x + (size_t)r * cols, (size_t)cols * 4);
    course_buffer_upload(dev);
    return (float*)dev->dev + shift;
}

/* Every variant at one shape against a CPU reference accumulated in double, in every layout of
 * LAYOUTS the variant takes. beta == 0: C starts as NaN (BLAS never reads it), so an element
 * nobody writes stays NaN and fails the check. */
static int check_shape(const char* program, const course_variants* t, gemm_shape s, float alpha,
                       float beta, unsigned long long* seed) {
    gemm_require_memory(program, s);
    const size_t na = (size_t)s.M * s.K, nb = (size_t)s.K * s.N, nc = (size_t)s.M * s.N;
    float* hA = (float*)malloc(na * 4 + 1);
    float* hB = (float*)malloc(nb * 4 + 1);
    float* hC0 = (float*)malloc(nc * 4 + 1);
    float* hC = (float*)malloc(nc * 4 + 1);
    double* ref = (double*)malloc(nc * sizeof(double) + 1);
    if (!hA || !hB || !hC0 || !hC || !ref) die("out of host memory");
    gemm_fill_uniform(hA, na, seed);
    gemm_fill_uniform(hB, nb, seed);
    if (beta == 0.0f)
        for (size_t i = 0; i < nc; ++i) hC0[i] = NAN;
    else
        gemm_fill_uniform(hC0, nc, seed);
    /* The error's scale: the norm of the two terms, alpha A B and beta C, side by side rather than
     * summed, so that a result where they cancel (1 x 1 x 1: one element) is not held to a
     * tolerance relative to what is left of them. */
    double scale2 = 0;
    for (int i = 0; i < s.M; ++i)
        for (int j = 0; j < s.N; ++j) {
            double dot = 0;
            for (int k = 0; k < s.K; ++k)
                dot += (double)hA[(size_t)i * s.K + k] * hB[(size_t)k * s.N + j];
            const size_t c = (size_t)i * s.N + j;
            const double old = beta == 0.0f ? 0.0 : (double)beta * hC0[c];
            ref[c] = alpha * dot + old;
            scale2 += alpha * dot * (alpha * dot) + old * old;
        }
    const double tol = gemm_tolerance(s.K);
    int failed = 0;
    for (int l = 0; l < N_LAYOUTS; ++l) {
        const gemm_layout* L = &LAYOUTS[l];
        const int lda = (s.K > 0 ? s.K : 1) + L->pad_a, ldb = (s.N > 0 ? s.N : 1) + L->pad_b,
                  ldc = (s.N > 0 ? s.N : 1) + L->pad_c;
        course_buffer A = course_buffer_alloc(((size_t)s.M * lda + 4) * 4),
                      B = course_buffer_alloc(((size_t)s.K * ldb + 4) * 4),
                      C = course_buffer_alloc(((size_t)s.M * ldc + 4) * 4);
        const float* dA = upload_strided(&A, hA, s.M, s.K, lda, L->shift_a);
        const float* dB = upload_strided(&B, hB, s.K, s.N, ldb, L->shift_b);
        char where[128];
        snprintf(where, sizeof where, "%dx%dx%d (alpha %g, beta %g; %s)", s.M, s.N, s.K, alpha,
                 beta, L->name);
        for (int i = 0; i < t->n; ++i) {
            const gemm_variant* v = gemm_variant_at(t, i);
            if (l > 0 && !v->any_ld) continue;
            float* dC = upload_strided(&C, hC0, s.M, s.N, ldc, L->shift_c);
            const gemm_call c = {s.M, s.N, s.K, alpha, beta, dA, dB, dC, lda, ldb, ldc};
            v->launch(&c);
            CUDA_CHECK_LAUNCH();
            course_buffer_download(&C);
            /* C's rows back to dense; everything else in its buffer (before the base, between
             * and after the rows) must still be what it was, NaN */
            const float* buf = (const float*)C.host;
            const float* got = buf + L->shift_c;
            for (int r = 0; r < s.M; ++r)
                memcpy(hC + (size_t)r * s.N, got + (size_t)r * ldc, (size_t)s.N * 4);
            int outside_kept = 1;
            for (size_t e = 0; e < C.bytes / 4; ++e) {
                const long long off = (long long)e - L->shift_c;
                const int inside = off >= 0 && off / ldc < s.M && off % ldc < s.N;
                if (!inside) outside_kept &= buf[e] != buf[e];
            }
            if (!outside_kept) {
                printf("  %-17s %s: wrote outside C  FAILED\n", v->v.name, where);
                failed = 1;
            }
            failed |= course_report_error(v->v.name, where, "relative error",
                                          rel_error(hC, ref, nc, scale2), tol);
        }
        course_buffer_free(&A);
        course_buffer_free(&B);
        course_buffer_free(&C);
    }
    free(hA);
    free(hB);
    free(hC0);
    free(hC);
    free(ref);
    return failed;
}

/* Every kernel against cuBLAS at S^3; cuBLAS itself against a double CPU reference on 16 rows
 * (which also proves the row-major call above). */
static int check_against_cublas(const char* program, const course_variants* t, int S,
                                unsigned long long* seed) {
    const gemm_shape s = {S, S, S};
    gemm_require_memory(program, s);
    const size_t nn = (size_t)S * S;
    course_buffer A = course_buffer_alloc(nn * 4), B = course_buffer_alloc(nn * 4),
                  C = course_buffer_alloc(nn * 4), Ref = course_buffer_alloc(nn * 4);
    float *hA = (float*)A.host, *hB = (float*)B.host, *hRef = (float*)Ref.host;
    gemm_fill_uniform(hA, nn, seed);
    gemm_fill_uniform(hB, nn, seed);
    course_buffer_upload(&A);
    course_buffer_upload(&B);
    const float alpha = 1.0f, beta = 0.0f;
    const float *dA = (const float*)A.dev, *dB = (const float*)B.dev;
    const gemm_call ref_call = gemm_call_dense(S, S, S, alpha, dA, dB, beta, (float*)Ref.dev);
    gemm_launch_cublas(&ref_call);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&Ref);
    double d2 = 0, r2 = 0;
    for (int i = 0; i < S; i += (S + 15) / 16)
        for (int j = 0; j < S; ++j) {
            double dot = 0;
            for (int k = 0; k < S; ++k)
                dot += (double)hA[(size_t)i * S + k] * hB[(size_t)k * S + j];
            d2 += (hRef[(size_t)i * S + j] - dot) * (hRef[(size_t)i * S + j] - dot);
            r2 += dot * dot;
        }
    const double tol = gemm_tolerance(S), cublas_err = sqrt(d2) / sqrt(r2);
    int failed = !(cublas_err <= tol);
    printf("  cuBLAS at %d^3 against double on 16 rows: relative error %.2g (tolerance %.2g)%s\n",
           S, cublas_err, tol, failed ? "  FAILED" : "");
    char where[32];
    snprintf(where, sizeof where, "%d^3", S);
    for (int i = 0; i < t->n; ++i) {
        const gemm_variant* v = gemm_variant_at(t, i);
        if (v->v.baseline) continue; /* cuBLAS itself, and another mode of it */
        course_buffer_poison(&C);
        const gemm_call c = gemm_call_dense(S, S, S, alpha, dA, dB, beta, (float*)C.dev);
        v->launch(&c);
        CUDA_CHECK_LAUNCH();
        failed |= course_report_error(
            v->v.name, where, "relative distance to cuBLAS",
            gemm_device_distance((const float*)C.dev, (const float*)Ref.dev, nn), 2 * tol);
    }
    course_buffer_free(&A);
    course_buffer_free(&B);
    course_buffer_free(&C);
    course_buffer_free(&Ref);
    return failed;
}

int gemm_select_check_shapes(const course_args* a, gemm_shape* shapes, int n) {
    if (a->shape_given) {
        shapes[0] = gemm_shape{(int)a->shape[0], (int)a->shape[1], (int)a->shape[2]};
        /* The reference is a plain triple loop in double on one core: say so before a long wait
         * (8192^3 is 5.5e11 multiply-adds, minutes). */
        const double madds = (double)shapes[0].M * shapes[0].N * shapes[0].K;
        if (madds > 1e10)
            printf("check: note: the CPU reference computes %.2g multiply-adds in double on one "
                   "core, which can take minutes; the benchmark compares large shapes with cuBLAS "
                   "instead\n",
                   madds);
        return 1;
    }
    if (!a->size_given) return n;
    int kept = 0; /* --size N: only the shapes no larger than N */
    for (int i = 0; i < n; ++i)
        if (shapes[i].M <= a->size && shapes[i].N <= a->size && shapes[i].K <= a->size)
            shapes[kept++] = shapes[i];
    return kept;
}

int gemm_run_check(const char* program, const course_variants* t, const course_args* a,
                   int cublas_size) {
    unsigned long long seed = a->seed;
    /* Odd sizes mixed, tall and wide, K = 0, and shapes whose N and K are multiples of 4 (the
     * float4 path) with partial tiles. */
    gemm_shape shapes[24] = {{1, 1, 1},       {2, 7, 31},     {31, 33, 7},     {33, 31, 129},
                             {127, 129, 255}, {129, 127, 33}, {255, 255, 255}, {255, 1, 127},
                             {1, 255, 129},   {7, 255, 2},    {255, 7, 33},    {129, 129, 1},
                             {33, 127, 0},    {64, 64, 0},    {127, 132, 36},  {129, 256, 252},
                             {256, 128, 64}};
    int n_shapes = 17;
    for (int k = 0; k < 3; ++k) { /* random ones; the last with N and K multiples of 4 */
        gemm_shape s = {1 + (int)rng_below(&seed, 300), 1 + (int)rng_below(&seed, 300),
                        1 + (int)rng_below(&seed, 300)};
        if (k == 2) s.N = (s.N + 3) / 4 * 4, s.K = (s.K + 3) / 4 * 4;
        shapes[n_shapes++] = s;
    }
    n_shapes = gemm_select_check_shapes(a, shapes, n_shapes);
    printf("check: random inputs from --seed %llu; every shape with alpha, beta drawn (not 0 or "
           "1), then with beta = 0 and C full of NaN; tolerance on ||C - ref|| / ||(alpha A B, "
           "beta C)|| 8 FLT_EPSILON sqrt(K + 1), ref in double\n",
           a->seed);
    int failed = 0;
    for (int i = 0; i < n_shapes; ++i) {
        const float alpha = 0.5f + (float)rng_below(&seed, 1000) / 1000.0f + 0.001f,
                    beta = -0.25f - (float)rng_below(&seed, 1000) / 1000.0f;
        failed |= check_shape(program, t, shapes[i], alpha, beta, &seed);
        failed |= check_shape(program, t, shapes[i], alpha, 0.0f, &seed);
    }
    if (!a->shape_given) failed |= check_against_cublas(program, t, cublas_size, &seed);
    printf("check: %s (%d shapes x 2 x %d variants, dense and, for those that take any leading "
           "dimension, %d layouts more%s)\n",
           failed ? "FAILED (reproduce with the --seed above)" : "every result within tolerance",
           n_shapes, t->n, N_LAYOUTS - 1,
           a->shape_given ? "" : "; and every kernel against cuBLAS");
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}
