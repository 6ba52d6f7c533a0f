/* Chapter 07 exercise test: exercise_warp_reduce_sum and exercise_block_reduce_sum, on
 * integer-valued inputs (exact sums), full and partial warps and blocks.
 *   --cpu  on the warp simulator (warp_sim.h): each thread of a block a host thread, shuffles and
 *          barriers with the GPU's semantics;
 *   --gpu  the same sums in a kernel on the GPU (the block sum twice on the same 32 slots, as
 *          kernel 7's last block calls it), and inside kernel 6 (reduce_shuffle_exercise) on odd
 *          sizes, its output poisoned first. Exit 77 without a GPU. */
#include "reduce.h"
#include "shuffle_exercise.cuh"
#include "warp_sim.h"
#include "host/check.h"
#include "host/device.h"
#include "host/rng.h"
#include "host/test_util.h"

#include <math.h>
#include <stdlib.h>

/* Blocks of 1 to 32 warps; in each, the first `filled` threads hold a value and the rest 0 (what
 * the kernels give threads past the end of the input): full and partial warps. */
static const int CASES[][2] = {{32, 32},   {32, 1},   {32, 17},     {64, 64},    {96, 70},
                               {256, 256}, {256, 33}, {1024, 1000}, {1024, 1024}};
enum { N_CASES = sizeof CASES / sizeof CASES[0] };

static float value_of(int tid, int filled, unsigned long long seed) {
    unsigned long long s = seed + (unsigned long long)tid;
    return tid < filled ? (float)((int)rng_below(&s, 201) - 100) : 0.0f;
}

static long long expected_sum(int threads, int filled, unsigned long long seed) {
    long long s = 0;
    for (int t = 0; t < threads; ++t) s += (long long)value_of(t, filled, seed);
    return s;
}

/* ---------------------------------------------------------------- on the CPU */

typedef struct {
    int filled, block;
    unsigned long long seed;
    float warp_sums[32];
    float lane0[32]; /* exercise_warp_reduce_sum's result in lane 0 of each warp */
    float thread0;   /* exercise_block_reduce_sum's result in thread 0 */
} sim_case;

static void sim_body(int tid, void* p) {
    sim_case* c = (sim_case*)p;
    const float v = value_of(tid, c->filled, c->seed);
    if (c->block) {
        const float s = exercise_block_reduce_sum(v, c->warp_sums);
        if (tid == 0) c->thread0 = s;
    } else {
        const float s = exercise_warp_reduce_sum(v);
        if (tid % 32 == 0) c->lane0[tid / 32] = s;
    }
}

/* The bank model's trees and scan, the figures the lesson quotes (and ncu measured on the H200:
 * kernel 2's 3.80 and 2.75 per request). */
static void test_model(void) {
    static const int strided_ld[8] = {2, 4, 8, 8, 8, 4, 2, 1};
    static const int strided_warps[8] = {4, 2, 1, 1, 1, 1, 1, 1};
    static const int divergent_warps[8] = {8, 8, 8, 8, 8, 4, 2, 1};
    tree_step steps[MAX_TREE_STEPS];
    double ld, st;
    EXPECT(reduce_tree_model(TREE_STRIDED, RT, steps, &ld, &st) == 8, "kernel 2: 8 steps");
    for (int k = 0; k < 8; ++k)
        EXPECT(steps[k].stride == 1 << k && steps[k].ld == strided_ld[k] &&
                   steps[k].st == strided_ld[k] && steps[k].warps == strided_warps[k],
               "kernel 2, stride %d: %.2f / %.2f wavefronts per load / store over %d warps, "
               "expected %d over %d",
               steps[k].stride, steps[k].ld, steps[k].st, steps[k].warps, strided_ld[k],
               strided_warps[k]);
    EXPECT(ld == 95.0 / 25 && st == 55.0 / 20, "kernel 2: %g / %g per request, expected 3.8 / 2.75",
           ld, st);
    EXPECT(reduce_tree_model(TREE_DIVERGENT, RT, steps, &ld, &st) == 8 && ld == 1 && st == 1,
           "kernel 1: %g / %g per request, expected 1 / 1", ld, st);
    for (int k = 0; k < 8; ++k)
        EXPECT(steps[k].ld == 1 && steps[k].warps == divergent_warps[k],
               "kernel 1, stride %d: %.2f over %d warps", steps[k].stride, steps[k].ld,
               steps[k].warps);
    for (int t = TREE_SEQUENTIAL; t <= TREE_LAST_WARP; ++t)
        EXPECT(reduce_tree_model((reduce_tree)t, RT, steps, &ld, &st) == 8 && ld == 1 && st == 1,
               "tree %d: %g / %g per request, expected 1 / 1", t, ld, st);
    double wf;
    int req;
    reduce_scan_model(&wf, &req);
    EXPECT(wf == 1 && req == 11, "scan: %d requests of %g wavefronts, expected 11 of 1", req, wf);
}

