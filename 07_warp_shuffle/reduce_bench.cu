/* Chapter 07's benchmark: every variant at every n, its inputs rotated past the L2, each result
 * held to the exact sum of its input; the table, the CSV, the summary (reduce_bench.h). */
#include "reduce_bench.h"
#include "host/check.h"
#include "host/csv.h"
#include "host/rng.h"

#include <stdio.h>
#include <string.h>

/* Element i of the benchmark's buffer: a hash of i, mapped to {-1, 0, 1}, so that every sum is
 * exact and each result can be held to the integer sum of its own slice. */
__global__ void fill_ternary(float* x, size_t n, unsigned long long seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        x[i] = (float)((int)(rng_at(seed, i) % 3) - 1);
    }
}

__global__ void exact_sum(const float* x, size_t n, long long* sum) {
    long long s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        s += (long long)x[i];
    atomicAdd((unsigned long long*)sum, (unsigned long long)s);
}

/* The exact integer sum of x: a grid-stride loop over two blocks per SM of this GPU. */
static long long device_exact_sum(const course_device* dev, const float* x, size_t n) {
    long long *d, h;
    CUDA_CHECK(cudaMalloc(&d, sizeof h));
    CUDA_CHECK(cudaMemset(d, 0, sizeof h));
    exact_sum<<<2 * dev->sm_count, 256>>>(x, n, d);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d));
    return h;
}

/* Whether the scan of x (n floats) ended wrong: its last element against the sum of its warp's
 * segment, computed on the host from the same input. */
static int scan_tail_wrong(const float* x, const float* y, size_t n) {
    if (!n) return 0;
    const size_t first = (n - 1) / 32 * 32, len = n - first;
    float seg[32], last;
    CUDA_CHECK(cudaMemcpy(seg, x + first, len * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&last, y + n - 1, sizeof last, cudaMemcpyDeviceToHost));
    float want = 0;
    for (size_t i = 0; i < len; ++i) want += seg[i];
    return !(last == want);
}

typedef struct {
    const reduce_variant* v;
    const reduce_workspace* ws;
    const float* base;
    size_t n, sets, stride, first; /* repetition r reads slice (first + r) % sets */
    float* out;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    const bench_ctx* b = (const bench_ctx*)p;
    const reduce_call c = {b->base + (b->first + (size_t)rep) % b->sets * b->stride, b->n, b->out,
                           b->ws};
    reduce_launch(b->v, &c);
}

enum { WARMUP = 2 };

/* Whether v is measured: never the counter-example; with --variant, that one and the baseline. */
static int measured(const course_args* a, const reduce_variant* v) {
    return !v->v.on_request && (!a->variant || !strcmp(v->v.name, a->variant) || v->v.baseline);
}

int reduce_bench(const char* program, const course_variants* t, const course_args* a,
                 const course_device* dev, const reduce_workspace* ws, reduce_measurement* m,
                 int max) {
    const size_t n_max = (size_t)a->size;
    /* One buffer of at least 3x the L2 (and n_max), sliced into `sets` inputs of n floats each,
     * 64-byte aligned. Every measurement goes on from the slice where the last one stopped, so
     * that no variant reads what the one before it left in the L2: a slice is read again only
     * after the rest of the buffer, 2x the L2 or more, has gone through. */
    const size_t floats = n_max > 3 * dev->l2_bytes / 4 ? n_max + 16 : 3 * dev->l2_bytes / 4 + 16;
    course_require_device_memory(program, (floats + n_max) * (double)sizeof(float),
                                 "the benchmark at this --size");
    float *base, *out, *scan_out; /* the sum; the scans' n outputs */
    CUDA_CHECK(cudaMalloc(&base, floats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&out, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&scan_out, n_max * sizeof(float) + 16));
    fill_ternary<<<1024, 256>>>(base, floats, a->seed);
    CUDA_CHECK_LAUNCH();
    printf("\nbenchmark: median of %ld repetitions after %d warm-ups, queued behind a gate so that "
           "the host's launch rate is not timed; inputs rotated over slices of one %.0f MiB buffer "
           "(at least 3x the L2); GB/s = bytes read (the scans: read + written) / time\n",
           a->reps, WARMUP, floats * 4.0 / (1 << 20));
    int n_m = 0;
    size_t cursor = 0; /* in floats: where the last measurement stopped */
    for (size_t n = n_max < 65536 ? n_max : 65536;; n = n * 2 < n_max ? n * 2 : n_max) {
        const size_t stride = (n + 15) / 16 * 16, sets = stride ? (floats - 16) / stride : 1;
        double cub_ms = 0;
        for (int i = 0; i < t->n; ++i) {
            const reduce_variant* v = (const reduce_variant*)course_variant_at(t, i);
            if (!measured(a, v)) continue;
            if (n_m == max) die("more than %d measurements", max);
            bench_ctx b = {v, ws, base, n, sets ? sets : 1, stride, 0, v->scan ? scan_out : out};
            b.first = stride ? (cursor + stride - 1) / stride % b.sets : 0;
            cursor = (b.first + WARMUP + (size_t)a->reps) % b.sets * stride;
            reduce_measurement* x = &m[n_m++];
            x->v = v;
            x->n = n;
            x->sets = b.sets;
            /* Poisoned, so that a variant that writes nothing cannot pass on the last one's sum. */
            CUDA_CHECK(cudaMemset(b.out, 0xff, v->scan ? n * sizeof(float) : sizeof(float)));
            /* CUB launches two kernels a repetition (one for n within a tile), which the gate's
             * queue must count; the CSV counts the course's kernels, the ones the ncu test
             * profiles. */
            x->t = bench_run_gated(bench_launch, &b, WARMUP, (int)a->reps,
                                   reduce_launches_per_call(v, n));
            if (!v->v.kernel) x->t.launches = 0;
            x->gbps = (v->scan ? 8.0 : 4.0) * n / (x->t.median_ms * 1e6);
            if (v->v.baseline) cub_ms = x->t.median_ms;
            x->of_cub = v->scan ? 0.0 : cub_ms / x->t.median_ms;
            /* Slices read again within the measurement, from the L2 (a buffer of 3x the L2 never
             * lets this happen; the column says so). */
            x->in_l2 = b.sets < WARMUP + (size_t)a->reps && b.sets * stride * 4 <= dev->l2_bytes;
            /* The last repetition's slice: its exact sum against the result (a scan: the last
             * element of its last warp against that warp's sum, on the host). */
            const size_t k = (b.first + WARMUP + (size_t)a->reps - 1) % b.sets;
            if (v->scan) {
                x->wrong = scan_tail_wrong(base + k * stride, scan_out, n);
            } else {
                float r;
                CUDA_CHECK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
                x->wrong = !(r == (float)device_exact_sum(dev, base + k * stride, n));
            }
        }
        if (n == n_max) break;
    }
    CUDA_CHECK(cudaFree(base));
    CUDA_CHECK(cudaFree(out));
    CUDA_CHECK(cudaFree(scan_out));
    return n_m;
}

