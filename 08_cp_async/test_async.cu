/* Chapter 08 exercise test: exercise_pipeline_step (pipeline.h).
 *   --cpu  replays it on the checker's model of stages and commit groups, for 2 to 4 stages and 1
 *          to 9 slices; the checker itself must catch three wrong schedules (reading a slice in
 *          flight, overwriting a stage still to be read, waiting for everything);
 *   --gpu  the GEMM kernel that calls it (gemm_async with exercise_schedule) on odd shapes, 2 to 4
 *          stages, against a double-precision CPU product, the output poisoned first. */
#include "exercise_schedule.cuh"
#include "gemm_async_kernels.cuh"
#include "pipeline.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/device.h"
#include "host/rng.h"
#include "host/test_util.h"

#include <math.h>

/* ---------------------------------------------------------------- on the CPU */

static pipeline_step reads_in_flight(int t, int slices, int stages) {
    pipeline_step p = exercise_pipeline_step(t, slices, stages);
    p.wait_depth = stages - 1; /* leaves slice t's own group pending */
    return p;
}
static pipeline_step overwrites(int t, int slices, int stages) {
    pipeline_step p = exercise_pipeline_step(t, slices, stages);
    p.fetch_stage = t % stages; /* the stage being read */
    return p;
}
static pipeline_step waits_for_all(int t, int slices, int stages) {
    pipeline_step p = exercise_pipeline_step(t, slices, stages);
    p.wait_depth = 0; /* correct, but nothing overlaps the wait */
    return p;
}

static void test_cpu(void) {
    char why[256];
    for (int stages = 2; stages <= PIPELINE_MAX_STAGES; ++stages)
        for (int slices = 1; slices <= 9; ++slices)
            EXPECT(!pipeline_check(exercise_pipeline_step, slices, stages, why, sizeof why),
                   "%d stages, %d slices: %s", stages, slices, why);
    /* The checker is only as good as what it catches (with the solution linked, these are the
     * solution's faults made on purpose; with the stub, the stub's). */
    EXPECT(pipeline_check(reads_in_flight, 7, 3, why, sizeof why), "missed a read in flight");
    EXPECT(pipeline_check(overwrites, 7, 3, why, sizeof why), "missed an overwrite");
    EXPECT(pipeline_check(waits_for_all, 7, 3, why, sizeof why), "missed a wait for all");
    if (test_failures)
        printf("hint: README.md, \"Exercise\", and the schedule drawn at the top of pipeline.h "
               "(which slice is in which stage, and which groups are still pending, at t)\n");
}

/* ---------------------------------------------------------------- on the GPU */

typedef void (*gemm_kernel)(int, int, int, float, const float*, int, const float*, int, float,
                            float*, int, int, int, gemm_work);

template <int STAGES>
static gemm_kernel exercise_kernel(void) {
    return gemm_async<128, 128, 8, 256, 4, 8, STAGES, ASYNC_A_SWIZZLED, exercise_schedule>;
}

static int test_gpu(void) {
    course_device dev;
    const char* what = "the exercise's GPU test (cp.async)";
    int rc = course_device_open(&dev, 7, 5, what);
    if (rc != EXIT_OK) return rc;
    /* Odd shapes (4-byte copies), and N, K multiples of 4 (16-byte copies) with partial tiles
     * and K = 0. */
    static const int shapes[][3] = {{1, 1, 1},      {33, 65, 7},      {128, 128, 8},  {129, 127, 9},
                                    {200, 300, 77}, {257, 131, 1000}, {129, 132, 36}, {33, 64, 0}};
    const gemm_kernel kernels[] = {exercise_kernel<2>(), exercise_kernel<3>(),
                                   exercise_kernel<4>()};
    unsigned long long seed = 8080;
    for (int s = 0; s < 3; ++s) {
        const int bytes = async_smem_bytes(ASYNC_A_SWIZZLED, 128, 128, 8, s + 2);
        const course_needs need = {80, "cp.async", (size_t)bytes, 256, 0};
        rc = course_require_kernel(&dev, (const void*)kernels[s], &need, what);
        if (rc != EXIT_OK) return rc;
        CUDA_CHECK(cudaFuncSetAttribute((const void*)kernels[s],
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
            const int M = shapes[k][0], N = shapes[k][1], K = shapes[k][2];
            /* K = 0 leaves A and B empty: course_buffer_alloc still gives valid pointers */
            course_buffer A = course_buffer_alloc((size_t)M * K * 4),
                          B = course_buffer_alloc((size_t)K * N * 4),
                          C = course_buffer_alloc((size_t)M * N * 4);
            float *a = (float*)A.host, *b = (float*)B.host, *c = (float*)C.host;
            for (size_t i = 0; i < (size_t)M * K; ++i)
                a[i] = (float)rng_u32(&seed) / 4294967296.0f - 0.5f;
            for (size_t i = 0; i < (size_t)K * N; ++i)
                b[i] = (float)rng_u32(&seed) / 4294967296.0f - 0.5f;
            course_buffer_upload(&A);
            course_buffer_upload(&B);
            course_buffer_poison(&C);
            const int vec = K % 4 == 0 && N % 4 == 0;
            const gemm_work w = gemm_work_tiles((M + 127) / 128, (N + 127) / 128, (K + 7) / 8);
            kernels[s]<<<dim3(w.tiles_n, w.whole / w.tiles_n), 256, bytes>>>(
                M, N, K, 1.0f, (const float*)A.dev, K > 0 ? K : 1, (const float*)B.dev, N, 0.0f,
                (float*)C.dev, N, vec, vec, w);
            CUDA_CHECK_LAUNCH();
            course_buffer_download(&C);
            double worst = 0;
            for (int i = 0; i < M; ++i)
                for (int j = 0; j < N; ++j) {
                    double ref = 0, mag = 0;
                    for (int q = 0; q < K; ++q) {
                        ref += (double)a[(size_t)i * K + q] * b[(size_t)q * N + j];
                        mag += fabs((double)a[(size_t)i * K + q] * b[(size_t)q * N + j]);
                    }
                    const double err = fabs(c[(size_t)i * N + j] - ref) / (mag + 1e-30);
                    if (worst == worst && !(err <= worst)) worst = err; /* a NaN stays */
                }
            /* K products added in float: at most about K FLT_EPSILON of the sum of |terms|. */
            EXPECT(worst <= K * 1.2e-7 + 1e-7, "%d stages, %dx%dx%d: error %.3g of sum |a b|",
                   s + 2, M, N, K, worst);
            course_buffer_free(&A);
            course_buffer_free(&B);
            course_buffer_free(&C);
        }
    }
    return EXIT_OK;
}

int main(int argc, char** argv) {
    return test_main_cpu_gpu(argc, argv, "test_async", test_cpu, test_gpu);
}
