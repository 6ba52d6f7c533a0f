/* Chapter 08, part 4's run (shapes.h): sgemm_auto and part 2's best kernels on a sweep of shapes
 * against cuBLAS, what auto plans at each, and the check of every path it can take. */
#include "shapes.h"
#include "sgemm.h"
#include "sgemm_auto_run.h"
#include "gemm/harness.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/csv.h"
#include "host/picture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A variant of this part: the harness's record, and for auto forced onto one path, the path. */
typedef struct {
    gemm_variant g;
    int forced; /* 1: checked, not timed */
    sgemm_choice choice;
    int cp_async;
} shapes_variant;

static const shapes_variant* shapes_at(const course_variants* t, int i) {
    return (const shapes_variant*)course_variant_at(t, i);
}

/* ---------------------------------------------------------------- the variants */

template <int TILE, int SPLIT, int CP_ASYNC>
static void launch_forced(const gemm_call* c) {
    const sgemm_choice choice = {(sgemm_tile)TILE, (sgemm_split)SPLIT};
    const sgemm_plan p = sgemm_auto_plan(c, &choice, CP_ASYNC);
    sgemm_auto_run(c, &p);
}

/* Its kernel and needs are sgemm_auto_kernel's, filled in by shapes_variants. */
#define FORCED(NAME, TILE, SPLIT, CP_ASYNC, FEED)                                                  \
    {                                                                                              \
        .g = {.v = {.name = NAME, .number = 15, .description = "auto forced: " FEED},              \
              .launch = launch_forced<TILE, SPLIT, CP_ASYNC>,                                      \
              .any_ld = 1},                                                                        \
        .forced = 1, .choice = {(sgemm_tile)TILE, (sgemm_split)SPLIT}, .cp_async = CP_ASYNC        \
    }

/* Part 2's kernels timed beside auto: its best on the TMA, the 128 x 256 tile, chapter 06's
 * geometry on the TMA, cuBLAS's geometry on cp.async, and chapter 06's best. */
static const char* const FIXED[] = {"tma_wide_3", "tma_wide_256", "tma_3", "wide_3_swizzled",
                                    "ch06_best"};
enum { N_FIXED = sizeof FIXED / sizeof FIXED[0] };

static shapes_variant VARIANTS[3 + N_FIXED + 12] = {
    {.g = {.v = {.name = "cublas",
                 .description = "cuBLAS SGEMM, default math mode: the baseline",
                 .baseline = 1},
           .launch = gemm_launch_cublas,
           .any_ld = 1}},
    /* its kernel and needs: its cp.async kernel's, what it falls back to (shapes_variants) */
    {.g = {.v = {.name = "auto",
                 .number = 15,
                 .description = "sgemm_auto: tile and split from the table, the TMA where there "
                                "is one, unaligned operands packed, stream-K for the last waves"},
           .launch = sgemm_auto,
           .any_ld = 1}},
};
static int n_variants;

