/* Chapter 08, part 4: how sgemm_auto's table is made. At each shape of a grid (M, N, K each one of
 * 1024, 1536, 2048, 3072, 4096, 6144, 8192: half steps in log2, 343 shapes) it times every choice
 * (tile 128 x 128, 128 x 256 or 128 x 128 on 128 threads, data-parallel or stream-K) on this GPU,
 * the choices whose plans are the same timed once, and writes each one's median time and its
 * busiest SM's iterations: what sgemm_table_choice scales to the shapes between (sgemm_auto.h).
 * `chosen` marks what it then picks at the grid's shape itself, for the reader. The CSV it writes
 * is the table: results/h200_sgemm_table.csv is built into the program, and COURSE_SGEMM_TABLE=FILE
 * makes sgemm_auto read another.
 * A shape's choices are timed in N rounds that take them in turn, a warm-up and C timed calls
 * back to back each a round (their median), and each keeps the median of its rounds, like the
 * benchmark's rounds (common/gemm/bench.cu): timed one after the other, a choice timed later runs
 * on a GPU that has run longer, which can decide between two choices under 1% apart (at 8192^3
 * the table, timed that way, and three sweeps disagreed on such a pair: results/NOTES.md).
 * One call after its warm-up (C = 1) can run faster than calls back to back, as the sweep and a
 * caller's loop run them: on the H200 the 128-thread tile's data-parallel plan at 2048 x 8192 x
 * 1024 timed 0.753 ms in one call and 0.777 in five. So C is 5 by default, how
 * results/h200_sgemm_table.csv was made. The tuner and the program link the same sgemm_auto
 * library (CMakeLists.txt): timed here, a kernel is the machine code the program runs.
 *
 *   08_sgemm_tune --csv FILE [--reps N] [--calls C]   (N rounds: 1 to 1000, default 5; C calls a
 *                                                      round: 1 to 100, default 5) */
#include "sgemm_auto_run.h"
#include "gemm/harness.h"
#include "host/check.h"
#include "host/csv.h"
#include "host/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] = "usage: 08_sgemm_tune --csv FILE [--reps N] [--calls C]\n"
                            "  times sgemm_auto's choices on a grid of shapes on this GPU and "
                            "writes its table\n"
                            "  (use it with COURSE_SGEMM_TABLE=FILE 08_cp_async ...)\n"
                            "  --reps N   rounds, each timing every choice in turn (default 5)\n"
                            "  --calls C  calls timed back to back a choice a round (default 5)\n";

static int usage_error(const char* what) {
    fprintf(stderr, "08_sgemm_tune: %s\n%s", what, USAGE);
    return EXIT_USAGE;
}

static const int SIDES[] = {1024, 1536, 2048, 3072, 4096, 6144, 8192};
enum {
    N_SIDES = sizeof SIDES / sizeof SIDES[0],
    BIGGEST = 8192,
    N_CHOICES = 2 * SGEMM_TILES,
    MAX_ROUNDS = 1000,
    MAX_CALLS = 100
};

static const csv_column COLUMNS[] = {
    {"M", CSV_INT, 0},         {"N", CSV_INT, 0},       {"K", CSV_INT, 0},
    {"tile", CSV_TEXT, 0},     {"split", CSV_TEXT, 0},  {"whole", CSV_INT, 0},
    {"sk_blocks", CSV_INT, 0}, {"busiest", CSV_INT, 0}, CSV_TIMING_COLUMNS,
    {"gflops", CSV_REAL, 1},   {"chosen", CSV_INT, 0},
};

typedef struct {
    gemm_call c;
    sgemm_plan p;
} tune_ctx;

static void tune_launch(void* x, int rep) {
    (void)rep;
    const tune_ctx* t = (const tune_ctx*)x;
    sgemm_auto_run(&t->c, &t->p);
}

