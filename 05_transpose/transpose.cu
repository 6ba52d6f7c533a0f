/* Chapter 05: matrix transpose, from naive to copy speed, on any shape.
 *
 * The kernels (transpose_kernels.cuh) side by side, float and double: cudaMemcpy and a copy
 * kernel as ceilings, two naive transposes, the 32 x 32 shared tile in chapter 02/03's three
 * layouts, and the vector tile (16-byte accesses, register transposes, Swizzle<B,M,S>), whose
 * tile shape and block size come from the sweep this program measures.
 *
 * File layout: variants, model and lesson tables, check, benchmark, summary, main. */
#include "transpose.h"
#include "transpose_kernels.cuh"
#include "host/bench.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/csv.h"
#include "host/device.h"
#include "host/rng.h"
#include "model/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

static const course_cli CLI = {
    "05_transpose",
    "Matrix transpose, float and double: cudaMemcpy and a copy kernel as ceilings, naive,\n"
    "32x32 shared tiles plain / padded / XOR, and a vectorised swizzled tile; any shape.",
    "the benchmark's largest square, N x N (also N/2 .. N/16, N x N/16 and N/16 x N;\n"
    "                  the tile sweep at N/2 and N)",
    16384,
    20,
    32768,
    2, /* --shape RxC */
    1 << 20,
    0, /* --size from 1 */
    {NULL} /* no side files beside --csv */};

enum { FLOAT, DOUBLE, N_TYPES };
static const char* const TYPE_NAME[N_TYPES] = {"float", "double"};
static const size_t TYPE_BYTES[N_TYPES] = {4, 8};

/* ---------------------------------------------------------------- variants */

typedef void (*launch_fn)(const void* in, void* out, int rows, int cols);

typedef struct {
    const char* name;
    const char* adds; /* what the variant adds over the ones before it */
    int transposes;   /* 0: out = in (memcpy, the copy kernel) */
    int sweep;        /* 1: a tile configuration of the sweep, measured at the sweep's shapes */
    int tile_rows, tile_cols, threads;
    launch_fn launch[N_TYPES]; /* NULL: not built for that type (the tile exceeds 48 KiB) */
    const void* kernel[N_TYPES];
    int modelled;
    smem_cost model[N_TYPES];
} variant;

template <typename T>
static void launch_memcpy(const void* in, void* out, int rows, int cols) {
    CUDA_CHECK(cudaMemcpyAsync(out, in, (size_t)rows * cols * sizeof(T), cudaMemcpyDeviceToDevice));
}

template <typename T, void (*K)(const T*, T*, int, int)>
static void launch_t32(const void* in, void* out, int rows, int cols) {
    K<<<tile_grid(READ_ORDER, rows, cols, T32, T32), dim3(T32, T32_ROWS_PER_PASS)>>>(
        (const T*)in, (T*)out, rows, cols);
}

template <typename T, int TR, int TC, int NT, typename Slot, block_order ORDER>
static void launch_vec(const void* in, void* out, int rows, int cols) {
    transpose_vec<T, TR, TC, NT, Slot, ORDER>
        <<<tile_grid(ORDER, rows, cols, TR, TC), NT>>>((const T*)in, (T*)out, rows, cols);
}

template <typename T, int TR, int TC, int NT>
static void launch_copy(const void* in, void* out, int rows, int cols) {
    copy_tile_vec<T, TR, TC, NT>
        <<<tile_grid(READ_ORDER, rows, cols, TR, TC), NT>>>((const T*)in, (T*)out, rows, cols);
}

template <layout_kind L>
static unsigned t32_slot(unsigned row, unsigned col) {
    return layout_index(row, col, L);
}

template <typename Slot>
static unsigned host_slot(unsigned row, unsigned col) {
    return Slot()(row, col);
}

/* Whether kernel 7 builds for T at this tile: whole micro-blocks per thread, 48 KiB. */
template <typename T, int TR, int TC, int NT>
constexpr bool vec_fits() {
    constexpr int V = 16 / sizeof(T);
    return TR / V >= 8 && (TR / V) * (TC / V) % NT == 0 && (TR / V) * (TC / V) >= NT &&
           TR * TC * sizeof(T) <= 48 * 1024;
}

