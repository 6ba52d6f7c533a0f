/* Chapter 05 exercise test, in two parts:
 *   --cpu  exercise_slot is a bijection on the 64 x 64 tile, keeps each float4 unit whole and
 *          aligned, and makes kernel 7's shared-memory stores and loads conflict-free in the
 *          calibrated model;
 *   --gpu  kernel 7 (float, 64 x 64 tile, 256 threads) with exercise_slot for both the write
 *          and the read-back transposes odd shapes exactly, outputs poisoned first. Exit 77
 *          without a GPU. */
#include "transpose.h"
#include "transpose_kernels.cuh"
#include "host/check.h"
#include "host/device.h"
#include "host/rng.h"
#include "host/test_util.h"

#include <stdlib.h>

enum { TR = 64, TC = 64, NT = 256 };

struct exercise_slot_fn {
    __host__ __device__ unsigned operator()(unsigned row, unsigned col) const {
        return exercise_slot(row, col);
    }
};

static unsigned host_slot(unsigned row, unsigned col) {
    return exercise_slot(row, col);
}

static void test_cpu(void) {
    static int used[TR * TC];
    int outside = 0, shared = 0, split = 0;
    for (unsigned r = 0; r < TC; ++r)
        for (unsigned c = 0; c < TR; ++c) {
            unsigned s = exercise_slot(r, c);
            if (s >= TR * TC)
                ++outside;
            else if (used[s]++)
                ++shared;
            if (s != exercise_slot(r, c / 4 * 4) + c % 4 || exercise_slot(r, c / 4 * 4) % 4)
                ++split;
        }
    EXPECT(outside == 0 && shared == 0,
           "not a bijection on the 4096 floats: %d elements outside them, %d sharing a slot",
           outside, shared);
    EXPECT(split == 0, "%d elements not at their unit's start + column %% 4, the unit aligned to 4",
           split);
    const vec_geometry g = {4, TR, TC, NT};
    smem_cost c;
    if (outside || split) return; /* the model needs aligned units inside the tile */
    EXPECT(vec_model(&g, host_slot, &c) == 0, "the model rejects the accesses");
    EXPECT(c.st == c.st_ideal, "float4 stores of the micro-blocks: %.2f wavefronts (ideal %.2f)",
           c.st, c.st_ideal);
    EXPECT(c.ld == c.ld_ideal, "float4 loads along rows: %.2f wavefronts (ideal %.2f)", c.ld,
           c.ld_ideal);
}

static int test_gpu(void) {
    course_device dev;
    int rc = course_device_open(&dev, 7, 5, "the exercise's GPU test");
    if (rc != EXIT_OK) return rc;
    static const int shapes[][2] = {{1, 1},    {31, 33},   {33, 65},    {64, 64},
                                    {100, 36}, {257, 128}, {1000, 776}, {4097, 1023}};
    unsigned long long seed = 5005;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        const int rows = shapes[k][0], cols = shapes[k][1];
        const size_t n = (size_t)rows * cols;
        float *h_in = (float*)malloc(n * 4), *h_out = (float*)malloc(n * 4), *d_in, *d_out;
        if (!h_in || !h_out) die("out of host memory");
        for (size_t i = 0; i < n; ++i) h_in[i] = (float)(rng_u32(&seed) % 1000000);
        CUDA_CHECK(cudaMalloc(&d_in, n * 4));
        CUDA_CHECK(cudaMalloc(&d_out, n * 4));
        CUDA_CHECK(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(d_out, 0xff, n * 4)); /* NaN: never equal to an input */
        transpose_vec<float, TR, TC, NT, exercise_slot_fn>
            <<<tile_grid(WRITE_ORDER, rows, cols, TR, TC), NT>>>(d_in, d_out, rows, cols);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(h_out, d_out, n * 4, cudaMemcpyDeviceToHost));
        size_t wrong = 0, first = 0;
        for (size_t i = 0; i < n; ++i) {
            size_t r = i / cols, c = i % cols;
            if (!(h_out[c * rows + r] == h_in[i]) && !wrong++) first = i;
        }
        EXPECT(wrong == 0, "%dx%d: %zu elements wrong, the first at input (%zu, %zu)", rows, cols,
               wrong, first / cols, first % cols);
        CUDA_CHECK(cudaFree(d_in));
        CUDA_CHECK(cudaFree(d_out));
        free(h_in);
        free(h_out);
    }
    return EXIT_OK;
}

int main(int argc, char** argv) {
    return test_main_cpu_gpu(argc, argv, "test_transpose", test_cpu, test_gpu);
}
