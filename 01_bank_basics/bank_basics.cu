/* Chapter 01: shared-memory banks.
 *
 * One kernel, 160 variants: every lane of every warp reads shared memory at
 *     lane * stride * width + j * step bytes    (j = 0 .. UNROLL-1, over and over)
 * for width 1, 2, 4, 8 or 16 bytes and stride 1..32 elements, step = max(width, 4). The model
 * (common/model/smem_model) predicts the wavefronts each warp load needs; the benchmark measures
 * how long the loads take and how many bytes each multiprocessor delivers per clock. Adding j *
 * step moves every lane by the same whole number of banks, which leaves the conflict pattern
 * unchanged: one prediction per variant.
 *
 * File layout: variants, CPU reference, kernel, launcher, check, benchmark, lesson, main. */
#include "bank_basics.h"
#include "device/sm_limits.cuh"
#include "device/smem_access.cuh"
#include "host/bench.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/csv.h"
#include "host/device.h"
#include "host/rng.h"
#include "model/smem_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    UNROLL = 12,         /* independent loads per thread per iteration (no register spills) */
    MAX_STRIDE = 32,     /* elements */
    BENCH_THREADS = 512, /* 16 warps a block */
    BLOCKS_PER_SM = 4,   /* __launch_bounds__' minimum, so each thread may use 32 registers: on a
                          * 64-warp SM (sm_80, sm_90) 4 blocks fill its warp slots; the benchmark
                          * launches as many as the occupancy API says this GPU holds */
    CHECK_THREADS = 96,  /* the check also runs a block of 3 warps */
    POISON = 0xdeadbeefu
};
enum { N_WIDTHS = 5 };
static const int WIDTHS[N_WIDTHS] = {1, 2, 4, 8, 16};

static const course_cli CLI = {
    "01_bank_basics",
    "Shared-memory banks: strided loads of 1, 2, 4, 8 and 16 bytes; the model's wavefronts and\n"
    "the measured cost, side by side.",
    "loop iterations per thread at widths 1, 2 and 4; width W > 4 runs N*4/W, so that every "
    "width needs the same conflict-free wavefronts",
    3000,
    15,
    1000000,
    0, /* no --shape */
    0,
    0, /* --size from 1 */
    {NULL} /* no side files beside --csv */};

/* ---------------------------------------------------------------- variants */

typedef struct {
    int width;
    unsigned stride;
    char name[16];
} variant;

static int variant_count(void) {
    return N_WIDTHS * MAX_STRIDE;
}

static variant variant_at(int i) {
    variant v;
    v.width = WIDTHS[i / MAX_STRIDE];
    v.stride = (unsigned)(i % MAX_STRIDE) + 1;
    snprintf(v.name, sizeof v.name, "w%d_s%u", v.width, v.stride);
    return v;
}

/* The model's wavefronts for one warp load of a variant. */
static int model_wavefronts(int width, unsigned stride) {
    smem_access a = smem_strided((unsigned)width, SMEM_LOAD, stride, 0);
    return smem_wavefronts(&a);
}

/* ---------------------------------------------------------------- CPU reference */

/* What word i of the tile holds: a hash keyed by the run's random seed, so that the data differ
 * from run to run and a wrong address gives a wrong sum. */
static __host__ __device__ unsigned word_value(unsigned i, unsigned key) {
    return (i * 2654435761u + 12345u) ^ key;
}

/* Bytes between a lane's UNROLL loads: whole 4-byte words, so that every load of a thread sees
 * the same bank pattern, also at 1 and 2 bytes. */
static __host__ __device__ unsigned step_bytes(int width) {
    return width < 4 ? 4u : (unsigned)width;
}

/* 4-byte words a block uses: the 32 lanes' strided span plus the UNROLL shifts. */
static __host__ __device__ unsigned footprint_words(int width, unsigned stride) {
    return (32u * stride * (unsigned)width + UNROLL * step_bytes(width) + 3u) / 4u;
}

/* The sum a thread in lane `lane` returns after `iters` iterations: the words it loads, or the
 * byte or half of a word at 1 and 2 bytes (little-endian, as the GPU stores them). */