course_variants shapes_variants(void) {
    if (n_variants) return course_variants_of(VARIANTS, sizeof VARIANTS[0], n_variants);
    n_variants = 2;
    const course_variants part2 = sgemm_variants();
    for (int i = 0; i < N_FIXED; ++i) {
        const int at = course_find_variant(&part2, FIXED[i]);
        if (at < 0) die("shapes: part 2 has no variant %s", FIXED[i]);
        VARIANTS[n_variants++].g = ((const sgemm_variant*)course_variant_at(&part2, at))->g;
    }
    const shapes_variant forced[] = {
        FORCED("auto_128_dp", 0, 0, 0, "128 x 128, data-parallel, the TMA"),
        FORCED("auto_128_sk", 0, 1, 0, "128 x 128, stream-K, the TMA"),
        FORCED("auto_256_dp", 1, 0, 0, "128 x 256, data-parallel, the TMA"),
        FORCED("auto_256_sk", 1, 1, 0, "128 x 256, stream-K, the TMA"),
        FORCED("auto_128t_dp", 2, 0, 0, "128 x 128 on 128 threads, data-parallel, the TMA"),
        FORCED("auto_128t_sk", 2, 1, 0, "128 x 128 on 128 threads, stream-K, the TMA"),
        FORCED("auto_128_dp_cp", 0, 0, 1, "128 x 128, data-parallel, cp.async"),
        FORCED("auto_128_sk_cp", 0, 1, 1, "128 x 128, stream-K, cp.async"),
        FORCED("auto_256_dp_cp", 1, 0, 1, "128 x 256, data-parallel, cp.async"),
        FORCED("auto_256_sk_cp", 1, 1, 1, "128 x 256, stream-K, cp.async"),
        FORCED("auto_128t_dp_cp", 2, 0, 1, "128 x 128 on 128 threads, data-parallel, cp.async"),
        FORCED("auto_128t_sk_cp", 2, 1, 1, "128 x 128 on 128 threads, stream-K, cp.async"),
    };
    for (size_t i = 0; i < sizeof forced / sizeof forced[0]; ++i)
        VARIANTS[n_variants++] = forced[i];
    /* What auto and each forced path run, declared so that the verdict on a GPU and a build skips
     * them with the reason (auto: its cp.async kernel, which it runs wherever the TMA's is not) */
    for (int i = 0; i < n_variants; ++i) {
        shapes_variant* x = &VARIANTS[i];
        if (!x->forced && x->g.launch != sgemm_auto) continue;
        const course_variant k =
            x->forced ? sgemm_auto_kernel(x->choice.tile, x->choice.split, !x->cp_async)
                      : sgemm_auto_kernel(SGEMM_TILE_128x128, SGEMM_DATA_PARALLEL, 0);
        x->g.v.kernel = k.kernel;
        x->g.v.needs = k.needs;
    }
    return course_variants_of(VARIANTS, sizeof VARIANTS[0], n_variants);
}

/* ---------------------------------------------------------------- the sweep */

typedef struct {
    gemm_shape s;
    const char* kind; /* cube, odd, tall, wide, long_k, short_k */
} sweep_shape;

static const sweep_shape SWEEP[] = {
    {{1024, 1024, 1024}, "cube"},    {{1536, 1536, 1536}, "cube"},
    {{2048, 2048, 2048}, "cube"},    {{3072, 3072, 3072}, "cube"},
    {{4096, 4096, 4096}, "cube"},    {{6144, 6144, 6144}, "cube"},
    {{8192, 8192, 8192}, "cube"},    {{1031, 1031, 1031}, "odd"},
    {{1537, 1537, 1537}, "odd"},     {{2047, 2047, 2047}, "odd"},
    {{3001, 3001, 3001}, "odd"},     {{4097, 4097, 4097}, "odd"},
    {{5003, 5003, 5003}, "odd"},     {{7001, 7001, 7001}, "odd"},
    {{8191, 8191, 8191}, "odd"},     {{8192, 1024, 4096}, "tall"},
    {{8192, 2048, 1024}, "tall"},    {{6007, 1031, 2003}, "tall"},
    {{1024, 8192, 4096}, "wide"},    {{2048, 8192, 1024}, "wide"},
    {{1031, 6007, 2003}, "wide"},    {{1024, 1024, 8192}, "long_k"},
    {{1024, 2048, 8192}, "long_k"},  {{1531, 1531, 8191}, "long_k"},
    {{2048, 2048, 8192}, "long_k"},  {{8192, 8192, 1024}, "short_k"},
    {{4096, 4096, 1024}, "short_k"}, {{6007, 6007, 1031}, "short_k"},
};
enum { N_SWEEP = sizeof SWEEP / sizeof SWEEP[0] };

/* The sweep's shapes with every side within --size (all of them at the default 8192); --shape
 * alone; with none within --size, N^3 and (N/2 + 1)^3. */
static int sweep_shapes(const course_args* a, sweep_shape* out) {
    if (a->shape_given) {
        out[0].s = gemm_shape{(int)a->shape[0], (int)a->shape[1], (int)a->shape[2]};
        out[0].kind = "given";
        return 1;
    }
    int n = 0;
    for (int i = 0; i < N_SWEEP; ++i)
        if (SWEEP[i].s.M <= a->size && SWEEP[i].s.N <= a->size && SWEEP[i].s.K <= a->size)
            out[n++] = SWEEP[i];
    if (n == 0) {
        const int N = (int)a->size;
        out[n++] = sweep_shape{{N, N, N}, "cube"};
        if (N > 1) out[n++] = sweep_shape{{N / 2 + 1, N / 2 + 1, N / 2 + 1}, "odd"};
    }
    return n;
}

/* ---------------------------------------------------------------- the lesson */

