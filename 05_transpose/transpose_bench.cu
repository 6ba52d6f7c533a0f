/* Chapter 05's benchmark: every variant at every shape, float and double, its inputs rotated over
 * sets of matrices that together outgrow the L2 three times, its last output verified on the GPU
 * (the matrices reach 2 GiB, too large to draw and compare on the host). */
#include "transpose_program.h"
#include "host/bench.h"
#include "host/check.h"
#include "host/rng.h"

#include <stdio.h>
#include <string.h>

/* Device-side fill and verification. Both see an element as its bits (U: an unsigned integer of
 * its size); element i holds a hash of i and the seed. */
template <typename U>
__global__ void fill_hashed(U* p, size_t n, unsigned long long seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        p[i] = (U)rng_at(seed, i);
    }
}

/* Counts the elements of out that are not in's (transposed, or copied). */
template <typename U>
__global__ void count_wrong(const U* in, const U* out, int rows, int cols, int transposes,
                            unsigned long long* wrong) {
    const size_t n = (size_t)rows * cols;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        const size_t r = i / cols, c = i % cols;
        if (in[i] != out[transposes ? c * rows + r : i]) atomicAdd(wrong, 1ull);
    }
}

/* Input and output sets for one shape and type, rotated so that together they are at least
 * three times the L2: no repetition finds its matrices in cache (up to MAX_SETS sets). */
enum { MAX_SETS = 64 };
typedef struct {
    size_t sets, bytes;
    void* in[MAX_SETS];
    void* out[MAX_SETS];
} buffer_sets;

static void sets_alloc(buffer_sets* b, const course_device* dev, shape s, int type,
                       unsigned long long seed) {
    const size_t n = (size_t)s.rows * s.cols;
    b->bytes = n * ELEMENT_TYPES[type].bytes;
    b->sets = (3 * dev->l2_bytes + 2 * b->bytes - 1) / (2 * b->bytes);
    if (b->sets > MAX_SETS) b->sets = MAX_SETS;
    transpose_require_memory(s, &ELEMENT_TYPES[type], b->sets);
    for (size_t k = 0; k < b->sets; ++k) {
        CUDA_CHECK(cudaMalloc(&b->in[k], b->bytes));
        CUDA_CHECK(cudaMalloc(&b->out[k], b->bytes));
        if (type == FLOAT)
            fill_hashed<unsigned><<<1024, 256>>>((unsigned*)b->in[k], n, seed + k);
        else
            fill_hashed<unsigned long long>
                <<<1024, 256>>>((unsigned long long*)b->in[k], n, seed + k);
        CUDA_CHECK_LAUNCH();
    }
}

static void sets_free(buffer_sets* b) {
    for (size_t k = 0; k < b->sets; ++k) {
        CUDA_CHECK(cudaFree(b->in[k]));
        CUDA_CHECK(cudaFree(b->out[k]));
    }
}

static unsigned long long verify_set(const buffer_sets* b, size_t k, int type, shape s,
                                     int transposes) {
    unsigned long long *d_wrong, wrong;
    CUDA_CHECK(cudaMalloc(&d_wrong, sizeof *d_wrong));
    CUDA_CHECK(cudaMemset(d_wrong, 0, sizeof *d_wrong));
    if (type == FLOAT)
        count_wrong<unsigned><<<1024, 256>>>((const unsigned*)b->in[k], (const unsigned*)b->out[k],
                                             s.rows, s.cols, transposes, d_wrong);
    else
        count_wrong<unsigned long long><<<1024, 256>>>((const unsigned long long*)b->in[k],
                                                       (const unsigned long long*)b->out[k], s.rows,
                                                       s.cols, transposes, d_wrong);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_wrong));
    return wrong;
}

typedef struct {
    launch_fn launch;
    int rows, cols;
    const buffer_sets* b;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    const bench_ctx* c = (const bench_ctx*)p;
    const size_t k = (size_t)rep % c->b->sets;
    c->launch(c->b->in[k], c->b->out[k], c->rows, c->cols);
}

enum { WARMUP = 2 };

int transpose_bench_shapes(const course_args* a, shape* s, int* sweep) {
    if (a->shape_given) {
        s[0] = shape{(int)a->shape[0], (int)a->shape[1]};
        sweep[0] = 1;
        return 1;
    }
    const int N = (int)a->size, small = N / 16 > 0 ? N / 16 : 1;
    int n = 0;
    for (long d = small; d <= N; d *= 2) s[n++] = shape{(int)d, (int)d};
    if (s[n - 1].rows != N) s[n++] = shape{N, N};
    for (int i = 0; i < n; ++i) sweep[i] = s[i].rows == N || s[i].rows == N / 2;
    s[n] = shape{N, small};
    sweep[n++] = 0;
    s[n] = shape{small, N};
    sweep[n++] = 0;
    return n;
}

/* Whether variant x runs at a shape: the sweep's tiles at the sweep's shapes only; with
 * --variant, that one variant. The baseline always: every ratio needs it. */
static int measured_here(const transpose_variant* x, const course_args* a, int sweep_shape) {
    if (x->v.baseline) return 1;
    if (!course_variant_selected(a, &x->v)) return 0;
    return !x->sweep || sweep_shape;
}

int transpose_bench(const transpose_variant* v, int n, const course_args* a,
                    const course_device* dev, measurement* m) {
    shape s[16];
    int sweep[16], n_shapes = transpose_bench_shapes(a, s, sweep), n_m = 0;
    for (int i = 0; i < n; ++i)
        if (v[i].v.kernel) bench_warn_if_spilling(v[i].v.kernel, v[i].v.name);
    printf("\nbenchmark: median of %ld repetitions after %d warm-ups; inputs rotated over sets "
           "of 3x the L2 (%zu MiB) where %d sets reach it; GB/s = (bytes read + written) / time\n",
           a->reps, WARMUP, dev->l2_bytes >> 20, MAX_SETS);
    for (int t = 0; t < N_TYPES; ++t)
        for (int k = 0; k < n_shapes; ++k) {
            buffer_sets b;
            sets_alloc(&b, dev, s[k], t, a->seed);
            double memcpy_ms = 0;
            for (int i = 0; i < n; ++i) {
                const transpose_build* build = &v[i].of_type[t];
                if (!build->launch || !measured_here(&v[i], a, sweep[k])) continue;
                bench_ctx c = {build->launch, s[k].rows, s[k].cols, &b};
                for (size_t j = 0; j < b.sets; ++j)
                    CUDA_CHECK(cudaMemset(b.out[j], POISON_BYTE, b.bytes));
                measurement* x = &m[n_m++];
                x->v = &v[i];
                x->type = t;
                x->rows = s[k].rows;
                x->cols = s[k].cols;
                x->t = bench_run(bench_launch, &c, WARMUP, (int)a->reps, build->kernel ? 1 : 0);
                x->gbps = 2.0 * b.bytes / (x->t.median_ms * 1e6);
                if (!strcmp(v[i].v.name, "memcpy")) memcpy_ms = x->t.median_ms;
                x->of_memcpy = memcpy_ms / x->t.median_ms;
                x->in_l2 = 2 * b.sets * b.bytes < 3 * dev->l2_bytes;
                x->wrong = verify_set(&b, (size_t)(WARMUP + a->reps - 1) % b.sets, t, s[k],
                                      v[i].transposes);
            }
            sets_free(&b);
        }
    return n_m;
}