static unsigned expected_sum(int width, unsigned stride, int iters, unsigned lane, unsigned key) {
    unsigned per_iter = 0;
    for (unsigned j = 0; j < UNROLL; ++j) {
        unsigned first = lane * stride * (unsigned)width + j * step_bytes(width);
        if (width < 4) {
            unsigned shift = 8u * (first % 4u), mask = width == 1 ? 0xffu : 0xffffu;
            per_iter += word_value(first / 4u, key) >> shift & mask;
        } else
            for (unsigned k = 0; k < (unsigned)width / 4u; ++k)
                per_iter += word_value(first / 4u + k, key);
    }
    return per_iter * (unsigned)iters;
}

/* ---------------------------------------------------------------- kernel */

/* Thread 0 of each block records the SM clock before and after the loop and the SM it ran on,
 * so that bytes per clock come from the SM's own cycle counter, whatever its frequency. */
template <int W>
__global__ void __launch_bounds__(BENCH_THREADS, COURSE_MIN_BLOCKS(BENCH_THREADS, BLOCKS_PER_SM))
    strided_read(unsigned stride, int iters, unsigned key, unsigned* out,
                 unsigned long long* clocks) {
    extern __shared__ __align__(16) unsigned words[];
    for (unsigned i = threadIdx.x; i < footprint_words(W, stride); i += blockDim.x)
        words[i] = word_value(i, key);
    __syncthreads();

    /* ld_shared: one volatile LDS of W bytes each, so the compiler keeps every load in the
     * loop; the j * step offsets fold into the instructions. */
    const unsigned first = smem_address(words) + (threadIdx.x % 32u) * stride * W;
    if (threadIdx.x == 0) clocks[3 * blockIdx.x] = clock64();
    unsigned acc = 0;
#pragma unroll 1
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int j = 0; j < UNROLL; ++j) acc += word_sum(ld_shared<W>(first + j * step_bytes(W)));
    }
    __syncthreads(); /* the block is done when its slowest warp is */
    if (threadIdx.x == 0) {
        unsigned smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        clocks[3 * blockIdx.x + 1] = clock64();
        clocks[3 * blockIdx.x + 2] = smid;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

typedef void (*kernel_fn)(unsigned, int, unsigned, unsigned*, unsigned long long*);

static kernel_fn kernel_for(int width) {
    return width == 1   ? strided_read<1>
           : width == 2 ? strided_read<2>
           : width == 4 ? strided_read<4>
           : width == 8 ? strided_read<8>
                        : strided_read<16>;
}

/* ---------------------------------------------------------------- launcher */

typedef struct {
    int width;
    unsigned stride;
    int iters, blocks, threads;
    unsigned key; /* of the shared-memory words: from --seed */
    unsigned* d_out;
    unsigned long long* d_clocks;
} run_config;

static size_t smem_bytes(const run_config* c) {
    return footprint_words(c->width, c->stride) * sizeof(unsigned);
}

static void launch(void* ctx, int rep) {
    (void)rep;
    const run_config* c = (const run_config*)ctx;
    kernel_for(c->width)<<<c->blocks, c->threads, smem_bytes(c)>>>(c->stride, c->iters, c->key,
                                                                   c->d_out, c->d_clocks);
}

/* Blocks of this variant that one SM holds at once. */
static int resident_blocks(const run_config* c) {
    int n = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel_for(c->width), c->threads,
                                                             smem_bytes(c)));
    if (n < 1) die("strided_read<%d> does not fit on an SM", c->width);
    return n;
}

/* ---------------------------------------------------------------- check */

/* Poisons the output, runs one launch, compares every thread's sum with the CPU. Returns the
 * number of wrong threads (and prints the first). */
