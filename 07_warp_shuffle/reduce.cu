/* Chapter 07: reductions, from shared-memory trees to warp shuffles.
 *
 * The sum of n floats, any n >= 0. cub::DeviceReduce::Sum is the baseline, timed in the same run;
 * the kernels (reduce_kernels.cuh) go from the classic shared-memory trees (divergent, strided:
 * bank conflicts, sequential) through a first add and a last warp synchronised with __syncwarp to
 * shuffles, and a one-pass kernel with float4 loads. A warp scan shows shuffles replacing shared
 * memory outside reductions.
 *
 * File layout: variants (with CUB), lesson tables, check, benchmark, summary, main. */
#include "reduce.h"
#include "reduce_kernels.cuh"
#include "host/bench.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/csv.h"
#include "host/device.h"
#include "host/rng.h"

#include <cub/device/device_reduce.cuh>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const course_cli CLI = {
    "07_warp_shuffle",
    "Sum reduction of n floats: CUB as the baseline; shared-memory trees (divergent, strided,\n"
    "sequential), first add, last warp, warp shuffles, one pass with float4 loads; a warp scan.",
    "the benchmark's largest n (2^16 .. n, doubling); with --check, the one n\n"
    "                  checked (0: the sum of nothing)",
    1 << 28,
    20,
    1L << 30,
    0, /* no --shape */
    0,
    1, /* --size 0 is valid */
    {NULL} /* no side files beside --csv */};

/* ---------------------------------------------------------------- variants */

typedef struct {
    const float* x;
    size_t n;
    float* out; /* one float */
} reduce_call;

/* What every variant may use, allocated once for the largest n (the kernels' partial sums, the
 * one-pass kernel's counter, CUB's temporary storage). */
static struct {
    float* partial[2];
    unsigned* arrived;
    void* cub_temp;
    size_t cub_temp_bytes;
    int one_pass_blocks;
} ws;

typedef void (*launch_fn)(const reduce_call*);
typedef void (*pass_kernel)(const float*, size_t, float*);

typedef struct {
    const char* name;
    int number; /* 0: CUB; -1: the counter-example */
    const char* adds;
    launch_fn launch;
    pass_kernel kernel; /* kernels 1-6: one pass; NULL otherwise */
    const void* attr;   /* the kernel whose resources the tables show */
    int per_block;      /* elements one block of a pass reduces */
    int tree;           /* -1, or the reduce_tree of kernels 1-3 */
    int scan;           /* 1: a warp scan (beyond reductions): x -> out[n], its own check */
    double model_ld, model_st;
} variant;

/* Kernels 1-6: pass after pass until one value is left; the last pass writes to out. */
static int passes_for(size_t n, int per_block) {
    int p = 0;
    do {
        n = n > 0 ? (n + per_block - 1) / per_block : 1;
        ++p;
    } while (n > 1);
    return p;
}

static void launch_passes(const reduce_call* c, pass_kernel k, int per_block) {
    const float* in = c->x;
    size_t m = c->n;
    int buf = 0;
    for (;;) {
        const size_t blocks = m > 0 ? (m + per_block - 1) / per_block : 1;
        float* dst = blocks == 1 ? c->out : ws.partial[buf];
        k<<<(unsigned)blocks, RT>>>(in, m, dst);
        if (blocks == 1) return;
        in = dst;
        m = blocks;
        buf ^= 1;
    }
}

#define PASS_LAUNCHER(name, kernel, per_block)                                                     \
    static void name(const reduce_call* c) {                                                       \
        launch_passes(c, kernel, per_block);                                                       \
    }
PASS_LAUNCHER(launch_divergent, reduce_divergent, RT)
PASS_LAUNCHER(launch_strided, reduce_strided, RT)
PASS_LAUNCHER(launch_sequential, reduce_sequential, RT)
PASS_LAUNCHER(launch_first_add, reduce_first_add, 2 * RT)
PASS_LAUNCHER(launch_last_warp, reduce_last_warp, 2 * RT)
PASS_LAUNCHER(launch_warp_volatile, reduce_warp_volatile, 2 * RT)
PASS_LAUNCHER(launch_shuffle, reduce_shuffle, 2 * RT)
PASS_LAUNCHER(launch_butterfly, reduce_butterfly, 2 * RT)