static void test_cpu(void) {
    test_model();
    for (int k = 0; k < N_CASES; ++k) {
        const int threads = CASES[k][0], filled = CASES[k][1];
        sim_case c = {};
        c.filled = filled;
        c.seed = 7000 + (unsigned long long)k;
        warp_sim_run(threads, sim_body, &c);
        for (int w = 0; w < threads / 32; ++w) {
            long long want = 0;
            for (int l = 0; l < 32; ++l) want += (long long)value_of(w * 32 + l, filled, c.seed);
            EXPECT(c.lane0[w] == (float)want,
                   "warp sum, %d threads (%d filled), warp %d: %g, not %lld", threads, filled, w,
                   c.lane0[w], want);
        }
        c.block = 1;
        for (int w = 0; w < 32; ++w) c.warp_sums[w] = NAN; /* a slot no warp fills must not count */
        warp_sim_run(threads, sim_body, &c);
        const long long want = expected_sum(threads, filled, c.seed);
        EXPECT(c.thread0 == (float)want, "block sum, %d threads (%d filled): %g, not %lld", threads,
               filled, c.thread0, want);
    }
}

/* ---------------------------------------------------------------- on the GPU */

/* Thread tid adds values[tid] (value_of, written by the host), into out[0]; then, after a
 * barrier, -2 values[tid] on the same 32 slots (what kernel 7's last block does), into out[1].
 * The slots start as NaN, so that one no warp fills must not be added. */
__global__ void block_sum_from(const float* values, float* out) {
    __shared__ float warp_sums[32];
    if (threadIdx.x < 32) warp_sums[threadIdx.x] = __int_as_float(0x7fffffff);
    __syncthreads();
    const float first = exercise_block_reduce_sum(values[threadIdx.x], warp_sums);
    __syncthreads();
    const float second = exercise_block_reduce_sum(-2.0f * values[threadIdx.x], warp_sums);
    if (threadIdx.x == 0) {
        out[0] = first;
        out[1] = second;
    }
}

static int test_gpu(void) {
    course_device dev;
    int rc = course_device_open(&dev, 7, 5, "the exercise's GPU test");
    if (rc != EXIT_OK) return rc;
    float *d_values, *d_out;
    CUDA_CHECK(cudaMalloc(&d_values, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, 4096 * sizeof(float)));
    for (int k = 0; k < N_CASES; ++k) {
        const int threads = CASES[k][0], filled = CASES[k][1];
        const unsigned long long seed = 7000 + (unsigned long long)k;
        float h[1024];
        for (int t = 0; t < threads; ++t) h[t] = value_of(t, filled, seed);
        CUDA_CHECK(cudaMemcpy(d_values, h, threads * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(d_out, 0xff, 2 * sizeof(float)));
        block_sum_from<<<1, threads>>>(d_values, d_out);
        CUDA_CHECK_LAUNCH();
        float got[2];
        CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
        const long long want = expected_sum(threads, filled, seed);
        EXPECT(got[0] == (float)want, "GPU block sum, %d threads (%d filled): %g, not %lld",
               threads, filled, got[0], want);
        EXPECT(got[1] == (float)(-2 * want),
               "GPU block sum called again on the same slots, %d threads (%d filled): %g, not %lld",
               threads, filled, got[1], -2 * want);
    }
    /* Kernel 6 with the exercise's block sum, one pass: partial sums of 2 x 256 elements per
     * block, added here. */
    static const size_t sizes[] = {1, 31, 33, 511, 512, 513, 100003};
    unsigned long long seed = 7070;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        const size_t n = sizes[k], blocks = (n + 2 * RT - 1) / (2 * RT);
        float* x = (float*)malloc(n * sizeof(float));
        float* partial = (float*)malloc(blocks * sizeof(float));
        if (!x || !partial) die("out of host memory");
        long long want = 0;
        for (size_t i = 0; i < n; ++i)
            want += (long long)(x[i] = (float)((int)rng_below(&seed, 3) - 1));
        float* d_x;
        CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
        CUDA_CHECK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(d_out, 0xff, blocks * sizeof(float)));
        reduce_shuffle_exercise<<<(unsigned)blocks, RT>>>(d_x, n, d_out);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(partial, d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
        double got = 0;
        for (size_t b = 0; b < blocks; ++b) got += partial[b];
        EXPECT(got == (double)want, "kernel 6 on %zu elements: %g, not %lld", n, got, want);
        CUDA_CHECK(cudaFree(d_x));
        free(x);
        free(partial);
    }
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_out));
    return EXIT_OK;
}

int main(int argc, char** argv) {
    return test_main_cpu_gpu(argc, argv, "test_reduce", test_cpu, test_gpu);
}
