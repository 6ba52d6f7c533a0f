/* Chapter 06 exercise test: kernel 3 with the learner's two steps, on odd shapes against a
 * reference accumulated in double.
 *   --cpu  the steps run on the CPU as the kernel's barriers order them: every thread of a block
 *          loads its tile elements (into tiles poisoned with NaN first), then every thread adds
 *          its dot product; C = A * B;
 *   --gpu  kernel 3 itself, C = alpha * A * B + beta * C with alpha, beta not 0 or 1, and with
 *          beta = 0 over a C full of NaN (an element left unwritten stays NaN). Exit 77 without
 *          a GPU. */
#include "gemm.h"
#include "gemm_smem.cuh"
#include "host/check.h"
#include "host/device.h"
#include "host/rng.h"
#include "host/test_util.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* K = 0 last: the slice loop runs no time and C = beta C, as in BLAS. */
static const int SHAPES[][3] = {{1, 1, 1},      {31, 33, 7},   {33, 65, 31}, {64, 32, 96},
                                {100, 37, 129}, {129, 70, 33}, {33, 65, 0}};
enum { N_SHAPES = sizeof SHAPES / sizeof SHAPES[0] };

static void fill(float* x, size_t n, unsigned long long* seed) {
    for (size_t i = 0; i < n; ++i) x[i] = (float)(rng_u32(seed) / 2147483648.0 - 1.0);
}

/* ||got - (alpha A B + beta C0)|| / ||(alpha A B, beta C0)||, the reference in double (the two
 * terms' norm side by side: where they cancel, 1 x 1 x 1, what is left is no scale; where both
 * are 0, K = 0 and beta = 0, the distance itself); NaN stays NaN. */
static double rel_error(const float* A, const float* B, const float* C0, const float* got, int M,
                        int N, int K, float alpha, float beta) {
    double d2 = 0, r2 = 0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double dot = 0;
            for (int k = 0; k < K; ++k) dot += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
            const size_t c = (size_t)i * N + j;
            const double old = beta == 0.0f ? 0.0 : (double)beta * C0[c];
            const double ref = alpha * dot + old;
            d2 += (got[c] - ref) * (got[c] - ref);
            r2 += alpha * dot * (alpha * dot) + old * old;
        }
    return sqrt(d2) / (r2 > 0 ? sqrt(r2) : 1.0);
}

static double tolerance(int K) {
    return 8.0 * FLT_EPSILON * sqrt((double)K + 1.0);
}

/* What a failure most likely means, for the learner. */
static const char* hint(double err) {
    return err != err ? " (NaN: a tile element left unwritten? outside the matrices it must be 0)"
           : err > 0.5
               ? " (far off: do both steps compute? A's row and column, B's, the right way?)"
               : " (close: an edge element, or a product missed or counted twice?)";
}

static void test_cpu(void) {
    unsigned long long seed = 6006;
    static float As[T3 * T3], Bs[T3 * T3], acc[T3 * T3];
    for (int s = 0; s < N_SHAPES; ++s) {
        const int M = SHAPES[s][0], N = SHAPES[s][1], K = SHAPES[s][2];
        /* + 4, + 16 below: K = 0 leaves A and B empty, and no allocation may be of 0 bytes */
        float *A = (float*)malloc((size_t)M * K * 4 + 4),
              *B = (float*)malloc((size_t)K * N * 4 + 4), *C = (float*)malloc((size_t)M * N * 4);
        if (!A || !B || !C) die("out of host memory");
        fill(A, (size_t)M * K, &seed);
        fill(B, (size_t)K * N, &seed);
        for (int i = 0; i < M * N; ++i) C[i] = NAN;
        for (int by = 0; by * T3 < M; ++by)
            for (int bx = 0; bx * T3 < N; ++bx) {
                memset(acc, 0, sizeof acc);
                for (int k0 = 0; k0 < K; k0 += T3) {
                    for (int i = 0; i < T3 * T3; ++i) As[i] = Bs[i] = NAN;
                    for (int t = 0; t < T3 * T3; ++t) /* __syncthreads() after this loop */
                        exercise_load_tiles(A, B, M, N, K, by, bx, k0, t / T3, t % T3, As, Bs);
                    for (int t = 0; t < T3 * T3; ++t)
                        acc[t] = exercise_tile_dot(As, Bs, t / T3, t % T3, acc[t]);
                }
                for (int t = 0; t < T3 * T3; ++t) {
                    const int r = by * T3 + t / T3, c = bx * T3 + t % T3;
                    if (r < M && c < N) C[(size_t)r * N + c] = acc[t];
                }
            }
        const double err = rel_error(A, B, NULL, C, M, N, K, 1.0f, 0.0f), tol = tolerance(K);
        EXPECT(err <= tol, "%dx%dx%d on the CPU: relative error %.3g > %.3g%s", M, N, K, err, tol,
               hint(err));
        free(A);
        free(B);
        free(C);
    }
}

static int test_gpu(void) {
    course_device dev;
    int rc = course_device_open(&dev, 7, 5, "the exercise's GPU test");
    if (rc != EXIT_OK) return rc;
    unsigned long long seed = 6060;
    for (int s = 0; s < N_SHAPES; ++s)
        for (int zero_beta = 0; zero_beta < 2; ++zero_beta) {
            const int M = SHAPES[s][0], N = SHAPES[s][1], K = SHAPES[s][2];
            const float alpha = 1.25f, beta = zero_beta ? 0.0f : -0.75f;
            const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
            float *A = (float*)malloc(na * 4 + 4), *B = (float*)malloc(nb * 4 + 4),
                  *C0 = (float*)malloc(nc * 4), *C = (float*)malloc(nc * 4), *dA, *dB, *dC;
            if (!A || !B || !C0 || !C) die("out of host memory");
            fill(A, na, &seed);
            fill(B, nb, &seed);
            if (zero_beta)
                for (size_t i = 0; i < nc; ++i) C0[i] = NAN;
            else
                fill(C0, nc, &seed);
            CUDA_CHECK(cudaMalloc(&dA, na * 4 + 16));
            CUDA_CHECK(cudaMalloc(&dB, nb * 4 + 16));
            CUDA_CHECK(cudaMalloc(&dC, nc * 4));
            CUDA_CHECK(cudaMemcpy(dA, A, na * 4, cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(dB, B, nb * 4, cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(dC, C0, nc * 4, cudaMemcpyHostToDevice));
            gemm_smem_exercise<<<gemm_smem_grid(M, N), T3 * T3>>>(M, N, K, alpha, dA, dB, beta, dC);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(C, dC, nc * 4, cudaMemcpyDeviceToHost));
            const double err = rel_error(A, B, C0, C, M, N, K, alpha, beta), tol = tolerance(K);
            EXPECT(err <= tol, "%dx%dx%d on the GPU, beta %g: relative error %.3g > %.3g%s", M, N,
                   K, beta, err, tol, hint(err));
            CUDA_CHECK(cudaFree(dA));
            CUDA_CHECK(cudaFree(dB));
            CUDA_CHECK(cudaFree(dC));
            free(A);
            free(B);
            free(C0);
            free(C);
        }
    return EXIT_OK;
}

int main(int argc, char** argv) {
    return test_main_cpu_gpu(argc, argv, "test_gemm", test_cpu, test_gpu);
}