/* Kernel 7's configuration: 256 threads, 4 float4 loads in flight per thread. */
enum { ONE_PASS_NT = 256, ONE_PASS_UNROLL = 4 };
#define ONE_PASS reduce_one_pass<ONE_PASS_NT, ONE_PASS_UNROLL>

/* Its grid: a block per NT * UNROLL float4s, so that every thread has its UNROLL loads in flight
 * at once, up to as many blocks as fit on the GPU together (ws.one_pass_blocks). A full grid at
 * every n would cost small inputs hundreds of idle blocks, each an atomic on the counter, and a
 * last block that adds hundreds of partials. */
static unsigned one_pass_grid(size_t n) {
    const size_t per_block = (size_t)ONE_PASS_NT * ONE_PASS_UNROLL * 4;
    const size_t want = n > 0 ? (n + per_block - 1) / per_block : 1;
    return want < (size_t)ws.one_pass_blocks ? (unsigned)want : (unsigned)ws.one_pass_blocks;
}

static void launch_one_pass(const reduce_call* c) {
    ONE_PASS<<<one_pass_grid(c->n), ONE_PASS_NT>>>(c->x, c->n, ws.partial[0], ws.arrived, c->out);
}

/* The scans write n floats: c->out must hold n (the benchmark gives them a buffer of their own). */
static void launch_scan_smem(const reduce_call* c) {
    if (c->n) scan_warp_smem<<<(unsigned)((c->n + RT - 1) / RT), RT>>>(c->x, c->n, c->out);
}
static void launch_scan_shuffle(const reduce_call* c) {
    if (c->n) scan_warp_shuffle<<<(unsigned)((c->n + RT - 1) / RT), RT>>>(c->x, c->n, c->out);
}

static void launch_cub(const reduce_call* c) {
    size_t bytes = ws.cub_temp_bytes;
    CUDA_CHECK(cub::DeviceReduce::Sum(ws.cub_temp, bytes, c->x, c->out, (long long)c->n));
}

enum { N_VARIANTS = 12 };

static int all_variants(variant* v) {
    int n = 0;
    const variant list[N_VARIANTS] = {
        {"cub", 0, "cub::DeviceReduce::Sum (the toolkit's CUB): the baseline", launch_cub, NULL,
         NULL, 0, -1, 0, -1, -1},
        {"divergent", 1, "shared-memory tree, threads 0, 2s, 4s, ... work: divergent warps",
         launch_divergent, reduce_divergent, (const void*)reduce_divergent, RT, TREE_DIVERGENT, 0,
         0, 0},
        {"strided", 2, "the work packed into the first threads at index 2 s t: bank conflicts",
         launch_strided, reduce_strided, (const void*)reduce_strided, RT, TREE_STRIDED, 0, 0, 0},
        {"sequential", 3, "halving strides, consecutive words: conflict-free", launch_sequential,
         reduce_sequential, (const void*)reduce_sequential, RT, TREE_SEQUENTIAL, 0, 0, 0},
        {"first_add", 4, "each thread adds two elements while loading", launch_first_add,
         reduce_first_add, (const void*)reduce_first_add, 2 * RT, TREE_SEQUENTIAL, 0, 0, 0},
        {"last_warp", 5, "the last 6 steps in one warp, with __syncwarp() between them",
         launch_last_warp, reduce_last_warp, (const void*)reduce_last_warp, 2 * RT, TREE_LAST_WARP,
         0, 0, 0},
        {"shuffle", 6, "__shfl_down_sync in each warp, 32 floats of shared memory (exercise)",
         launch_shuffle, reduce_shuffle, (const void*)reduce_shuffle, 2 * RT, -1, 0, 0, 0},
        {"butterfly", 6, "kernel 6 with __shfl_xor_sync: every lane gets the warp's sum",
         launch_butterfly, reduce_butterfly, (const void*)reduce_butterfly, 2 * RT, -1, 0, 0, 0},
        {"one_pass", 7, "float4 loads, 4 in flight, grid-stride, last block adds: one launch",
         launch_one_pass, NULL, (const void*)ONE_PASS, 0, -1, 0, 0, 0},
        {"warp_volatile", -1, "COUNTER-EXAMPLE: kernel 5 ending on volatile alone (no __syncwarp)",
         launch_warp_volatile, reduce_warp_volatile, (const void*)reduce_warp_volatile, 2 * RT, -1,
         0, 0, 0},
        {"scan_smem", 9, "beyond reductions: each warp's prefix sums through shared memory",
         launch_scan_smem, NULL, (const void*)scan_warp_smem, 0, -1, 1, 0, 0},
        {"scan_shuffle", 9, "the same with __shfl_up_sync: no shared memory", launch_scan_shuffle,
         NULL, (const void*)scan_warp_shuffle, 0, -1, 1, 0, 0},
    };
    for (int i = 0; i < N_VARIANTS; ++i) v[n++] = list[i];
    return n;
}

