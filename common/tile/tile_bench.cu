#include "tile/tile_bench.h"

#include "host/check.h"
#include "host/csv.h"
#include "host/rng.h"
#include "model/smem_model.h"
#include "tile/tile_transpose.cuh"

#include <stdlib.h>
#include <string.h>

static unsigned variant_slot(unsigned row, unsigned col, const void* v) {
    return ((const tile_variant*)v)->slot(row, col);
}

/* The wavefronts of a warp walking the variant's tile along a column (the kernel's loads). */
static int column_wavefronts(const tile_variant* v, unsigned r0, unsigned c, int* ideal) {
    smem_access a =
        smem_tile_access(v->elem_bytes, SMEM_LOAD, v->rows, v->cols, 1, r0, c, variant_slot, v);
    smem_report rep;
    if (smem_analyze(&a, &rep))
        die("%s: element offsets not aligned to %u", v->name, v->elem_bytes);
    *ideal = rep.ideal;
    return rep.wavefronts;
}

/* The wavefronts of warp w's k-th row store; dies if a lane's group leaves its chunk. */
static int row_store_wavefronts(const tile_variant* v, unsigned w, unsigned k, int* ideal) {
    smem_access a = smem_strided(v->elem_bytes * v->vec, SMEM_STORE, 1, 0);
    for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
        unsigned chunk, r, c, seen = 0;
        v->row_store(w, k, lane, &chunk, &r, &c);
        for (unsigned j = 0; j < v->vec; ++j) {
            unsigned s = v->slot(r, c + j);
            if (s / v->vec * v->vec != chunk || (seen >> (s % v->vec) & 1u))
                die("%s: row %u, columns %u..%u do not fill one %u-element chunk", v->name, r, c,
                    c + v->vec - 1, v->vec);
            seen |= 1u << (s % v->vec);
        }
        a.offset[lane] = chunk * v->elem_bytes;
    }
    smem_report rep;
    if (smem_analyze(&a, &rep)) die("%s: row stores not aligned", v->name);
    *ideal = rep.ideal;
    return rep.wavefronts;
}

void tile_model_of(const tile_variant* v, tile_model* m) {
    m->ld = m->st = -1;
    for (unsigned r0 = 0; r0 < v->rows; r0 += 32)
        for (unsigned c = 0; c < v->cols; ++c) {
            int wf = column_wavefronts(v, r0, c, &m->ld_ideal);
            if (m->ld >= 0 && wf != m->ld)
                die("%s: column %u needs %d wavefronts, column 0 %d", v->name, c, wf, m->ld);
            m->ld = wf;
        }
    for (unsigned w = 0; w < TILE_WARPS; ++w)
        for (unsigned k = 0; k < v->row_stores; ++k) {
            int wf = row_store_wavefronts(v, w, k, &m->st_ideal);
            if (m->st >= 0 && wf != m->st)
                die("%s: row store %u of warp %u needs %d wavefronts, the first %d", v->name, k, w,
                    wf, m->st);
            m->st = wf;
        }
}

/* Device buffers for `blocks` tiles, the input filled with random words from *seed. */
typedef struct {
    void *in, *out;
    unsigned* sums;
    unsigned char *h_in, *h_out;
    unsigned* h_sums;
    size_t bytes, n_sums;
} tile_buffers;