static int run_and_verify(const run_config* c) {
    size_t n = (size_t)c->blocks * (size_t)c->threads;
    unsigned* h = (unsigned*)malloc(n * sizeof *h);
    if (!h) die("out of host memory");
    for (size_t i = 0; i < n; ++i) h[i] = POISON;
    CUDA_CHECK(cudaMemcpy(c->d_out, h, n * sizeof *h, cudaMemcpyHostToDevice));
    launch((void*)c, 0);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(h, c->d_out, n * sizeof *h, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned want = expected_sum(c->width, c->stride, c->iters, (unsigned)(i % 32), c->key);
        if (h[i] != want && wrong++ == 0)
            printf("  w%d_s%u: thread %zu returned %08x, expected %08x\n", c->width, c->stride, i,
                   h[i], want);
    }
    free(h);
    return wrong;
}

/* --check: every selected variant at small launch shapes, one of them not a power of two. */
static int check_variants(const variant* sel, int n_sel, unsigned key, unsigned* d_out,
                          unsigned long long* d_clocks) {
    static const int shapes[][3] = {/* blocks, iterations, threads */
                                    {1, 1, 32},
                                    {3, 3, CHECK_THREADS},
                                    {2, 2, BENCH_THREADS}};
    int failed = 0;
    for (int v = 0; v < n_sel; ++v) {
        int wrong = 0;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
            run_config c = {sel[v].width, sel[v].stride, shapes[s][1], shapes[s][0],
                            shapes[s][2], key,           d_out,        d_clocks};
            wrong += run_and_verify(&c);
        }
        failed += wrong != 0;
    }
    printf("check: %d of %d variants correct%s\n", n_sel - failed, n_sel,
           failed ? " (reproduce with the --seed above)" : "");
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* ---------------------------------------------------------------- benchmark */

typedef struct {
    variant v;
    int model_wf, ideal_wf;
    bench_result t;
    double bytes_per_clk_sm; /* from the SM cycle counters, last timed repetition */
    double slowdown;         /* median time / median time of stride 1 at the same width */
    int launches;            /* every launch of this variant, the verifying one included */
} measurement;

/* Bytes per clock per SM of the last launch: for each SM, the bytes its blocks read over the
 * cycles from its first block's start to its last block's end; averaged over the SMs. */