/* The model's averages for the CSV (and the ncu test): the trees of kernels 1-5 (reduce_model.c);
 * kernels 6 and 7 store a warp's sum from one lane and read them back in one warp, and the shared
 * scan reads and writes consecutive words: one wavefront each. Kernels 6 and 7 reach their 32
 * floats inside the exercise's functions, compiled apart (solution.cu), through a generic pointer
 * (LD/ST in the SASS, not LDS/STS): ncu counts a generic access that lands in shared memory as a
 * shared one (measured on the H200), so they are predicted like the rest. */
static void set_models(variant* v, int n) {
    tree_step steps[MAX_TREE_STEPS];
    for (int i = 0; i < n; ++i) {
        variant* x = &v[i];
        x->model_ld = x->model_st = 1.0;
        if (!x->attr || x->number < 0 || !strcmp(x->name, "scan_shuffle")) {
            x->model_ld = x->model_st = -1; /* CUB, the counter-example, the shuffle scan */
        } else if (x->tree >= 0 && reduce_tree_model((reduce_tree)x->tree, RT, steps, &x->model_ld,
                                                     &x->model_st) < 0) {
            die("%s: a shared access is malformed", x->name);
        }
    }
}

/* ---------------------------------------------------------------- lesson tables */

static void print_variants(const variant* v, int n) {
    printf("The variants (--variant NAME picks one; --list shows them all):\n");
    for (int i = 0; i < n; ++i) printf("  %2d %-14s %s\n", v[i].number, v[i].name, v[i].adds);
    printf("  warp_volatile runs only when named: --variant warp_volatile --check\n");
}

static void print_tree_tables(void) {
    static const char* const names[] = {"1 divergent", "2 strided", "3 sequential"};
    printf("\nThe trees of kernels 1-3, block of %d floats: shared-memory wavefronts per request\n"
           "at each step, by the bank model (1 is conflict-free):\n",
           RT);
    for (int t = 0; t < 3; ++t) {
        tree_step steps[MAX_TREE_STEPS];
        double ld, st;
        const int n = reduce_tree_model((reduce_tree)t, RT, steps, &ld, &st);
        if (n < 0) die("tree model failed");
        char label[32];
        snprintf(label, sizeof label, "kernel %s", names[t]);
        printf("  %-20s %7s", label, "stride:");
        for (int k = 0; k < n; ++k) printf(" %4d", steps[k].stride);
        printf("\n  %-20s %7s", "", "warps:");
        for (int k = 0; k < n; ++k) printf(" %4d", steps[k].warps);
        printf("\n  %-20s %7s", "", "loads:");
        for (int k = 0; k < n; ++k) printf(" %4.1f", steps[k].ld);
        printf("   (kernel: %.2f)", ld);
        printf("\n  %-20s %7s", "", "stores:");
        for (int k = 0; k < n; ++k) printf(" %4.1f", steps[k].st);
        printf("   (kernel: %.2f)\n", st);
    }
    double wf;
    int req;
    reduce_scan_model(&wf, &req);
    printf("(kernel: per request over the whole kernel, what ncu divides; a warp whose lanes\n"
           "all sit a step out makes no request.)\n");
    printf("A warp's scan of 32 floats through shared memory: %d requests of %.0f wavefront; "
           "with __shfl_up_sync: none.\n",
           req, wf);
}

static void print_resources(const variant* v, int n) {
    printf("\nResources (cudaFuncGetAttributes, occupancy API):\n");
    printf("  %-14s %9s %9s %11s %13s\n", "kernel", "threads", "registers", "smem bytes",
           "blocks per SM");
    for (int i = 0; i < n; ++i) {
        if (!v[i].attr) continue;
        cudaFuncAttributes a;
        CUDA_CHECK(cudaFuncGetAttributes(&a, v[i].attr));
        const int threads = v[i].attr == (const void*)ONE_PASS ? (int)ONE_PASS_NT : (int)RT;
        int blocks;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, v[i].attr, threads, 0));
        printf("  %-14s %9d %9d %11zu %13d\n", v[i].name, threads, a.numRegs, a.sharedSizeBytes,
               blocks);
    }
}