/* How a kernel-7 variant is built: COPY is kernel 1 at the same tile; UNSWIZZLED drops the
 * swizzle; READ_ORDERED runs the blocks in read order (tile_grid). */
enum { COPY = 1, UNSWIZZLED = 2, READ_ORDERED = 4 };

/* Kernel 7 (or 1) for T, if the tile fits. */
template <typename T, int TR, int TC, int NT, int F>
static void set_vec(variant* v, int t) {
    if constexpr (vec_fits<T, TR, TC, NT>()) {
        typedef
            typename std::conditional<F & UNSWIZZLED, vec_unswizzled<TR>, vec_swizzle<T, TR>>::type
                Slot;
        constexpr block_order order = F & READ_ORDERED ? READ_ORDER : WRITE_ORDER;
        if constexpr (F & COPY) {
            v->launch[t] = launch_copy<T, TR, TC, NT>;
            v->kernel[t] = (const void*)copy_tile_vec<T, TR, TC, NT>;
        } else {
            v->launch[t] = launch_vec<T, TR, TC, NT, Slot, order>;
            v->kernel[t] = (const void*)transpose_vec<T, TR, TC, NT, Slot, order>;
            vec_geometry g = {(unsigned)sizeof(T), TR, TC, NT};
            if (vec_model(&g, host_slot<Slot>, &v->model[t])) die("%s: misaligned", v->name);
            v->modelled = 1;
        }
    }
}

template <int TR, int TC, int NT, int F = 0>
static variant vec_variant(const char* name, const char* adds, int sweep) {
    variant v;
    memset(&v, 0, sizeof v);
    v.name = name;
    v.adds = adds;
    v.transposes = !(F & COPY);
    v.sweep = sweep;
    v.tile_rows = TR;
    v.tile_cols = TC;
    v.threads = NT;
    set_vec<float, TR, TC, NT, F>(&v, FLOAT);
    set_vec<double, TR, TC, NT, F>(&v, DOUBLE);
    return v;
}

template <void (*KF)(const float*, float*, int, int), void (*KD)(const double*, double*, int, int)>
static variant t32_variant(const char* name, const char* adds, tile32_slot_fn slot) {
    variant v;
    memset(&v, 0, sizeof v);
    v.name = name;
    v.adds = adds;
    v.transposes = 1;
    v.tile_rows = v.tile_cols = T32;
    v.threads = T32 * T32_ROWS_PER_PASS;
    v.launch[FLOAT] = launch_t32<float, KF>;
    v.launch[DOUBLE] = launch_t32<double, KD>;
    v.kernel[FLOAT] = (const void*)KF;
    v.kernel[DOUBLE] = (const void*)KD;
    if (slot) {
        for (int t = 0; t < N_TYPES; ++t)
            if (tile32_model((unsigned)TYPE_BYTES[t], slot, &v.model[t]))
                die("%s: misaligned", name);
        v.modelled = 1;
    }
    return v;
}

/* Kernel 7's tile and block size, chosen by the sweep (README, "The sweep"): the best of it at
 * 8192^2 and 16384^2 on the H200. The copy ceiling uses the same. */
#define VEC_TR 64
#define VEC_TC 64
#define VEC_NT 256

enum { N_MAIN = 10, N_SWEEP = 9, N_VARIANTS = N_MAIN + N_SWEEP };