static void buffers_alloc(tile_buffers* b, const tile_variant* v, int blocks,
                          unsigned long long* seed) {
    b->bytes = (size_t)blocks * v->rows * v->cols * v->elem_bytes;
    b->n_sums = (size_t)blocks * TILE_THREADS;
    b->h_in = (unsigned char*)malloc(b->bytes);
    b->h_out = (unsigned char*)malloc(b->bytes);
    b->h_sums = (unsigned*)malloc(b->n_sums * sizeof(unsigned));
    if (!b->h_in || !b->h_out || !b->h_sums) die("out of host memory");
    for (size_t i = 0; i < b->bytes; ++i) b->h_in[i] = (unsigned char)rng_u32(seed);
    CUDA_CHECK(cudaMalloc(&b->in, b->bytes));
    CUDA_CHECK(cudaMalloc(&b->out, b->bytes));
    CUDA_CHECK(cudaMalloc(&b->sums, b->n_sums * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(b->in, b->h_in, b->bytes, cudaMemcpyHostToDevice));
}

static void buffers_free(tile_buffers* b) {
    CUDA_CHECK(cudaFree(b->in));
    CUDA_CHECK(cudaFree(b->out));
    CUDA_CHECK(cudaFree(b->sums));
    free(b->h_in);
    free(b->h_out);
    free(b->h_sums);
}

/* Poison, launch once, copy back, compare with the CPU. */
static size_t run_and_verify(const tile_variant* v, tile_buffers* b, int blocks, int iters) {
    CUDA_CHECK(cudaMemset(b->out, 0xff, b->bytes));
    CUDA_CHECK(cudaMemset(b->sums, 0xff, b->n_sums * sizeof(unsigned)));
    v->launch(blocks, b->in, b->out, iters, b->sums);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(b->h_out, b->out, b->bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(
        cudaMemcpy(b->h_sums, b->sums, b->n_sums * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return v->verify(b->h_in, b->h_out, b->h_sums, blocks, iters);
}

size_t tile_check(const tile_variant* v, unsigned long long* seed) {
    static const int shapes[][2] = {{1, 1}, {3, 2}}; /* blocks, loop iterations */
    size_t wrong = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        tile_buffers b;
        buffers_alloc(&b, v, shapes[s][0], seed);
        wrong += run_and_verify(v, &b, shapes[s][0], shapes[s][1]);
        buffers_free(&b);
    }
    return wrong;
}

typedef struct {
    const tile_variant* v;
    tile_buffers* b;
    int blocks, iters;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    (void)rep;
    bench_ctx* c = (bench_ctx*)p;
    c->v->launch(c->blocks, c->b->in, c->b->out, c->iters, c->b->sums);
}

tile_measurement tile_bench(const tile_variant* v, const course_device* dev, int iters,
                            int timed_reps, unsigned long long* seed) {
    tile_measurement m;
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v->kernel, TILE_THREADS, 0));
    if (per_sm < 1) die("%s does not fit on an SM", v->name);
    m.blocks = per_sm * dev->sm_count; /* one full wave */
    bench_warn_if_spilling(v->kernel, v->name);
    tile_buffers b;
    buffers_alloc(&b, v, m.blocks, seed);
    bench_ctx c = {v, &b, m.blocks, iters};
    m.t = bench_run(bench_launch, &c, 2, timed_reps, 1);
    m.wrong = run_and_verify(v, &b, m.blocks, iters);
    m.launches = m.t.launches + 1;
    double loads_per_sm = (double)per_sm * TILE_WARPS * iters * tile_unroll(v->elem_bytes);
    m.ns_per_load = m.t.median_ms * 1e6 / loads_per_sm;
    buffers_free(&b);
    return m;
}

FILE* tile_bank_maps_open(const char* csv, char* path, size_t len) {
    if (course_side_path(csv, TILE_BANK_MAPS, path, len)) die("--csv %s: too long a path", csv);
    FILE* f = fopen(path, "w");
    if (!f) die("cannot write %s", path);
    fprintf(f, "# bank maps: picture,row,col,bank; one block per picture, blocks separated by two\n"
               "# blank lines (gnuplot: index k using 3:2:4)\n");
    return f;
}

void tile_write_bank_map(FILE* f, const tile_variant* v, const char* picture) {
    csv_field(picture);
    for (unsigned r = 0; r < v->rows; ++r)
        for (unsigned c = 0; c < v->cols; ++c)
            fprintf(f, "%s,%u,%u,%u\n", picture, r, c, smem_bank(v->slot(r, c) * v->elem_bytes));
    fprintf(f, "\n\n");
}

static int find_variant(const tile_result* r, int n, const char* name) {
    for (int i = 0; i < n; ++i)
        if (!strcmp(r[i].v.name, name)) return i;
    return -1;
}

const tile_result* tile_find(const tile_result* r, int n, const char* name) {
    int i = find_variant(r, n, name);
    return i < 0 ? NULL : &r[i];
}

int tile_select(const tile_result* all, int n_all, const char* name, int with_baselines,
                tile_result* sel) {
    int n = 0;
    for (int i = 0; i < n_all; ++i)
        if (!name || !strcmp(name, all[i].v.name)) sel[n++] = all[i];
    for (int i = 0; with_baselines && i < n; ++i) {
        int b = find_variant(all, n_all, sel[i].baseline);
        if (b >= 0 && find_variant(sel, n, sel[i].baseline) < 0) sel[n++] = all[b];
    }
    return n;
}

void tile_model_table(const tile_result* r, int n) {
    printf("\nModel, per warp instruction (ideal in brackets), for every variant:\n");
    printf("%-16s %-30s %10s %12s %18s\n", "variant", "layout", "smem bytes", "column read",
           "row store");
    for (int i = 0; i < n; ++i)
        printf("%-16s %-30s %10u %8d (%d) %2u B: %6d (%d)\n", r[i].v.name, r[i].v.layout,
               r[i].v.slots * r[i].v.elem_bytes, r[i].model.ld, r[i].model.ld_ideal,
               r[i].v.vec * r[i].v.elem_bytes, r[i].model.st, r[i].model.st_ideal);
}

void tile_list(const tile_result* r, int n) {
    for (int i = 0; i < n; ++i)
        printf("%-16s %2u-byte, %-30s column read %2d wavefronts (ideal %d), row store %d\n",
               r[i].v.name, r[i].v.elem_bytes, r[i].v.layout, r[i].model.ld, r[i].model.ld_ideal,
               r[i].model.st);
}

int tile_run(tile_result* r, int n, const course_device* dev, int check, int bench, int iters,
             int timed_reps, unsigned long long seed) {
    int failed = 0;
    printf("random tiles from --seed %llu\n", seed);
    for (int i = 0; i < n; ++i) {
        /* Each variant's own stream: --variant NAME --seed S redraws exactly its tiles. */
        unsigned long long stream = seed;
        for (const char* c = r[i].v.name; *c; ++c)
            stream = (stream ^ (unsigned char)*c) * 1099511628211ull;
        size_t wrong = check ? tile_check(&r[i].v, &stream) : 0;
        if (bench) {
            r[i].m = tile_bench(&r[i].v, dev, iters, timed_reps, &stream);
            wrong += r[i].m.wrong;
        }
        if (wrong) {
            printf("  %s: %zu wrong elements or sums\n", r[i].v.name, wrong);
            failed = 1;
        }
    }
    if (check)
        printf("check: %s\n", failed ? "FAILED (reproduce with the --seed above)"
                                     : "every variant's transpose and sums are right");
    for (int i = 0; bench && i < n; ++i) {
        int j = find_variant(r, n, r[i].baseline);
        r[i].speedup = j < 0 ? NAN : r[j].m.t.median_ms / r[i].m.t.median_ms;
        r[i].model_speedup = j < 0 ? NAN : (double)r[j].model.ld / r[i].model.ld;
    }
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

void tile_print(const tile_result* r, int n) {
    printf("\n%-18s %-30s %6s %7s %8s %10s %8s %9s %9s %8s\n", "variant", "layout", "smem B",
           "col wf", "row wf", "median ms", "ns/load", "speedup", "model", "meas/");
    printf("%-18s %-30s %6s %7s %8s %10s %8s %9s %9s %8s\n", "", "", "", "(ideal)", "(ideal)", "",
           "per SM", "vs base", "speedup", "model");
    for (int i = 0; i < n; ++i) {
        char col[16], row[16];
        snprintf(col, sizeof col, "%d (%d)", r[i].model.ld, r[i].model.ld_ideal);
        snprintf(row, sizeof row, "%d (%d)", r[i].model.st, r[i].model.st_ideal);
        printf("%-18s %-30s %6u %7s %8s %10.4f %8.3f %9.2f %9.2f %8.3f\n", r[i].v.name,
               r[i].v.layout, r[i].v.slots * r[i].v.elem_bytes, col, row, r[i].m.t.median_ms,
               r[i].m.ns_per_load, r[i].speedup, r[i].model_speedup,
               r[i].speedup / r[i].model_speedup);
    }
}

void tile_write_csv(const char* path, const course_device* dev, const char* command_line,
                    const tile_result* r, int n) {
    FILE* f = csv_open(path, dev, command_line,
                       "variant,layout,elem_bytes,rows,cols,smem_bytes,model_col_wavefronts,"
                       "ideal_col_wavefronts,model_row_wavefronts,ideal_row_wavefronts,median_ms,"
                       "min_ms,max_ms,reps,ns_per_load,baseline,speedup,model_speedup,launches,"
                       "model_ld_wavefronts_per_request,model_st_wavefronts_per_request,"
                       "store_bytes");
    for (int i = 0; i < n; ++i)
        fprintf(f,
                "%s,%s,%u,%u,%u,%u,%d,%d,%d,%d,%.6f,%.6f,%.6f,%d,%.4f,%s,%.4f,%.4f,%d,%d,%d,%u\n",
                csv_field(r[i].v.name), csv_field(r[i].v.layout), r[i].v.elem_bytes, r[i].v.rows,
                r[i].v.cols, r[i].v.slots * r[i].v.elem_bytes, r[i].model.ld, r[i].model.ld_ideal,
                r[i].model.st, r[i].model.st_ideal, r[i].m.t.median_ms, r[i].m.t.min_ms,
                r[i].m.t.max_ms, r[i].m.t.reps, r[i].m.ns_per_load, csv_field(r[i].baseline),
                r[i].speedup, r[i].model_speedup, r[i].m.launches, r[i].model.ld, r[i].model.st,
                r[i].v.vec * r[i].v.elem_bytes);
    csv_close(f, path);
}

static void describe_tile(const void* variants, int i, const char** name, const void** kernel,
                          course_needs* need) {
    const tile_result* r = (const tile_result*)variants + i;
    *name = r->v.name;
    *kernel = r->v.kernel;
    need->threads = TILE_THREADS;
}

/* Keeps the variants of r[0..n) that run on t (needs.h), printing why each other does not; with
 * --list --gpu, every verdict. Returns how many are kept. */
static int tile_keep_runnable(const course_target* t, tile_result* r, int n) {
    int* runs = (int*)malloc((size_t)n * sizeof *runs);
    if (!runs) die("out of host memory");
    course_judge(t, r, n, describe_tile, runs);
    n = course_keep(r, sizeof *r, n, runs);
    free(runs);
    return n;
}

int tile_main(const tile_chapter* ch, const tile_result* all, int n_all, int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(ch->cli, argc, argv, &args);
    if (rc >= 0) return rc;
    /* Names end up in the CSV: check them here, on any machine, not after the benchmark. */
    for (int i = 0; i < n_all; ++i) {
        csv_field(all[i].v.name);
        csv_field(all[i].v.layout);
    }
    tile_result* sel = (tile_result*)malloc((size_t)n_all * sizeof *sel);
    if (!sel) die("out of host memory");
    int n = tile_select(all, n_all, args.variant, !args.check && !args.list, sel);
    int lesson = !args.check && !args.bench && !args.list;
    if (!n)
        rc = course_usage_error(ch->cli, "unknown variant '%s' (see --list)", args.variant);
    else if (args.list) {
        tile_list(sel, n);
        course_target t;
        if (course_target_of_table(args.gpu, &t))
            course_chapter_verdict(&t, tile_keep_runnable(&t, sel, n), NULL, 1);
        rc = EXIT_OK;
    } else {
        if (lesson) ch->lesson(all, n_all);
        if (args.csv) {
            char path[COURSE_PATH_MAX];
            FILE* f = tile_bank_maps_open(args.csv, path, sizeof path);
            ch->bank_maps(f, all, n_all);
            csv_close(f, path);
        }
        course_device dev;
        rc = course_device_open(&dev, 7, 5, ch->what);
        course_target t;
        if (rc == EXIT_OK) {
            course_device_print(&dev);
            course_target_of_device(&dev, &t);
            n = tile_keep_runnable(&t, sel, n);
            rc = course_chapter_verdict(&t, n, args.variant,
                                        !args.variant || tile_find(sel, n, args.variant) != NULL);
        }
        if (rc == EXIT_OK) {
            rc = tile_run(sel, n, &dev, args.check || lesson, !args.check, (int)args.size,
                          (int)args.reps, args.seed);
            if (!args.check) {
                tile_print(sel, n);
                if (args.csv) tile_write_csv(args.csv, &dev, args.command_line, sel, n);
                if (lesson) ch->summary(&dev, sel, n);
            }
        }
    }
    free(sel);
    return rc;
}