static int same_plan(const sgemm_plan* a, const sgemm_plan* b) {
    return a->choice.tile == b->choice.tile && a->work.whole == b->work.whole &&
           a->work.sk_blocks == b->work.sk_blocks && a->work.sk_iters == b->work.sk_iters;
}

/* Each distinct choice (same[k] == k) in `rounds` rounds, a warm-up and `calls` timed calls back
 * to back a round (their median); r[k]: the median over the rounds, their min and max. A choice
 * whose plan another's is gets its result. */
static void time_in_rounds(tune_ctx* x, const int* same, int rounds, int calls, bench_result* r) {
    static double ms[N_CHOICES][MAX_ROUNDS];
    for (int round = 0; round < rounds; ++round)
        for (int k = 0; k < N_CHOICES; ++k)
            if (same[k] == k) ms[k][round] = bench_run(tune_launch, &x[k], 1, calls, 0).median_ms;
    for (int k = 0; k < N_CHOICES; ++k) {
        if (same[k] != k) {
            r[k] = r[same[k]];
            continue;
        }
        bench_stats(ms[k], rounds, &r[k].median_ms, &r[k].min_ms, &r[k].max_ms);
        r[k].reps = rounds * calls;
        r[k].launches = 0; /* not counted: the tuner's CSV has no column for it */
    }
}