static void all_variants(variant* v) {
    int n = 0;
    variant memcpy_v;
    memset(&memcpy_v, 0, sizeof memcpy_v);
    memcpy_v.name = "memcpy";
    memcpy_v.adds = "cudaMemcpy device to device: the ceiling the chapter is measured against";
    memcpy_v.launch[FLOAT] = launch_memcpy<float>;
    memcpy_v.launch[DOUBLE] = launch_memcpy<double>;
    v[n++] = memcpy_v;
    v[n++] = vec_variant<VEC_TR, VEC_TC, VEC_NT, COPY>(
        "copy", "kernel 1: vec's tiles, threads and 16-byte accesses, no transpose", 0);
    v[n++] = t32_variant<transpose_naive_rows<float>, transpose_naive_rows<double>>(
        "naive_rows", "kernel 2: reads along rows (coalesced), writes down columns", NULL);
    v[n++] = t32_variant<transpose_naive_cols<float>, transpose_naive_cols<double>>(
        "naive_cols", "kernel 3: writes along rows (coalesced), reads down columns", NULL);
    v[n++] = t32_variant<transpose_tile<float, LAYOUT_PLAIN>, transpose_tile<double, LAYOUT_PLAIN>>(
        "tile_plain", "kernel 4: a 32x32 shared tile, both sides coalesced; column read-back",
        t32_slot<LAYOUT_PLAIN>);
    v[n++] =
        t32_variant<transpose_tile<float, LAYOUT_PADDED>, transpose_tile<double, LAYOUT_PADDED>>(
            "tile_padded", "kernel 5: rows padded to 33 elements (chapter 02)",
            t32_slot<LAYOUT_PADDED>);
    v[n++] = t32_variant<transpose_tile<float, LAYOUT_XOR>, transpose_tile<double, LAYOUT_XOR>>(
        "tile_xor", "kernel 6: col ^ row, no padding (chapter 03)", t32_slot<LAYOUT_XOR>);
    v[n++] = vec_variant<VEC_TR, VEC_TC, VEC_NT, UNSWIZZLED>(
        "vec_unswizzled", "kernel 7 without its swizzle: what the conflicts cost here", 0);
    v[n++] = vec_variant<VEC_TR, VEC_TC, VEC_NT, READ_ORDERED>(
        "vec_read_order", "kernel 7 with its blocks in read order: what the order costs", 0);
    v[n++] = vec_variant<VEC_TR, VEC_TC, VEC_NT>(
        "vec", "kernel 7: 16-byte accesses, register transposes, Swizzle<3,log2 V,log2 TR>", 0);
    /* The sweep: kernel 7 at the other tiles and block sizes (vec is the tenth). */
    v[n++] = vec_variant<32, 32, 64>("vec_32x32_t64", "sweep", 1);
    v[n++] = vec_variant<32, 64, 128>("vec_32x64_t128", "sweep", 1);
    v[n++] = vec_variant<64, 32, 128>("vec_64x32_t128", "sweep", 1);
    v[n++] = vec_variant<64, 64, 128>("vec_64x64_t128", "sweep", 1);
    v[n++] = vec_variant<32, 128, 256>("vec_32x128_t256", "sweep", 1);
    v[n++] = vec_variant<128, 32, 256>("vec_128x32_t256", "sweep", 1);
    v[n++] = vec_variant<64, 128, 256>("vec_64x128_t256", "sweep", 1);
    v[n++] = vec_variant<128, 64, 256>("vec_128x64_t256", "sweep", 1);
    v[n++] = vec_variant<64, 128, 512>("vec_64x128_t512", "sweep", 1);
    if (n != N_VARIANTS) die("%d variants, expected %d", n, N_VARIANTS);
}

/* ---------------------------------------------------------------- lesson tables */

static void print_variants(const variant* v, int n) {
    printf("The variants (--variant NAME picks one; --list shows them all):\n");
    for (int i = 0; i < n; ++i)
        if (!v[i].sweep) printf("  %-15s %s\n", v[i].name, v[i].adds);
    printf("  vec_RxC_tN      the sweep: kernel 7 with an R x C tile and N threads\n");
}

static void print_model(const variant* v, int n) {
    printf("\nShared memory, wavefronts per request by the model (ideal in brackets):\n");
    printf("%-16s %-7s %16s %16s\n", "variant", "type", "tile write", "read-back");
    for (int i = 0; i < n; ++i)
        for (int t = 0; t < N_TYPES; ++t)
            if (v[i].modelled && v[i].launch[t] && (!v[i].sweep || t == FLOAT)) {
                const smem_cost* c = &v[i].model[t];
                printf("%-16s %-7s %8.2f (%5.2f) %8.2f (%5.2f)\n", v[i].name, TYPE_NAME[t], c->st,
                       c->st_ideal, c->ld, c->ld_ideal);
            }
    printf("The plain tile's read-back walks a column: 32 rows 128 bytes apart (float), all in\n"
           "one bank. Padding and XOR spread them over 32 banks; vec's 16-byte accesses move 512\n"
           "bytes per request, 4 wavefronts at best, and its swizzle gets that on both sides.\n");
}

/* ---------------------------------------------------------------- the check */

