/* Chapter 05 exercise test, in two parts:
 *   --cpu  exercise_slot is a bijection on the 64 x 64 tile, keeps each float4 unit whole and
 *          aligned, and makes kernel 7's shared-memory stores and loads conflict-free in the
 *          calibrated model;
 *   --gpu  kernel 7 (float, 64 x 64 tile, 256 threads) with exercise_slot for both the write
 *          and the read-back transposes odd shapes exactly, outputs poisoned first. Exit 77
 *          without a GPU. */
#include "transpose.h"
#include "transpose_kernels.cuh"
#include "host/buffers.h"
#include "host/check.h"
#include "host/device.h"
#include "host/rng.h"
#include "host/test_util.h"

#include <stdlib.h>

/* The exercise's kernel 7: a 64 x 64 float tile, 256 threads. */
enum { TILE_ROWS = 64, TILE_COLS = 64, THREADS = 256 };

struct exercise_slot_fn {
    __host__ __device__ unsigned operator()(unsigned row, unsigned col) const {
        return exercise_slot(row, col);
    }
};

static unsigned host_slot(unsigned row, unsigned col) {
    return exercise_slot(row, col);
}

static void test_cpu(void) {
    static int used[TILE_ROWS * TILE_COLS];
    int outside = 0, shared = 0, split = 0;
    for (unsigned r = 0; r < TILE_COLS; ++r)
        for (unsigned c = 0; c < TILE_ROWS; ++c) {
            unsigned s = exercise_slot(r, c);
            if (s >= TILE_ROWS * TILE_COLS)
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
    const vec_geometry g = {4, TILE_ROWS, TILE_COLS, THREADS};
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
        course_buffer in = course_buffer_alloc(n * sizeof(float)),
                      out = course_buffer_alloc(n * sizeof(float));
        float *h_in = (float*)in.host, *h_want = (float*)malloc(n * sizeof(float));
        if (!h_want) die("out of host memory");
        for (size_t i = 0; i < n; ++i) h_in[i] = (float)(rng_u32(&seed) % 1000000);
        for (size_t i = 0; i < n; ++i) h_want[i % cols * rows + i / cols] = h_in[i];
        course_buffer_upload(&in);
        course_buffer_poison(&out); /* NaN: never equal to an input */
        transpose_vec<float, TILE_ROWS, TILE_COLS, THREADS, exercise_slot_fn>
            <<<tile_grid(WRITE_ORDER, rows, cols, TILE_ROWS, TILE_COLS), THREADS>>>(
                (const float*)in.dev, (float*)out.dev, rows, cols);
        CUDA_CHECK_LAUNCH();
        course_buffer_download(&out);
        /* w indexes the output, cols x rows: input element (w % rows, w / rows). */
        const long long w = course_first_difference(out.host, h_want, n, sizeof(float));
        EXPECT(w < 0, "%dx%d: wrong output, the first at input (%lld, %lld)", rows, cols, w % rows,
               w / rows);
        course_buffer_free(&in);
        course_buffer_free(&out);
        free(h_want);
    }
    return EXIT_OK;
}

int main(int argc, char** argv) {
    return test_main_cpu_gpu(argc, argv, "test_transpose", test_cpu, test_gpu);
}