/* What auto plans on an H200 (132 SMs; blocks an SM, the occupancy API's: 2 of 128 x 128 a tile a
 * block, 1 walking, 1 of 128 x 256 either way, 2 of 128 x 128 on 128 threads either way), from the
 * built-in table, for dense matrices from 16-byte aligned allocations. */
static sgemm_gpu h200(void) {
    sgemm_gpu g = {132, 1, {{2, 1}, {1, 1}, {2, 2}}, 1};
    return g;
}

void shapes_print_lesson(const course_variants* t) {
    course_print_variants(t);
    static sgemm_table table;
    char why[256];
    if (sgemm_table_parse(sgemm_table_h200, &table, why, sizeof why))
        die("the built-in table: %s", why);
    const sgemm_gpu g = h200();
    printf("\nWhat auto plans on an H200 (132 SMs; blocks an SM: 128 x 128 2 data-parallel, 1 "
           "stream-K; 128 x 256 1; 128 x 128 on 128 threads 2), dense matrices:\n");
    for (int i = 0; i < N_SWEEP; ++i) {
        const gemm_shape s = SWEEP[i].s;
        const sgemm_choice c = sgemm_table_choice(&table, &g, s.M, s.N, s.K);
        const sgemm_plan p = sgemm_plan_for(s.M, s.N, s.K, s.K, s.N, 0, 0, &g, c);
        char line[256];
        sgemm_plan_describe(&p, line, sizeof line);
        char sh[32];
        snprintf(sh, sizeof sh, "%dx%dx%d", s.M, s.N, s.K);
        printf("  %-16s %-8s %s\n", sh, SWEEP[i].kind, line);
    }
}

/* ---------------------------------------------------------------- the picture */

/* One plan's blocks on the slots, a row a slot: block b's range in segments, one box a tile's
 * part (labelled with the tile, coloured by it), placed where the slot reaches it: data-parallel
 * blocks in waves, stream-K blocks after them, one a slot. */
static size_t place_blocks(const sgemm_plan* p, double y0, course_cell* cells, size_t n) {
    const gemm_work* w = &p->work;
    for (int b = 0; b < gemm_work_blocks(w); ++b) {
        long long lo, hi;
        gemm_work_range(w, b, &lo, &hi);
        const int dp = b < w->whole, slot = dp ? b % p->slots : b - w->whole;
        double x =
            dp ? (double)(b / p->slots) * w->slices : (double)(w->whole / p->slots) * w->slices;
        for (long long i = lo; i < hi;) {
            const long long tile = i / w->slices,
                            end = (tile + 1) * w->slices < hi ? (tile + 1) * w->slices : hi;
            const int whole = end - i == w->slices;
            cells[n] = course_cell_at(x, y0 + slot, (int)(tile % 32),
                                      whole ? "tile %lld" : "%lld: part", tile);
            cells[n++].w = (double)(end - i);
            x += (double)(end - i);
            i = end;
        }
    }
    return n;
}

/* A 384 x 512 x 256 product (12 tiles of 128 x 128, 8 K-slices of 32 each) on a GPU of 8 slots,
 * as sgemm_plan_for divides it: data-parallel, the last wave half empty; stream-K, every slot 12
 * slices. */
static int draw_stream_k(const char* dir) {
    enum { SLOTS = 8, GAP = 2 };
    const sgemm_gpu g = {SLOTS, 1, {{1, 1}, {1, 1}}};
    const sgemm_choice dp = {SGEMM_TILE_128x128, SGEMM_DATA_PARALLEL},
                       sk = {SGEMM_TILE_128x128, SGEMM_STREAM_K};
    const sgemm_plan a = sgemm_plan_for(384, 512, 256, 256, 512, 0, 0, &g, dp),
                     b = sgemm_plan_for(384, 512, 256, 256, 512, 0, 0, &g, sk);
    if (!b.work.sk_blocks) die("the stream-K picture: the plan did not share the tiles");
    static course_cell cells[64];
    size_t n = 0;
    cells[n] = course_cell_at(0, 0, -1, "dp: fill %.0f%%", 100 * a.fill);
    cells[n++].w = 16;
    n = place_blocks(&a, 1, cells, n);
    cells[n] = course_cell_at(0, 1 + SLOTS + GAP - 1, -1, "sk: fill %.0f%%", 100 * b.fill);
    cells[n++].w = 16;
    n = place_blocks(&b, 1 + SLOTS + GAP, cells, n);
    static const course_picture pic = {
        .name = "08_stream_k",
        .title = "12 tiles of 8 K-slices on 8 slots (sgemm_plan_for's two divisions of a 384 x 512 "
                 "x 256 product)",
        .key = "a box is a block's work on one tile, as long as its slices; 'part': a share of a "
               "tile, summed into C by the fixup",
        .xlabel = "time on the slot, in K-slices",
        .ylabel = "slot",
        .columns = 16,
        .rows = 1 + SLOTS + GAP + SLOTS,
        .xtics = 4,
        .ytics = 0,
        .width = 1200,
        .height = 700};
    return course_picture_draw(dir, &pic, cells, n);
}