int main(int argc, char** argv) {
    const char* csv = NULL;
    long reps = 5, calls = 5;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help")) {
            printf("%s", USAGE);
            return EXIT_OK;
        }
        const int is_csv = !strcmp(argv[i], "--csv"), is_reps = !strcmp(argv[i], "--reps"),
                  is_calls = !strcmp(argv[i], "--calls");
        if (!is_csv && !is_reps && !is_calls) return usage_error("unknown argument");
        if (i + 1 >= argc) return usage_error("a flag without its value");
        unsigned long long v;
        if (is_csv) {
            csv = argv[++i];
            const char* why = course_unwritable(csv);
            if (why) {
                char what[COURSE_PATH_MAX + 64];
                snprintf(what, sizeof what, "--csv %s %s", csv, why);
                return usage_error(what);
            }
        } else if (is_reps) {
            if (course_parse_unsigned(argv[++i], 10, MAX_ROUNDS, &v) || v < 1)
                return usage_error("--reps needs a whole number from 1 to 1000");
            reps = (long)v;
        } else {
            if (course_parse_unsigned(argv[++i], 10, MAX_CALLS, &v) || v < 1)
                return usage_error("--calls needs a whole number from 1 to 100");
            calls = (long)v;
        }
    }
    if (!csv) return usage_error("--csv FILE is needed: the table is what it writes");

    course_device dev;
    int rc = course_device_open(&dev, 8, 0, "sgemm_tune (cp.async)");
    if (rc != EXIT_OK) return rc;
    course_device_print(&dev);
    sgemm_auto_configure();
    const sgemm_gpu* g = sgemm_auto_gpu();
    printf("feed: %s; blocks an SM, data-parallel and stream-K: %d and %d (128 x 128), %d and %d "
           "(128 x 256), %d and %d (128 x 128, 128 threads); %ld rounds of a warm-up and %ld "
           "timed calls a choice\n",
           g->tma ? "the TMA" : "cp.async", g->blocks_per_sm[0][0], g->blocks_per_sm[0][1],
           g->blocks_per_sm[1][0], g->blocks_per_sm[1][1], g->blocks_per_sm[2][0],
           g->blocks_per_sm[2][1], reps, calls);

    const size_t n = (size_t)BIGGEST * BIGGEST;
    gemm_shape biggest = {BIGGEST, BIGGEST, BIGGEST};
    gemm_require_memory("08_sgemm_tune", biggest);
    float *A, *B, *C, *h = (float*)malloc(n * 4);
    if (!h) die("out of host memory");
    unsigned long long seed = 2026;
    CUDA_CHECK(cudaMalloc(&A, n * 4));
    CUDA_CHECK(cudaMalloc(&B, n * 4));
    CUDA_CHECK(cudaMalloc(&C, n * 4));
    gemm_fill_uniform(h, n, &seed);
    CUDA_CHECK(cudaMemcpy(A, h, n * 4, cudaMemcpyHostToDevice));
    gemm_fill_uniform(h, n, &seed);
    CUDA_CHECK(cudaMemcpy(B, h, n * 4, cudaMemcpyHostToDevice));
    free(h);

    csv_table t;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "08_sgemm_tune --reps %ld --calls %ld", reps, calls);
    csv_table_open(&t, csv, &dev, cmd, COLUMNS, sizeof COLUMNS / sizeof COLUMNS[0]);
    for (int im = 0; im < N_SIDES; ++im)
        for (int in = 0; in < N_SIDES; ++in)
            for (int ik = 0; ik < N_SIDES; ++ik) {
                const int M = SIDES[im], N = SIDES[in], K = SIDES[ik];
                tune_ctx x[N_CHOICES];
                int same[N_CHOICES]; /* the choice whose plan this one's is, or itself */
                for (int k = 0; k < N_CHOICES; ++k) {
                    const sgemm_choice choice = {(sgemm_tile)(k / 2), (sgemm_split)(k % 2)};
                    x[k].c = gemm_call_dense(M, N, K, 1.0f, A, B, 0.0f, C);
                    x[k].p = sgemm_auto_plan(&x[k].c, &choice, 0);
                    same[k] = k;
                    for (int j = 0; j < k; ++j)
                        if (same_plan(&x[j].p, &x[k].p)) same[k] = same[j];
                }
                bench_result r[N_CHOICES];
                time_in_rounds(x, same, (int)reps, (int)calls, r);
                static sgemm_table here; /* this shape's rows: what the table will say of it */
                here.n = N_CHOICES;
                for (int k = 0; k < N_CHOICES; ++k) {
                    const sgemm_table_row row = {
                        M, N, K, x[k].p.choice, r[k].median_ms, x[k].p.busiest};
                    here.row[k] = row;
                }
                const sgemm_choice pick = sgemm_table_choice(&here, g, M, N, K);
                int best = 0;
                for (int k = 0; k < N_CHOICES; ++k)
                    if (x[k].p.choice.tile == pick.tile && x[k].p.choice.split == pick.split)
                        best = k;
                for (int k = 0; k < N_CHOICES; ++k) {
                    csv_int(&t, "M", M);
                    csv_int(&t, "N", N);
                    csv_int(&t, "K", K);
                    csv_text(&t, "tile", sgemm_tile_name(x[k].p.choice.tile));
                    csv_text(&t, "split", sgemm_split_name(x[k].p.choice.split));
                    csv_int(&t, "whole", x[k].p.work.whole);
                    csv_int(&t, "sk_blocks", x[k].p.work.sk_blocks);
                    csv_int(&t, "busiest", (int)x[k].p.busiest);
                    csv_timing(&t, &r[k]);
                    csv_real(&t, "gflops", 2.0 * M * N * (double)K / (r[k].median_ms * 1e6));
                    csv_int(&t, "chosen", k == best);
                    csv_end_row(&t);
                }
                printf("%5d x %5d x %5d: %s %s (%.3f ms; others", M, N, K,
                       sgemm_tile_name(x[best].p.choice.tile),
                       sgemm_split_name(x[best].p.choice.split), r[best].median_ms);
                for (int k = 0; k < N_CHOICES; ++k)
                    if (k != best) printf(" %.3f", r[k].median_ms);
                printf(")\n");
            }
    csv_table_close(&t);
    printf("wrote %s\n", csv);
    CUDA_CHECK(cudaFree(A));
    CUDA_CHECK(cudaFree(B));
    CUDA_CHECK(cudaFree(C));
    return EXIT_OK;
}
