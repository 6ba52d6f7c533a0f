#include "bench.h"

#include "check.h"

#include <stdio.h>
#include <stdlib.h>

static int compare_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static void bench_stats(double* v, int n, double* median, double* min, double* max) {
    qsort(v, (size_t)n, sizeof *v, compare_double);
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    *min = v[0];
    *max = v[n - 1];
}

bench_result bench_run(bench_fn fn, void* ctx, int warmup, int reps, int kernels_per_rep) {
    if (reps < 1) die("bench_run: reps must be at least 1");
    for (int i = 0; i < warmup; ++i) {
        fn(ctx, i);
        CUDA_CHECK(cudaGetLastError());
    }
    cudaEvent_t* ev = (cudaEvent_t*)malloc(2 * (size_t)reps * sizeof *ev);
    double* ms = (double*)malloc((size_t)reps * sizeof *ms);
    if (!ev || !ms) die("out of host memory");
    for (int i = 0; i < 2 * reps; ++i) CUDA_CHECK(cudaEventCreate(&ev[i]));
    for (int i = 0; i < reps; ++i) {
        CUDA_CHECK(cudaEventRecord(ev[2 * i]));
        fn(ctx, warmup + i);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(ev[2 * i + 1]));
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < reps; ++i) {
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
        ms[i] = t;
    }
    for (int i = 0; i < 2 * reps; ++i) CUDA_CHECK(cudaEventDestroy(ev[i]));
    bench_result r;
    bench_stats(ms, reps, &r.median_ms, &r.min_ms, &r.max_ms);
    r.reps = reps;
    r.launches = (warmup + reps) * kernels_per_rep;
    free(ev);
    free(ms);
    return r;
}

void bench_warn_if_spilling(const void* kernel, const char* name) {
    struct cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (attr.localSizeBytes)
        printf("warning: %s uses %zu bytes of local memory (register spills): its timings include "
               "local-memory traffic\n",
               name, attr.localSizeBytes);
}