typedef struct {
    int rows, cols;
} shape;

/* A pattern no input element has, so that an element the kernel never wrote is caught. */
static const unsigned char POISON = 0xa5;

/* Fills `bytes` with random elements of elem bytes from *seed, none equal to the poison. */
static void fill_random(unsigned char* p, size_t n, size_t elem, unsigned long long* seed) {
    for (size_t i = 0; i < n; ++i) {
        unsigned char* e = p + i * elem;
        int all_poison = 1;
        for (size_t b = 0; b < elem; ++b) {
            e[b] = (unsigned char)rng_u32(seed);
            all_poison &= e[b] == POISON;
        }
        if (all_poison) e[0] ^= 1;
    }
}

/* The first element where out differs from the expected result, or -1. */
static long long first_wrong(const unsigned char* in, const unsigned char* out, int rows, int cols,
                             size_t elem, int transposes) {
    for (long long r = 0; r < rows; ++r)
        for (long long c = 0; c < cols; ++c) {
            const unsigned char* want = in + (size_t)(r * cols + c) * elem;
            const unsigned char* got =
                out + (size_t)(transposes ? c * rows + r : r * cols + c) * elem;
            if (memcmp(want, got, elem)) return r * cols + c;
        }
    return -1;
}

/* Bytes that the shape's input and output need, times `sets`; exits 2 with a message if they
 * do not fit in the GPU's free memory. */
static void require_memory(int rows, int cols, size_t elem, size_t sets) {
    char what[128];
    snprintf(what, sizeof what, "a %dx%d %s matrix (input and output%s)", rows, cols,
             elem == 4 ? "float" : "double", sets > 1 ? ", rotated" : "");
    course_require_device_memory("05_transpose", 2.0 * sets * (double)rows * cols * elem, what);
}

static int check_shape(const variant* v, int n, shape s, unsigned long long* seed) {
    int failed = 0;
    for (int t = 0; t < N_TYPES; ++t) {
        const size_t elem = TYPE_BYTES[t], bytes = (size_t)s.rows * s.cols * elem;
        require_memory(s.rows, s.cols, elem, 1);
        unsigned char *h_in = (unsigned char*)malloc(bytes), *h_out = (unsigned char*)malloc(bytes);
        if (!h_in || !h_out) die("out of host memory for a %dx%d check", s.rows, s.cols);
        fill_random(h_in, (size_t)s.rows * s.cols, elem, seed);
        void *d_in, *d_out;
        CUDA_CHECK(cudaMalloc(&d_in, bytes));
        CUDA_CHECK(cudaMalloc(&d_out, bytes));
        CUDA_CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        for (int i = 0; i < n; ++i) {
            if (!v[i].launch[t]) continue;
            CUDA_CHECK(cudaMemset(d_out, POISON, bytes));
            v[i].launch[t](d_in, d_out, s.rows, s.cols);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
            long long w = first_wrong(h_in, h_out, s.rows, s.cols, elem, v[i].transposes);
            if (w >= 0) {
                printf("  %s, %s %dx%d: wrong at input (%lld, %lld)\n", v[i].name, TYPE_NAME[t],
                       s.rows, s.cols, w / s.cols, w % s.cols);
                failed = 1;
            }
        }
        CUDA_CHECK(cudaFree(d_in));
        CUDA_CHECK(cudaFree(d_out));
        free(h_in);
        free(h_out);
    }
    return failed;
}