/* ---------------------------------------------------------------- the check */

/* Integer-valued inputs in {-1, 0, 1}, drawn at random: every variant adds fixed, data-independent
 * sets of elements, so each partial sum is a random walk of at most n steps, of typical size
 * sqrt(2n / 3) (13,400 at 2^28): reaching 2^24, where float stops holding every integer, would
 * be a 1000-sigma event. The sum must come out exact. */
static void fill_integers(float* x, size_t n, unsigned long long* seed, long long* sum) {
    long long s = 0;
    for (size_t i = 0; i < n; ++i) {
        const int v = (int)rng_below(seed, 3) - 1;
        x[i] = (float)v;
        s += v;
    }
    *sum = s;
}

/* Random floats in [0, 1), their sum in double. */
static double fill_uniform(float* x, size_t n, unsigned long long* seed) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) {
        x[i] = (float)(rng_u32(seed) / 4294967296.0);
        s += x[i];
    }
    return s;
}

/* Tolerance for random inputs (all positive: sum |x| = the sum): a float sum whose longest chain
 * of dependent additions is k errs by at most about k FLT_EPSILON / 2 of the sum. The longest
 * chain is the one-pass kernel's: each of its T threads (at this n) adds one float4 a step,
 * ceil(n / 4T) steps, each float4 a pair tree of 2, at most one element of the tail, then trees
 * of log2 of the rest. Kernels 1-6 add a tree per pass; CUB is held to the same bound. */
static double tolerance(size_t n) {
    const double threads = (double)one_pass_grid(n) * ONE_PASS_NT;
    const double serial = ceil((double)n / (4.0 * threads)) + 3.0;
    return FLT_EPSILON * (serial + log2((double)n + 2.0) + 2.0);
}

/* The result of one run of v on d_x, the output poisoned with NaN first. */
static float run_once(const variant* v, const float* d_x, size_t n, float* d_out) {
    CUDA_CHECK(cudaMemset(d_out, 0xff, sizeof(float)));
    const reduce_call c = {d_x, n, d_out};
    v->launch(&c);
    CUDA_CHECK_LAUNCH();
    float r;
    CUDA_CHECK(cudaMemcpy(&r, d_out, sizeof r, cudaMemcpyDeviceToHost));
    return r;
}

static int check_size(const variant* v, int nv, size_t n, unsigned long long* seed) {
    float* h = (float*)malloc(n * sizeof(float) + 4);
    if (!h) die("out of host memory for n = %zu", n);
    float *d_x, *d_out;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float) + 16));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    int failed = 0;
    long long exact;
    fill_integers(h, n, seed, &exact);
    CUDA_CHECK(cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int i = 0; i < nv; ++i) {
        if (v[i].scan) continue;
        const float r = run_once(&v[i], d_x, n, d_out);
        if (!(r == (float)exact)) {
            printf("  %s, n = %zu, integers: %.9g, expected exactly %lld\n", v[i].name, n, r,
                   exact);
            failed = 1;
        }
    }
    if (n <= (1u << 24)) { /* all ones: exact, and any element lost or counted twice shows */
        for (size_t i = 0; i < n; ++i) h[i] = 1.0f;
        CUDA_CHECK(cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice));
        for (int i = 0; i < nv; ++i) {
            if (v[i].scan) continue;
            const float r = run_once(&v[i], d_x, n, d_out);
            if (!(r == (float)n)) {
                printf("  %s, n = %zu, all ones: %.9g\n", v[i].name, n, r);
                failed = 1;
            }
        }
    }
    const double ref = fill_uniform(h, n, seed), tol = tolerance(n) * ref;
    CUDA_CHECK(cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int i = 0; i < nv; ++i) {
        if (v[i].scan) continue;
        const float r = run_once(&v[i], d_x, n, d_out);
        if (!(fabs(r - ref) <= tol)) {
            printf("  %s, n = %zu, random: %.9g, double reference %.9g (tolerance %.3g)\n",
                   v[i].name, n, r, ref, tol);
            failed = 1;
        }
    }
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_out));
    free(h);
    return failed;
}