static double bytes_per_clock(const run_config* c, const course_device* dev) {
    size_t n = 3 * (size_t)c->blocks, sms = (size_t)dev->sm_count;
    unsigned long long* h = (unsigned long long*)malloc(n * sizeof *h);
    unsigned long long* first = (unsigned long long*)calloc(sms, sizeof *first);
    unsigned long long* last = (unsigned long long*)calloc(sms, sizeof *last);
    int* blocks_on = (int*)calloc(sms, sizeof *blocks_on);
    if (!h || !first || !last || !blocks_on) die("out of host memory");
    CUDA_CHECK(cudaMemcpy(h, c->d_clocks, n * sizeof *h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < c->blocks; ++b) {
        unsigned long long start = h[3 * b], end = h[3 * b + 1];
        size_t sm = (size_t)h[3 * b + 2];
        if (sm >= sms) die("block %d reported SM %zu of %zu", b, sm, sms);
        if (!blocks_on[sm] || start < first[sm]) first[sm] = start;
        if (!blocks_on[sm] || end > last[sm]) last[sm] = end;
        ++blocks_on[sm];
    }
    double bytes_per_block = (double)c->threads * c->iters * UNROLL * c->width;
    double sum = 0;
    int used = 0;
    for (size_t sm = 0; sm < sms; ++sm) {
        if (!blocks_on[sm]) continue;
        sum += bytes_per_block * blocks_on[sm] / (double)(last[sm] - first[sm]);
        ++used;
    }
    free(h);
    free(first);
    free(last);
    free(blocks_on);
    return used ? sum / used : 0;
}

static int bench_variants(const course_device* dev, const course_args* args, const variant* sel,
                          int n_sel, measurement* m, unsigned key, unsigned* d_out,
                          unsigned long long* d_clocks) {
    int failed = 0;
    for (int i = 0; i < n_sel; ++i) {
        run_config c = {sel[i].width, sel[i].stride, 0, 0, BENCH_THREADS, key, d_out, d_clocks};
        c.iters = (int)(args->size * 4 / (int)step_bytes(sel[i].width));
        if (c.iters < 1) c.iters = 1;
        c.blocks = resident_blocks(&c) * dev->sm_count; /* exactly one full wave */
        m[i].v = sel[i];
        m[i].model_wf = model_wavefronts(sel[i].width, sel[i].stride);
        m[i].ideal_wf = model_wavefronts(sel[i].width, 1);
        m[i].t = bench_run(launch, &c, 2, (int)args->reps, 1);
        m[i].bytes_per_clk_sm = bytes_per_clock(&c, dev);
        /* A benchmark is not a test, but a wrong result would make its time meaningless. */
        m[i].launches = m[i].t.launches + 1;
        if (run_and_verify(&c)) {
            printf("  %s: benchmark result wrong\n", sel[i].name);
            failed = 1;
        }
    }
    for (int i = 0; i < n_sel; ++i) {
        m[i].slowdown = NAN;
        for (int j = 0; j < n_sel; ++j)
            if (m[j].v.width == m[i].v.width && m[j].v.stride == 1)
                m[i].slowdown = m[i].t.median_ms / m[j].t.median_ms;
    }
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

static void print_measurements(const measurement* m, int n) {
    printf("\n%-8s %6s %7s %9s %9s %9s %9s %9s %8s\n", "variant", "model", "model", "median", "min",
           "max", "B/clk/SM", "measured", "measured");
    printf("%-8s %6s %7s %9s %9s %9s %9s %9s %8s\n", "", "wf", "ratio", "ms", "ms", "ms", "",
           "slowdown", "/model");
    for (int i = 0; i < n; ++i) {
        double ratio = (double)m[i].model_wf / m[i].ideal_wf;
        printf("%-8s %6d %7.2f %9.4f %9.4f %9.4f %9.1f %9.2f %8.3f\n", m[i].v.name, m[i].model_wf,
               ratio, m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].bytes_per_clk_sm,
               m[i].slowdown, m[i].slowdown / ratio);
    }
}

static void write_csv(const char* path, const course_device* dev, const course_args* args,
                      const measurement* m, int n) {
    FILE* f = csv_open(path, dev, args->command_line,
                       "variant,width,stride,model_wavefronts,ideal_wavefronts,model_ratio,"
                       "median_ms,min_ms,max_ms,reps,bytes_per_clk_sm,slowdown,launches,"
                       "model_ld_wavefronts_per_request,model_st_wavefronts_per_request");
    for (int i = 0; i < n; ++i)
        fprintf(f, "%s,%d,%u,%d,%d,%.4f,%.6f,%.6f,%.6f,%d,%.3f,%.4f,%d,%d,%d\n", m[i].v.name,
                m[i].v.width, m[i].v.stride, m[i].model_wf, m[i].ideal_wf,
                (double)m[i].model_wf / m[i].ideal_wf, m[i].t.median_ms, m[i].t.min_ms,
                m[i].t.max_ms, m[i].t.reps, m[i].bytes_per_clk_sm, m[i].slowdown, m[i].launches,
                m[i].model_wf, 1 /* the fill loop: contiguous 4-byte stores, one wavefront each */);
    csv_close(f, path);
}

/* ---------------------------------------------------------------- lesson */

/* The calibration's headline patterns, as loads of the given width. */
static smem_access pattern(unsigned width, const char* kind) {
    smem_access a = smem_strided(width, SMEM_LOAD, 1, 0);
    for (unsigned l = 0; l < 32; ++l) {
        if (!strcmp(kind, "broadcast")) a.offset[l] = 0;
        if (!strcmp(kind, "halves")) a.offset[l] = (l % 16) * width;
        if (!strcmp(kind, "neighbours")) a.offset[l] = (l / 2) * width;
        if (!strcmp(kind, "interleave")) a.offset[l] = ((l % 8) * 4 + l / 8) * width;
    }
    return a;
}

/* The most bytes a conflict-free warp load of this width moves per wavefront: 32 lanes' worth
 * below 4 bytes, a full 128-byte pass from 4 bytes on. */
static double wavefront_bytes(int width) {
    return width < 4 ? 32.0 * width : 128.0;
}

static void print_model_tables(void) {
    printf("Shared memory: 32 banks x 4 bytes. Byte b is in bank (b / 4) %% 32; a wavefront\n"
           "serves each bank once, so one wavefront moves at most 128 bytes.\n\n");
    printf("Warp loads lane * stride * width (model, common/model/smem_model), wavefronts (x "
           "ideal):\n");
    printf("%6s |", "stride");
    for (int w = 0; w < N_WIDTHS; ++w) printf(" %8d B    |", WIDTHS[w]);
    printf("\n");
    for (unsigned s = 1; s <= MAX_STRIDE; ++s) {
        printf("%6u |", s);
        for (int w = 0; w < N_WIDTHS; ++w)
            printf(" %5d (x%-4g)|", model_wavefronts(WIDTHS[w], s),
                   (double)model_wavefronts(WIDTHS[w], s) / model_wavefronts(WIDTHS[w], 1));
        printf("\n");
    }
    printf("\nThe stride rule for 4-byte words: stride s puts gcd(s, 32) lanes on each bank it "
           "uses,\nso the conflict degree is gcd(s, 32): ");
    for (unsigned s = 1; s <= 8; ++s) printf("s=%u->%u ", s, smem_gcd(s, 32));
    printf("... every odd stride is free.\n"
           "8- and 16-byte accesses are served a half-warp / quarter-warp at a time (128 bytes\n"
           "each), so stride s costs gcd(s, 16) (8 B) or gcd(s, 8) (16 B) times the ideal.\n"
           "1- and 2-byte accesses: the whole warp is one group (32 lanes ask for at most 64\n"
           "bytes), and lanes reading different bytes or halves of one word share it, as lanes\n"
           "reading one address do (loads and stores alike). What conflicts is lanes in one bank\n"
           "but different words: stride s bytes (1 B) puts lane i in word i * s / 4, so strides\n"
           "1 to 4 cost 1 wavefront and stride 32 costs 8; 2-byte halves at stride 32 cost 16.\n");

    static const struct {
        const char* kind;
        const char* what;
    } cases[] = {{"broadcast", "every lane reads one address"},
                 {"neighbours", "lanes 2i and 2i+1 read one address"},
                 {"halves", "lane i and lane i+16 read one address"},
                 {"interleave", "conflict-free over the warp, 4-way in each quarter"}};
    printf("\nWhat the calibration on the H200 found (wavefronts ld/st; each cell a measured row,\n"
           "but the 1- and 2-byte cells of the last two rows, which are the model's):\n");
    printf("%-52s |", "");
    for (int w = 0; w < N_WIDTHS; ++w) printf(" %5d B |", WIDTHS[w]);
    printf("\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        printf("%-52s |", cases[c].what);
        for (int w = 0; w < N_WIDTHS; ++w) {
            smem_access a = pattern((unsigned)WIDTHS[w], cases[c].kind);
            int ld = smem_wavefronts(&a);
            a.op = SMEM_STORE;
            printf(" %3d/%-3d|", ld, smem_wavefronts(&a));
        }
        printf("\n");
    }
}

static void print_summary(const course_device* dev, const measurement* m, int n) {
    course_summary_header(dev, CLI.program);
    printf("| width | conflict-free B/clk/SM | of the limit | N-way points: measured slowdown / "
           "model ratio, worst |\n");
    printf("| ---: | ---: | ---: | ---: |\n");
    for (int w = 0; w < N_WIDTHS; ++w) {
        double free_bw = NAN, worst = 1;
        for (int i = 0; i < n; ++i) {
            if (m[i].v.width != WIDTHS[w]) continue;
            if (m[i].v.stride == 1) free_bw = m[i].bytes_per_clk_sm;
            double q = m[i].slowdown / ((double)m[i].model_wf / m[i].ideal_wf);
            if (m[i].model_wf > m[i].ideal_wf && fabs(q - 1) > fabs(worst - 1)) worst = q;
        }
        printf("| %d B | %.1f | %.0f%% of %.0f | %.3f |\n", WIDTHS[w], free_bw,
               100 * free_bw / wavefront_bytes(WIDTHS[w]), wavefront_bytes(WIDTHS[w]), worst);
    }
}

/* ---------------------------------------------------------------- main */

static void describe_variant(const void* variants, int i, const char** name, const void** kernel,
                             course_needs* need) {
    const variant* v = (const variant*)variants + i;
    *name = v->name;
    *kernel = (const void*)kernel_for(v->width);
    need->dynamic_smem = footprint_words(v->width, v->stride) * sizeof(unsigned);
    need->threads = BENCH_THREADS;
}

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;

    variant sel[N_WIDTHS * MAX_STRIDE + 1];
    int n_sel = 0;
    for (int i = 0; i < variant_count(); ++i) {
        variant v = variant_at(i);
        if (!args.variant || !strcmp(args.variant, v.name)) sel[n_sel++] = v;
    }
    if (!n_sel) return course_usage_error(&CLI, "unknown variant '%s' (see --list)", args.variant);
    /* A slowdown needs its baseline, stride 1 at the same width, measured in the same run. */
    if (args.variant && !args.list && !args.check && sel[0].stride != 1)
        for (int w = 0; w < N_WIDTHS; ++w)
            if (WIDTHS[w] == sel[0].width) sel[n_sel++] = variant_at(w * MAX_STRIDE);
    static int runs[N_WIDTHS * MAX_STRIDE + 1];
    course_target target;
    if (args.list) {
        for (int i = 0; i < n_sel; ++i)
            printf("%-8s  %2d-byte loads, stride %2u: %2d wavefronts (ideal %d)\n", sel[i].name,
                   sel[i].width, sel[i].stride, model_wavefronts(sel[i].width, sel[i].stride),
                   model_wavefronts(sel[i].width, 1));
        if (course_target_of_table(args.gpu, &target)) {
            /* every width and stride, or the chapter compares nothing */
            const int n = course_judge(&target, sel, n_sel, describe_variant, runs);
            course_chapter_verdict(&target, n == n_sel ? n : 0, NULL, 1);
        }
        return EXIT_OK;
    }
    int lesson = !args.check && !args.bench;
    if (lesson) print_model_tables();

    course_device dev;
    rc = course_device_open(&dev, 7, 5, "the shared-memory benchmark");
    if (rc != EXIT_OK) return rc;
    course_device_print(&dev);
    course_target_of_device(&dev, &target);
    const int n_runs = course_judge(&target, sel, n_sel, describe_variant, runs);
    rc = course_chapter_verdict(&target, n_runs == n_sel ? n_runs : 0, NULL, 1);
    if (rc != EXIT_OK) return rc;

    int max_threads_per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
                                      dev.id));
    size_t max_threads = (size_t)dev.sm_count * (size_t)max_threads_per_sm;
    unsigned* d_out;
    unsigned long long* d_clocks;
    CUDA_CHECK(cudaMalloc(&d_out, max_threads * sizeof *d_out));
    CUDA_CHECK(cudaMalloc(&d_clocks, 3 * (max_threads / 32) * sizeof *d_clocks));

    /* The words' key: every run draws fresh data, and --seed reproduces a run's. */
    unsigned long long seed = args.seed;
    unsigned key = rng_u32(&seed);
    printf("random words from --seed %llu\n", args.seed);
    rc = EXIT_OK;
    if (args.check || lesson) rc = check_variants(sel, n_sel, key, d_out, d_clocks);
    if (rc == EXIT_OK && !args.check) {
        for (int w = 0; w < N_WIDTHS; ++w) {
            char name[32];
            snprintf(name, sizeof name, "strided_read<%d>", WIDTHS[w]);
            bench_warn_if_spilling((const void*)kernel_for(WIDTHS[w]), name);
        }
        measurement* m = (measurement*)calloc((size_t)n_sel, sizeof *m);
        if (!m) die("out of host memory");
        rc = bench_variants(&dev, &args, sel, n_sel, m, key, d_out, d_clocks);
        print_measurements(m, n_sel);
        if (args.csv) write_csv(args.csv, &dev, &args, m, n_sel);
        if (lesson) print_summary(&dev, m, n_sel);
        free(m);
    }
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_clocks));
    return rc;
}