int shapes_pictures(const char* dir) {
    return draw_stream_k(dir);
}

/* ---------------------------------------------------------------- the CSV */

static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0},    {"kernel", CSV_INT, 0},    {"kind", CSV_TEXT, 0},
    {"shape", CSV_TEXT, 0},      {"M", CSV_INT, 0},         {"N", CSV_INT, 0},
    {"K", CSV_INT, 0},           {"tile", CSV_TEXT, 0},     {"split", CSV_TEXT, 0},
    {"feed", CSV_TEXT, 0},       {"tiles", CSV_INT, 0},     {"slots", CSV_INT, 0},
    {"whole", CSV_INT, 0},       {"sk_blocks", CSV_INT, 0}, {"fill", CSV_REAL, 3},
    {"packed", CSV_TEXT, 0},     {"pack_ms", CSV_REAL, 6},  {"pack_share", CSV_REAL, 4},
    {"edge_rows", CSV_INT, 0},   {"edge_cols", CSV_INT, 0}, {"edge_ms", CSV_REAL, 6},
    {"edge_share", CSV_REAL, 4}, GEMM_CSV_RESULT_COLUMNS,
};

typedef struct {
    const char* kind;
    sgemm_plan plan; /* auto's, on dense matrices */
    double pack_ms;  /* auto's packing alone, 0 when it packs nothing (beside the tiles: the
                        packing it hides, had it packed first) */
    double edge_ms;  /* auto's edges alone, 0 when it has none */
} shape_info;

static const shape_info* info_of(const shape_info* info, const sweep_shape* s, int n,
                                 gemm_shape x) {
    for (int i = 0; i < n; ++i)
        if (s[i].s.M == x.M && s[i].s.N == x.N && s[i].s.K == x.K) return &info[i];
    return NULL;
}

/* What auto packs: none, A, B or AB, first, "beside" the tiles or "along" their walk. */
static const char* packed_name(const sgemm_plan* p) {
    static const char* const NAMES[3][4] = {{"none", "A", "B", "AB"},
                                            {"none", "A beside", "B beside", "AB beside"},
                                            {"none", "A along", "B along", "AB along"}};
    return NAMES[p->pack_along   ? 2
                 : p->pack_spare ? 1
                                 : 0][(p->pack_a ? 1 : 0) + (p->pack_b ? 2 : 0)];
}