/* A scan variant: each warp's prefix sums of integer-valued inputs, exact, output poisoned. */
static int check_scan(const variant* v, size_t n, unsigned long long* seed) {
    float *h = (float*)malloc(n * sizeof(float) + 4), *got = (float*)malloc(n * sizeof(float) + 4);
    if (!h || !got) die("out of host memory");
    long long unused;
    fill_integers(h, n, seed, &unused);
    float *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float) + 16));
    CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float) + 16));
    CUDA_CHECK(cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_y, 0xff, n * sizeof(float) + 16));
    const reduce_call c = {d_x, n, d_y};
    v->launch(&c);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(got, d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    int failed = 0;
    float run = 0;
    for (size_t i = 0; i < n && !failed; ++i) {
        run = i % 32 ? run + h[i] : h[i];
        if (!(got[i] == run)) {
            printf("  %s, n = %zu: element %zu is %g, expected %g\n", v->name, n, i, got[i], run);
            failed = 1;
        }
    }
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    free(h);
    free(got);
    return failed;
}

static int run_check(const variant* v, int nv, const course_args* a) {
    unsigned long long seed = a->seed;
    size_t sizes[16] = {0, 1, 31, 32, 33, 1023, 1025, 1000003, (size_t)1 << 28};
    int n_sizes = 9;
    if (a->size_given) { /* --size N: that one size (0 included) */
        sizes[0] = (size_t)a->size;
        n_sizes = 1;
    }
    printf("check: --seed %llu; integer-valued inputs and all ones up to 2^24 (exact sums), random "
           "floats against a double sum with the tolerance (ceil(n / 4T) + 3 + log2(n + 2) + 2) "
           "FLT_EPSILON of the sum, T: kernel 7's threads at that n (at most %lld); output "
           "poisoned with NaN\n",
           a->seed, (long long)ws.one_pass_blocks * ONE_PASS_NT);
    int failed = 0;
    for (int i = 0; i < n_sizes; ++i) {
        char what[64];
        snprintf(what, sizeof what, "--check at n = %zu", sizes[i]);
        course_require_device_memory(CLI.program, sizes[i] * (double)sizeof(float), what);
        failed |= check_size(v, nv, sizes[i], &seed);
        for (int k = 0; k < nv; ++k)
            if (v[k].scan && sizes[i] <= 1000003) failed |= check_scan(&v[k], sizes[i], &seed);
    }
    printf("check: %s (%d sizes x %d variants, integers and random floats; the scans up to "
           "1000003)\n",
           failed ? "FAILED (reproduce with the --seed above)" : "every sum right", n_sizes, nv);
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* ---------------------------------------------------------------- the benchmark */

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
    const variant* v;
    size_t n, sets;
    bench_result t;
    double gbps, of_cub;
    int wrong, in_l2;
} measurement;

typedef struct {
    const variant* v;
    const float* base;
    size_t n, sets, stride, first; /* repetition r reads slice (first + r) % sets */
    float* out;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    const bench_ctx* b = (const bench_ctx*)p;
    const reduce_call c = {b->base + (b->first + (size_t)rep) % b->sets * b->stride, b->n, b->out};
    b->v->launch(&c);
}

enum { WARMUP = 2 };