/* Every variant on every shape, exact against the CPU; or at one shape (--shape). */
static int run_check(const variant* v, int n, const course_args* a) {
    unsigned long long seed = a->seed;
    shape shapes[16] = {{1, 1},      {1, 1000},    {1000, 1},   {31, 33},   {33, 65},
                        {1000, 777}, {4097, 1023}, {1000, 776}, {256, 256}, {128, 4096}};
    int n_shapes = 10;
    /* A few random shapes from the seed; the last one with dimensions divisible by 4, so that
     * kernels 1 and 7 run their vector path on a partial edge tile. */
    for (int k = 0; k < 3; ++k) {
        int r = 1 + (int)rng_below(&seed, 2000), c = 1 + (int)rng_below(&seed, 2000);
        if (k == 2) r = (r + 3) / 4 * 4, c = (c + 3) / 4 * 4;
        shapes[n_shapes++] = shape{r, c};
    }
    if (a->shape_given) {
        shapes[0] = shape{(int)a->shape[0], (int)a->shape[1]};
        n_shapes = 1;
    }
    printf("check: random inputs from --seed %llu, outputs poisoned, exact comparison\n", a->seed);
    int failed = 0;
    for (int i = 0; i < n_shapes; ++i) failed |= check_shape(v, n, shapes[i], &seed);
    printf("check: %s (%d shapes x %d variants x float, double)\n",
           failed ? "FAILED (reproduce with the --seed above)" : "every output exact", n_shapes, n);
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* ---------------------------------------------------------------- the benchmark */

/* Device-side fill and verification: the benchmark's matrices reach 2 GiB, too large to draw
 * and compare on the host. Both see an element as its bits (U: an unsigned integer of its size);
 * element i holds a hash of i and the seed. */
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

typedef struct {
    const variant* v;
    int type, rows, cols;
    bench_result t;
    double gbps, of_memcpy; /* of_memcpy: memcpy's time at the same shape and type / this */
    unsigned long long wrong;
    int in_l2; /* the rotated sets fit in 3x the L2: the figure is not DRAM's */
} measurement;

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
    const size_t elem = TYPE_BYTES[type], n = (size_t)s.rows * s.cols;
    b->bytes = n * elem;
    b->sets = (3 * dev->l2_bytes + 2 * b->bytes - 1) / (2 * b->bytes);
    if (b->sets > MAX_SETS) b->sets = MAX_SETS;
    require_memory(s.rows, s.cols, elem, b->sets);
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
    const variant* v;
    int type, rows, cols;
    const buffer_sets* b;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    const bench_ctx* c = (const bench_ctx*)p;
    const size_t k = (size_t)rep % c->b->sets;
    c->v->launch[c->type](c->b->in[k], c->b->out[k], c->rows, c->cols);
}

enum { WARMUP = 2 };

/* The benchmark's shapes: squares N/16 .. N (doubling), N x N/16 and N/16 x N; the sweep runs
 * at N/2 and N. --shape: that one shape for both. Returns how many; sweep[i] marks them. */
static int bench_shapes(const course_args* a, shape* s, int* sweep) {
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

/* Whether variant x runs at a shape: the sweep's configurations at the sweep's shapes only; with
 * --variant, that one variant. memcpy always: every ratio needs it. */
static int measured_here(const variant* x, const char* picked, int sweep_shape) {
    if (!strcmp(x->name, "memcpy")) return 1;
    if (picked && strcmp(x->name, picked)) return 0;
    return !x->sweep || sweep_shape;
}

static int run_bench(const variant* v, int n, const course_args* a, const course_device* dev,
                     measurement* m) {
    shape s[16];
    int sweep[16], n_shapes = bench_shapes(a, s, sweep), n_m = 0;
    for (int i = 0; i < n; ++i)
        if (v[i].kernel[FLOAT]) bench_warn_if_spilling(v[i].kernel[FLOAT], v[i].name);
    printf("\nbenchmark: median of %ld repetitions after %d warm-ups; inputs rotated over sets "
           "of 3x the L2 (%zu MiB) where %d sets reach it; GB/s = (bytes read + written) / time\n",
           a->reps, WARMUP, dev->l2_bytes >> 20, MAX_SETS);
    for (int t = 0; t < N_TYPES; ++t)
        for (int k = 0; k < n_shapes; ++k) {
            buffer_sets b;
            sets_alloc(&b, dev, s[k], t, a->seed);
            double memcpy_ms = 0;
            for (int i = 0; i < n; ++i) {
                if (!v[i].launch[t] || !measured_here(&v[i], a->variant, sweep[k])) continue;
                bench_ctx c = {&v[i], t, s[k].rows, s[k].cols, &b};
                for (size_t j = 0; j < b.sets; ++j)
                    CUDA_CHECK(cudaMemset(b.out[j], POISON, b.bytes));
                measurement* x = &m[n_m++];
                x->v = &v[i];
                x->type = t;
                x->rows = s[k].rows;
                x->cols = s[k].cols;
                x->t = bench_run(bench_launch, &c, WARMUP, (int)a->reps, v[i].kernel[t] ? 1 : 0);
                x->gbps = 2.0 * b.bytes / (x->t.median_ms * 1e6);
                if (!strcmp(v[i].name, "memcpy")) memcpy_ms = x->t.median_ms;
                x->of_memcpy = memcpy_ms / x->t.median_ms;
                x->in_l2 = 2 * b.sets * b.bytes < 3 * dev->l2_bytes;
                x->wrong = verify_set(&b, (size_t)(WARMUP + a->reps - 1) % b.sets, t, s[k],
                                      v[i].transposes);
            }
            sets_free(&b);
        }
    return n_m;
}

static void print_measurements(const measurement* m, int n) {
    printf("\n%-16s %-7s %12s %10s %10s %10s %7s %9s\n", "variant", "type", "shape", "median ms",
           "min ms", "max ms", "GB/s", "% memcpy");
    for (int i = 0; i < n; ++i) {
        char sh[32];
        snprintf(sh, sizeof sh, "%dx%d", m[i].rows, m[i].cols);
        printf("%-16s %-7s %12s %10.4f %10.4f %10.4f %7.0f %8.1f%%%s%s\n", m[i].v->name,
               TYPE_NAME[m[i].type], sh, m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].gbps,
               100 * m[i].of_memcpy, m[i].in_l2 ? "  (fits in L2)" : "",
               m[i].wrong ? "  WRONG OUTPUT" : "");
    }
}