void reduce_print_measurements(const reduce_measurement* m, int n) {
    printf("\n%-16s %11s %10s %10s %10s %8s %7s\n", "variant", "n", "median ms", "min ms", "max ms",
           "GB/s", "% CUB");
    for (int i = 0; i < n; ++i) {
        char share[16] = "      -"; /* a scan is not a sum: no share of CUB's */
        if (!m[i].v->scan) snprintf(share, sizeof share, "%6.1f%%", 100 * m[i].of_cub);
        printf("%-16s %11zu %10.4f %10.4f %10.4f %8.0f %s%s%s\n", m[i].v->v.name, m[i].n,
               m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].gbps, share,
               m[i].in_l2 ? "  (fits in L2)" : "", m[i].wrong ? "  WRONG SUM" : "");
    }
}

/* The CSV's columns, in the order plot.gp and the ncu test have always read them. */
static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0},
    {"type", CSV_TEXT, 0},
    {"kernel", CSV_INT, 0},
    {"n", CSV_INT, 0},
    {"sets", CSV_INT, 0},
    {"bytes_moved", CSV_REAL, 0},
    CSV_TIMING_COLUMNS,
    {"launches", CSV_INT, 0},
    {"gbps", CSV_REAL, 1},
    {"of_cub", CSV_REAL, 4},
    {"in_l2", CSV_INT, 0},
    {"model_st_wavefronts_per_request", CSV_REAL, 4},
    {"model_ld_wavefronts_per_request", CSV_REAL, 4},
};

void reduce_write_csv(const char* path, const course_device* dev, const char* command_line,
                      const reduce_measurement* m, int n) {
    csv_table t;
    csv_table_open(&t, path, dev, command_line, COLUMNS, sizeof COLUMNS / sizeof COLUMNS[0]);
    for (int i = 0; i < n; ++i) {
        const reduce_variant* v = m[i].v;
        double ld, st;
        reduce_variant_model(v, &ld, &st);
        csv_text(&t, "variant", v->v.name);
        csv_text(&t, "type", "float");
        csv_int(&t, "kernel", v->v.number);
        csv_int(&t, "n", (long long)m[i].n);
        csv_int(&t, "sets", (long long)m[i].sets);
        csv_real(&t, "bytes_moved", (v->scan ? 8.0 : 4.0) * m[i].n);
        csv_timing(&t, &m[i].t);
        csv_int(&t, "launches", m[i].t.launches);
        csv_real(&t, "gbps", m[i].gbps);
        csv_real(&t, "of_cub", m[i].of_cub);
        csv_int(&t, "in_l2", m[i].in_l2);
        csv_real(&t, "model_st_wavefronts_per_request", st);
        csv_real(&t, "model_ld_wavefronts_per_request", ld);
        csv_end_row(&t);
    }
    csv_table_close(&t);
    printf("wrote %s\n", path);
}

void reduce_print_summary(const course_device* dev, const course_variants* t,
                          const reduce_measurement* m, int n) {
    course_summary_header(dev, "07_warp_shuffle");
    printf("GB/s read and, in brackets, the share of CUB's speed at the same n, this run:\n\n"
           "| variant | 2^16 | 2^20 | 2^24 | 2^28 |\n| --- | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < t->n; ++i) {
        const reduce_variant* v = (const reduce_variant*)course_variant_at(t, i);
        if (v->v.on_request || v->scan) continue;
        printf("| %d %s |", v->v.number, v->v.name);
        for (int e = 16; e <= 28; e += 4) {
            const reduce_measurement* x = NULL;
            for (int j = 0; j < n; ++j)
                if (m[j].v == v && m[j].n == (size_t)1 << e) x = &m[j];
            if (x)
                printf(" %.0f (%.1f%%) |", x->gbps, 100 * x->of_cub);
            else
                printf(" - |");
        }
        printf("\n");
    }
}
