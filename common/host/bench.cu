#include "host/bench.h"

#include "host/check.h"
#include "ptx/special.cuh"

#include <stdio.h>
#include <stdlib.h>

static int compare_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

void bench_stats(double* v, int n, double* median, double* min, double* max) {
    qsort(v, (size_t)n, sizeof *v, compare_double);
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    if (min) *min = v[0];
    if (max) *max = v[n - 1];
}

/* Spins until the host writes a non-zero flag[0] (mapped host memory), or for at most
 * GATE_LIMIT_NS: a profiler that serializes launches (ncu) waits for the gate before it lets the
 * host queue the next kernel, and the host would never open it. flag[1] = 1 says it timed out. */
enum { GATE_LIMIT_NS = 200000000 };
static __global__ void bench_gate(volatile int* flag) {
    const unsigned long long start = ptx_globaltimer();
    while (!flag[0]) {
        if (ptx_globaltimer() - start > GATE_LIMIT_NS) {
            flag[1] = 1;
            return;
        }
        __nanosleep(1000);
    }
}

/* Both measurements: warm-up, then an event pair around each timed repetition; with gate (mapped
 * host memory, see bench_gate), the timed repetitions wait behind the gate kernel until all are
 * queued. */
static bench_result run_timed(bench_fn fn, void* ctx, int warmup, int reps, int kernels_per_rep,
                              int* gate) {
    if (reps < 1) die("bench_run: reps must be at least 1");
    for (int i = 0; i < warmup; ++i) {
        fn(ctx, i);
        CUDA_CHECK(cudaGetLastError());
    }
    cudaEvent_t* ev = (cudaEvent_t*)malloc(2 * (size_t)reps * sizeof *ev);
    double* ms = (double*)malloc((size_t)reps * sizeof *ms);
    if (!ev || !ms) die("out of host memory");
    for (int i = 0; i < 2 * reps; ++i) CUDA_CHECK(cudaEventCreate(&ev[i]));
    if (gate) {
        int* d_gate;
        CUDA_CHECK(cudaHostGetDevicePointer(&d_gate, gate, 0));
        bench_gate<<<1, 1>>>(d_gate);
        CUDA_CHECK(cudaGetLastError());
    }
    for (int i = 0; i < reps; ++i) {
        CUDA_CHECK(cudaEventRecord(ev[2 * i]));
        fn(ctx, warmup + i);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(ev[2 * i + 1]));
    }
    if (gate) ((volatile int*)gate)[0] = 1; /* all queued: let the GPU run them back to back */
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

bench_result bench_run(bench_fn fn, void* ctx, int warmup, int reps, int kernels_per_rep) {
    return run_timed(fn, ctx, warmup, reps, kernels_per_rep, NULL);
}

bench_result bench_run_gated(bench_fn fn, void* ctx, int warmup, int reps, int kernels_per_rep) {
    if ((long)reps * (kernels_per_rep + 2) > 512)
        return bench_run(fn, ctx, warmup, reps, kernels_per_rep);
    int* gate; /* [0]: the host opens the gate; [1]: the gate gave up waiting */
    CUDA_CHECK(cudaHostAlloc(&gate, 2 * sizeof *gate, cudaHostAllocMapped));
    ((volatile int*)gate)[0] = ((volatile int*)gate)[1] = 0;
    const bench_result r = run_timed(fn, ctx, warmup, reps, kernels_per_rep, gate);
    static int warned;
    if (((volatile int*)gate)[1] && !warned++)
        printf("note: the benchmark's gate opened on its %.1f s time limit, not on the host's "
               "word (a profiler serializing launches does this): timings of short launches "
               "may include the host's launch rate\n",
               GATE_LIMIT_NS * 1e-9);
    CUDA_CHECK(cudaFreeHost(gate));
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