static void write_csv(const char* path, const course_device* dev, const char* cmd,
                      const measurement* m, int n) {
    FILE* f = csv_open(path, dev, cmd,
                       "variant,type,rows,cols,tile_rows,tile_cols,threads,sweep,bytes_moved,"
                       "median_ms,min_ms,max_ms,reps,launches,gbps,of_memcpy,in_l2,"
                       "model_st_wavefronts_per_request,model_ld_wavefronts_per_request");
    for (int i = 0; i < n; ++i) {
        const variant* v = m[i].v;
        const smem_cost* c = &v->model[m[i].type];
        fprintf(f, "%s,%s,%d,%d,%d,%d,%d,%d,%.0f,%.6f,%.6f,%.6f,%d,%d,%.1f,%.4f,%d,%.4f,%.4f\n",
                csv_field(v->name), TYPE_NAME[m[i].type], m[i].rows, m[i].cols, v->tile_rows,
                v->tile_cols, v->threads, v->sweep,
                2.0 * m[i].rows * m[i].cols * TYPE_BYTES[m[i].type], m[i].t.median_ms,
                m[i].t.min_ms, m[i].t.max_ms, m[i].t.reps, m[i].t.launches, m[i].gbps,
                m[i].of_memcpy, m[i].in_l2, v->modelled ? c->st : -1.0, v->modelled ? c->ld : -1.0);
    }
    csv_close(f, path);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- summary */

static const measurement* lookup(const measurement* m, int n, const variant* v, int type, shape s) {
    for (int i = 0; i < n; ++i)
        if (m[i].v == v && m[i].type == type && m[i].rows == s.rows && m[i].cols == s.cols)
            return &m[i];
    return NULL;
}

/* One table: a row per variant (sweep rows or the others), a column per type and sweep shape. */
static void summary_table(const variant* v, int nv, int sweep_rows, const measurement* m, int n,
                          const shape* s, int n_s) {
    printf("\n| %s |", sweep_rows ? "kernel 7: tile, threads" : "variant");
    for (int t = 0; t < N_TYPES; ++t)
        for (int k = 0; k < n_s; ++k) printf(" %s %dx%d |", TYPE_NAME[t], s[k].rows, s[k].cols);
    printf("\n| --- |");
    for (int k = 0; k < N_TYPES * n_s; ++k) printf(" ---: |");
    printf("\n");
    for (int i = 0; i < nv; ++i) {
        if (v[i].sweep != sweep_rows && !(sweep_rows && !strcmp(v[i].name, "vec"))) continue;
        if (sweep_rows)
            printf("| %dx%d, %d%s |", v[i].tile_rows, v[i].tile_cols, v[i].threads,
                   v[i].sweep ? "" : " (vec)");
        else
            printf("| %s |", v[i].name);
        for (int t = 0; t < N_TYPES; ++t)
            for (int k = 0; k < n_s; ++k) {
                const measurement* x = lookup(m, n, &v[i], t, s[k]);
                if (x)
                    printf(" %.0f (%.1f%%) |", x->gbps, 100 * x->of_memcpy);
                else
                    printf(" - |");
            }
        printf("\n");
    }
}

static void print_summary(const course_device* dev, const variant* v, int nv, const measurement* m,
                          int n, const course_args* a) {
    course_summary_header(dev, "05_transpose");
    shape all[16], s[16];
    int sweep[16], n_s = 0, n_all = bench_shapes(a, all, sweep);
    for (int k = 0; k < n_all; ++k)
        if (sweep[k]) s[n_s++] = all[k];
    printf("GB/s (bytes read + written) and, in brackets, the share of cudaMemcpy's speed at the\n"
           "same size, measured in this run:\n");
    summary_table(v, nv, 0, m, n, s, n_s);
    printf("\nThe sweep (kernel 7's tile, rows x columns of the input, and threads per block):\n");
    summary_table(v, nv, 1, m, n, s, n_s);
}

/* ---------------------------------------------------------------- main */

static void describe_variant(const void* variants, int i, const char** name, const void** kernel,
                             course_needs* need) {
    const variant* v = (const variant*)variants + i;
    *name = v->name;
    *kernel = v->kernel[0];
    need->threads = v->threads;
}

/* The chapter's own kernels that run: all but cudaMemcpy. */
static int own_kernels(const variant* v, int n, const int* runs) {
    int own = 0;
    for (int i = 0; i < n; ++i) own += runs[i] && v[i].kernel[0];
    return own;
}

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    static variant v[N_VARIANTS], sel[N_VARIANTS]; /* sel: the variants --variant picks */
    all_variants(v);
    int n_sel = 0, nv = N_VARIANTS;
    for (int i = 0; i < nv; ++i) n_sel += !args.variant || !strcmp(v[i].name, args.variant);
    if (!n_sel) return course_usage_error(&CLI, "no variant '%s' (see --list)", args.variant);
    static int runs[N_VARIANTS];
    course_target target;
    if (args.list) {
        for (int i = 0; i < nv; ++i)
            printf("%-16s tile %3dx%-3d %3d threads  %s\n", v[i].name, v[i].tile_rows,
                   v[i].tile_cols, v[i].threads, v[i].adds);
        if (course_target_of_table(args.gpu, &target)) {
            course_judge(&target, v, nv, describe_variant, runs);
            course_chapter_verdict(&target, own_kernels(v, nv, runs), NULL, 1);
        }
        return EXIT_OK;
    }
    const int lesson = !args.check && !args.bench;
    if (lesson) {
        print_variants(v, N_VARIANTS);
        print_model(v, N_VARIANTS);
    }
    course_device dev;
    rc = course_device_open(&dev, 7, 5, "the transpose kernels");
    if (rc != EXIT_OK) return rc;
    course_device_print(&dev);
    course_target_of_device(&dev, &target);
    course_judge(&target, v, nv, describe_variant, runs);
    const int own = own_kernels(v, nv, runs);
    nv = course_keep(v, sizeof v[0], nv, runs);
    n_sel = 0;
    for (int i = 0; i < nv; ++i)
        if (!args.variant || !strcmp(v[i].name, args.variant)) sel[n_sel++] = v[i];
    rc = course_chapter_verdict(&target, own, args.variant, n_sel > 0);
    if (rc != EXIT_OK) return rc;

    if (args.check || lesson) {
        rc = run_check(sel, n_sel, &args);
        if (rc != EXIT_OK || args.check) return rc;
    }
    static measurement m[1024];
    int n_m = run_bench(v, nv, &args, &dev, m);
    print_measurements(m, n_m);
    int wrong = 0;
    for (int i = 0; i < n_m; ++i) wrong |= m[i].wrong != 0;
    if (args.csv) write_csv(args.csv, &dev, args.command_line, m, n_m);
    if (lesson) print_summary(&dev, v, nv, m, n_m, &args);
    if (wrong) printf("benchmark: some outputs were WRONG (see above)\n");
    return wrong ? EXIT_CHECK_FAILED : EXIT_OK;
}