static int run_bench(const variant* v, int nv, const course_args* a, const course_device* dev,
                     measurement* m) {
    const size_t n_max = (size_t)a->size;
    /* One buffer of at least 3x the L2 (and n_max), sliced into `sets` inputs of n floats each,
     * 64-byte aligned. Every measurement goes on from the slice where the last one stopped, so
     * that no variant reads what the one before it left in the L2: a slice is read again only
     * after the rest of the buffer, 2x the L2 or more, has gone through. */
    const size_t floats = n_max > 3 * dev->l2_bytes / 4 ? n_max + 16 : 3 * dev->l2_bytes / 4 + 16;
    course_require_device_memory(CLI.program, (floats + n_max) * (double)sizeof(float),
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
        for (int i = 0; i < nv; ++i) {
            if (v[i].number < 0) continue; /* the counter-example is never a result */
            if (a->variant && strcmp(v[i].name, a->variant) && v[i].number != 0) continue;
            bench_ctx b = {&v[i], base, n, sets ? sets : 1, stride, 0, v[i].scan ? scan_out : out};
            b.first = stride ? (cursor + stride - 1) / stride % b.sets : 0;
            cursor = (b.first + WARMUP + (size_t)a->reps) % b.sets * stride;
            measurement* x = &m[n_m++];
            x->v = &v[i];
            x->n = n;
            x->sets = b.sets;
            /* Poisoned, so that a variant that writes nothing cannot pass on the last one's sum. */
            CUDA_CHECK(cudaMemset(b.out, 0xff, v[i].scan ? n * sizeof(float) : sizeof(float)));
            /* CUB launches two kernels a repetition (one for n within a tile), which the gate's
             * queue must count; the CSV counts the course's kernels, the ones the ncu test
             * profiles. */
            const int per_rep = v[i].kernel ? passes_for(n, v[i].per_block) : v[i].attr ? 1 : 2;
            x->t = bench_run_gated(bench_launch, &b, WARMUP, (int)a->reps, per_rep);
            if (!v[i].attr) x->t.launches = 0;
            x->gbps = (v[i].scan ? 8.0 : 4.0) * n / (x->t.median_ms * 1e6);
            if (v[i].number == 0) cub_ms = x->t.median_ms;
            x->of_cub = v[i].scan ? 0.0 : cub_ms / x->t.median_ms;
            /* Slices read again within the measurement, from the L2 (a buffer of 3x the L2 never
             * lets this happen; the column says so). */
            x->in_l2 = b.sets < WARMUP + (size_t)a->reps && b.sets * stride * 4 <= dev->l2_bytes;
            /* The last repetition's slice: its exact sum against the result (a scan: the last
             * element of its last warp against that warp's sum, on the host). */
            const size_t k = (b.first + WARMUP + (size_t)a->reps - 1) % b.sets;
            if (v[i].scan) {
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

static void print_measurements(const measurement* m, int n) {
    printf("\n%-14s %11s %10s %10s %10s %8s %7s\n", "variant", "n", "median ms", "min ms", "max ms",
           "GB/s", "% CUB");
    for (int i = 0; i < n; ++i) {
        char share[16] = "      -"; /* a scan is not a sum: no share of CUB's */
        if (!m[i].v->scan) snprintf(share, sizeof share, "%6.1f%%", 100 * m[i].of_cub);
        printf("%-14s %11zu %10.4f %10.4f %10.4f %8.0f %s%s%s\n", m[i].v->name, m[i].n,
               m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].gbps, share,
               m[i].in_l2 ? "  (fits in L2)" : "", m[i].wrong ? "  WRONG SUM" : "");
    }
}

static void write_csv(const char* path, const course_device* dev, const char* cmd,
                      const measurement* m, int n) {
    FILE* f = csv_open(path, dev, cmd,
                       "variant,type,kernel,n,sets,bytes_moved,median_ms,min_ms,max_ms,reps,"
                       "launches,gbps,of_cub,in_l2,model_st_wavefronts_per_request,"
                       "model_ld_wavefronts_per_request");
    for (int i = 0; i < n; ++i) {
        const variant* v = m[i].v;
        fprintf(f, "%s,float,%d,%zu,%zu,%.0f,%.6f,%.6f,%.6f,%d,%d,%.1f,%.4f,%d,%.4f,%.4f\n",
                csv_field(v->name), v->number, m[i].n, m[i].sets, (v->scan ? 8.0 : 4.0) * m[i].n,
                m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].t.reps, m[i].t.launches,
                m[i].gbps, m[i].of_cub, m[i].in_l2, v->attr ? v->model_st : -1.0,
                v->attr ? v->model_ld : -1.0);
    }
    csv_close(f, path);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- summary */

static void print_summary(const course_device* dev, const variant* v, int nv, const measurement* m,
                          int n) {
    course_summary_header(dev, "07_warp_shuffle");
    printf("GB/s read and, in brackets, the share of CUB's speed at the same n, this run:\n\n"
           "| variant | 2^16 | 2^20 | 2^24 | 2^28 |\n| --- | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < nv; ++i) {
        if (v[i].number < 0 || v[i].scan) continue;
        printf("| %d %s |", v[i].number, v[i].name);
        for (int e = 16; e <= 28; e += 4) {
            const measurement* x = NULL;
            for (int j = 0; j < n; ++j)
                if (m[j].v == &v[i] && m[j].n == (size_t)1 << e) x = &m[j];
            if (x)
                printf(" %.0f (%.1f%%) |", x->gbps, 100 * x->of_cub);
            else
                printf(" - |");
        }
        printf("\n");
    }
}

/* ---------------------------------------------------------------- main */

static void describe_variant(const void* variants, int i, const char** name, const void** kernel,
                             course_needs* need) {
    const variant* v = (const variant*)variants + i;
    *name = v->name;
    *kernel = v->attr;
    need->threads = v->attr == (const void*)ONE_PASS ? (int)ONE_PASS_NT : (int)RT;
}

/* The chapter's own kernels that run: all but CUB. */
static int own_kernels(const variant* v, int n, const int* runs) {
    int own = 0;
    for (int i = 0; i < n; ++i) own += runs[i] && v[i].attr;
    return own;
}

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    static variant v[N_VARIANTS], sel[N_VARIANTS];
    int nv = all_variants(v);
    set_models(v, nv);
    int n_sel = 0;
    for (int i = 0; i < nv; ++i) n_sel += !args.variant || !strcmp(v[i].name, args.variant);
    if (!n_sel) return course_usage_error(&CLI, "no variant '%s' (see --list)", args.variant);
    static int runs[N_VARIANTS];
    course_target target;
    if (args.list) {
        for (int i = 0; i < nv; ++i) printf("%2d %-14s %s\n", v[i].number, v[i].name, v[i].adds);
        if (course_target_of_table(args.gpu, &target)) {
            course_judge(&target, v, nv, describe_variant, runs);
            course_chapter_verdict(&target, own_kernels(v, nv, runs), NULL, 1);
        }
        return EXIT_OK;
    }
    const int lesson = !args.check && !args.bench;
    if (lesson) {
        print_variants(v, nv);
        print_tree_tables();
    }
    course_device dev;
    rc = course_device_open(&dev, 7, 5, "the reduction kernels");
    if (rc != EXIT_OK) return rc;
    course_device_print(&dev);
    course_target_of_device(&dev, &target);
    course_judge(&target, v, nv, describe_variant, runs);
    const int own = own_kernels(v, nv, runs);
    nv = course_keep(v, sizeof v[0], nv, runs);
    n_sel = 0;
    for (int i = 0; i < nv; ++i) /* the counter-example only when named */
        if (args.variant ? !strcmp(v[i].name, args.variant) : v[i].number >= 0) sel[n_sel++] = v[i];
    rc = course_chapter_verdict(&target, own, args.variant, n_sel > 0);
    if (rc != EXIT_OK) return rc;

    /* The workspace for the largest n any run here uses. */
    const size_t n_max =
        args.size_given || args.bench || lesson ? (size_t)args.size : (size_t)1 << 28;
    int per_sm;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ONE_PASS, ONE_PASS_NT, 0));
    ws.one_pass_blocks = per_sm * dev.sm_count;
    const size_t partials = (n_max + RT - 1) / RT + (size_t)ws.one_pass_blocks + 1;
    CUDA_CHECK(cudaMalloc(&ws.partial[0], partials * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ws.partial[1], partials * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ws.arrived, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(ws.arrived, 0, sizeof(unsigned)));
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, ws.cub_temp_bytes, (const float*)NULL, (float*)NULL,
                                      (long long)n_max));
    CUDA_CHECK(cudaMalloc(&ws.cub_temp, ws.cub_temp_bytes + 16));
    if (lesson || args.bench) print_resources(v, nv);

    if (args.check || lesson) {
        rc = run_check(sel, n_sel, &args);
        if (rc != EXIT_OK || args.check) return rc;
    }
    static measurement m[512];
    const int n_m = run_bench(v, nv, &args, &dev, m);
    print_measurements(m, n_m);
    int bad = 0;
    for (int i = 0; i < n_m; ++i) bad |= m[i].wrong;
    if (args.csv) write_csv(args.csv, &dev, args.command_line, m, n_m);
    if (lesson) print_summary(&dev, v, nv, m, n_m);
    if (bad) printf("benchmark: some sums were WRONG (see above)\n");
    return bad ? EXIT_CHECK_FAILED : EXIT_OK;
}