static void write_csv(const char* path, const course_device* dev, const char* cmd,
                      const gemm_measurement* m, int n, const sweep_shape* s,
                      const shape_info* info, int n_s) {
    csv_table t;
    csv_table_open(&t, path, dev, cmd, COLUMNS, sizeof COLUMNS / sizeof COLUMNS[0]);
    for (int i = 0; i < n; ++i) {
        const shape_info* x = info_of(info, s, n_s, m[i].s);
        const int is_auto = m[i].v->launch == sgemm_auto;
        const sgemm_plan* p = &x->plan;
        char sh[48];
        snprintf(sh, sizeof sh, "%dx%dx%d", m[i].s.M, m[i].s.N, m[i].s.K);
        csv_text(&t, "variant", m[i].v->v.name);
        csv_int(&t, "kernel", m[i].v->v.number);
        csv_text(&t, "kind", x->kind);
        csv_text(&t, "shape", sh);
        csv_int(&t, "M", m[i].s.M);
        csv_int(&t, "N", m[i].s.N);
        csv_int(&t, "K", m[i].s.K);
        csv_text(&t, "tile", is_auto ? sgemm_tile_name(p->choice.tile) : "");
        csv_text(&t, "split", is_auto ? sgemm_split_name(p->choice.split) : "");
        csv_text(&t, "feed", is_auto ? (p->tma ? "tma" : "cp.async") : "");
        csv_int(&t, "tiles", is_auto ? p->tiles : 0);
        csv_int(&t, "slots", is_auto ? p->slots : 0);
        csv_int(&t, "whole", is_auto ? p->work.whole : 0);
        csv_int(&t, "sk_blocks", is_auto ? p->work.sk_blocks : 0);
        csv_real(&t, "fill", is_auto ? p->fill : 0.0);
        csv_text(&t, "packed", is_auto ? packed_name(p) : "");
        csv_real(&t, "pack_ms", is_auto ? x->pack_ms : 0.0);
        csv_real(&t, "pack_share", is_auto ? x->pack_ms / m[i].t.median_ms : 0.0);
        csv_int(&t, "edge_rows", is_auto ? p->edge_rows : 0);
        csv_int(&t, "edge_cols", is_auto ? p->edge_cols : 0);
        csv_real(&t, "edge_ms", is_auto ? x->edge_ms : 0.0);
        csv_real(&t, "edge_share", is_auto ? x->edge_ms / m[i].t.median_ms : 0.0);
        gemm_csv_result(&t, &m[i]);
        csv_end_row(&t);
    }
    csv_table_close(&t);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- packing's and edges' cost */

typedef struct {
    gemm_call c;
    sgemm_plan p;
    int pack, edges;
} side_work_ctx;

static void side_work_launch(void* x, int rep) {
    (void)rep;
    const side_work_ctx* b = (const side_work_ctx*)x;
    sgemm_auto_side_work(&b->c, &b->p, b->pack, b->edges);
}

/* What auto's packing (pack) or its edges (!pack) cost alone at shape s when its matrices are
 * dense: the median of reps; 0 where the plan has none. In the call the packing comes before the
 * tiles and the edges run beside them (a second stream): edge_ms is what they would add alone. */
static double side_work_ms(gemm_shape s, const sgemm_plan* p, int reps, int pack) {
    if (pack ? !p->pack_a && !p->pack_b : !p->edge_patches) return 0.0;
    course_buffer A = course_buffer_alloc((size_t)s.M * s.K * 4),
                  B = course_buffer_alloc((size_t)s.K * s.N * 4),
                  C = course_buffer_alloc((size_t)s.M * s.N * 4);
    CUDA_CHECK(cudaMemset(A.dev, 0, A.bytes));
    CUDA_CHECK(cudaMemset(B.dev, 0, B.bytes));
    side_work_ctx b = {gemm_call_dense(s.M, s.N, s.K, 1.0f, (const float*)A.dev,
                                       (const float*)B.dev, 0.0f, (float*)C.dev),
                       *p, pack, !pack};
    const bench_result r = bench_run(side_work_launch, &b, 2, reps, 0);
    course_buffer_free(&A);
    course_buffer_free(&B);
    course_buffer_free(&C);
    return r.median_ms;
}

/* ---------------------------------------------------------------- the part */

/* Shapes past the harness's, where the plans take their other paths on an H200: stream-K blocks
 * behind waves of whole tiles (23 x 23 tiles, K = 100: 396 whole, 133 shared), the wide tile's
 * on 132 slots, short K past the stream-K floor (every block a whole tile), and the packing
 * beside one wave of wide tiles (128 tiles, 4 blocks over, 1 of 2 chunks of K packed first). */
static const gemm_shape PATHS[] = {
    {2900, 2900, 100}, {1100, 4100, 300}, {700, 900, 40}, {2047, 2047, 301}};

int shapes_run(const char* program, const course_args* a, const course_device* dev,
               const course_variants* running, int lesson) {
    const sgemm_table* table = sgemm_auto_table();
    const sgemm_gpu* g = sgemm_auto_gpu();
    printf("auto: %d SMs, the %s feeds the kernels, blocks an SM %d and %d (128 x 128, "
           "data-parallel and stream-K), %d and %d (128 x 256), %d and %d (128 x 128, 128 "
           "threads); its table: "
           "%s (%d rows)\n",
           g->sms, g->tma ? "TMA" : "cp.async", g->blocks_per_sm[0][0], g->blocks_per_sm[0][1],
           g->blocks_per_sm[1][0], g->blocks_per_sm[1][1], g->blocks_per_sm[2][0],
           g->blocks_per_sm[2][1], table->source, table->n);
    shapes_variant* all = (shapes_variant*)malloc((running->n + 1) * sizeof *all);
    if (!all) die("out of host memory");
    int n_all = 0, n_timed = 0;
    for (int i = 0; i < running->n; ++i) /* the timed ones first: the benchmark's table */
        if (!shapes_at(running, i)->forced) all[n_all++] = *shapes_at(running, i);
    n_timed = n_all;
    for (int i = 0; i < running->n; ++i)
        if (shapes_at(running, i)->forced) all[n_all++] = *shapes_at(running, i);
    /* Judged, auto and its forced paths are plans, not a kernel: they launch what each call's plan
     * picks (and grant it its shared memory), so no one kernel's resources, launch count or
     * attribute stands for them in the harness. */
    for (int i = 0; i < n_all; ++i)
        if (all[i].forced || all[i].g.launch == sgemm_auto) all[i].g.v.kernel = NULL;
    course_variants table_all = course_variants_of(all, sizeof *all, n_all);
    course_variants timed = course_variants_of(all, sizeof *all, n_timed);
    gemm_cublas_open();
    gemm_configure(&table_all);
    int bad = 0;
    if (a->check || lesson) {
        /* the variant named, else all */
        shapes_variant* sel = (shapes_variant*)malloc((n_all + 1) * sizeof *sel);
        if (!sel) die("out of host memory");
        int n_sel = 0;
        for (int i = 0; i < n_all; ++i)
            if (!a->variant || !strcmp(a->variant, all[i].g.v.name)) sel[n_sel++] = all[i];
        const course_variants checked = course_variants_of(sel, sizeof *sel, n_sel);
        bad = gemm_run_check(program, &checked, a, a->size_given ? (int)a->size : 1024) != EXIT_OK;
        if (!a->shape_given && !a->size_given) {
            course_args one = *a;
            one.shape_given = 1;
            for (size_t k = 0; k < sizeof PATHS / sizeof PATHS[0] && !bad; ++k) {
                for (int d = 0; d < 3; ++d)
                    one.shape[d] = d == 0 ? PATHS[k].M : d == 1 ? PATHS[k].N : PATHS[k].K;
                bad |= gemm_run_check(program, &checked, &one, 0) != EXIT_OK;
            }
        }
        free(sel);
    }
    if (!bad && !a->check && timed.n) {
        sweep_shape s[N_SWEEP];
        const int n_s = sweep_shapes(a, s);
        gemm_shape shapes[N_SWEEP];
        shape_info info[N_SWEEP];
        for (int k = 0; k < n_s; ++k) {
            shapes[k] = s[k].s;
            const gemm_call c =
                gemm_call_dense(s[k].s.M, s[k].s.N, s[k].s.K, 1.0f, NULL, NULL, 0.0f, NULL);
            info[k].kind = s[k].kind;
            info[k].plan = sgemm_auto_plan(&c, NULL, 0);
            info[k].pack_ms = side_work_ms(s[k].s, &info[k].plan, 10, 1);
            info[k].edge_ms = side_work_ms(s[k].s, &info[k].plan, 10, 0);
            char line[256];
            sgemm_plan_describe(&info[k].plan, line, sizeof line);
            printf("auto at %dx%dx%d: %s\n", s[k].s.M, s[k].s.N, s[k].s.K, line);
        }
        static gemm_measurement m[N_SWEEP * 16];
        const int n = gemm_run_bench_at(program, &timed, a, shapes, n_s, m);
        gemm_print_measurements(m, n);
        for (int i = 0; i < n; ++i) bad |= gemm_wrong(&m[i]);
        double worst = 1e30;
        const gemm_measurement* at = NULL;
        for (int i = 0; i < n; ++i)
            if (m[i].v->launch == sgemm_auto && m[i].of_cublas < worst)
                worst = m[i].of_cublas, at = &m[i];
        if (at)
            printf("auto's worst shape: %dx%dx%d at %.1f%% of cuBLAS\n", at->s.M, at->s.N, at->s.K,
                   100 * worst);
        if (a->csv) {
            char path[COURSE_PATH_MAX];
            if (course_side_path(a->csv, SHAPES_CSV, path, sizeof path))
                die("the side file's path is too long");
            write_csv(path, dev, a->command_line, m, n, s, info, n_s);
        }
        if (bad) printf("benchmark: some outputs were WRONG (see above)\n");
    }
    free(all);
    return bad;
}
