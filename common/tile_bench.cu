#include "tile_bench.h"

#include "check.h"
#include "csv.h"
#include "smem_model.h"
#include "tile_transpose.cuh"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned variant_slot(unsigned row, unsigned col, const void* v) {
    return ((const tile_variant*)v)->slot(row, col);
}

/* The wavefronts of a warp walking the variant's tile along a column or a row. */
static int access_wavefronts(const tile_variant* v, smem_op op, unsigned r0, unsigned c0,
                             int along_column, int* ideal) {
    smem_access a = smem_tile_access(v->elem_bytes, op, v->rows, v->cols, along_column, r0, c0,
                                     variant_slot, v);
    smem_report rep;
    if (smem_analyze(&a, &rep))
        die("%s: element offsets not aligned to %u", v->name, v->elem_bytes);
    *ideal = rep.ideal;
    return rep.wavefronts;
}

void tile_model_of(const tile_variant* v, tile_model* m) {
    m->ld = m->st = -1;
    for (unsigned r0 = 0; r0 < v->rows; r0 += 32)
        for (unsigned c = 0; c < v->cols; ++c) {
            int wf = access_wavefronts(v, SMEM_LOAD, r0, c, 1, &m->ld_ideal);
            if (m->ld >= 0 && wf != m->ld)
                die("%s: column %u needs %d wavefronts, column 0 %d", v->name, c, wf, m->ld);
            m->ld = wf;
        }
    for (unsigned r = 0; r < v->rows; ++r)
        for (unsigned c0 = 0; c0 < v->cols; c0 += 32) {
            int wf = access_wavefronts(v, SMEM_STORE, r, c0, 0, &m->st_ideal);
            if (m->st >= 0 && wf != m->st)
                die("%s: row %u needs %d wavefronts, row 0 %d", v->name, r, wf, m->st);
            m->st = wf;
        }
}

/* Device buffers for `blocks` tiles, the input filled with fresh random words. */
typedef struct {
    void *in, *out;
    unsigned* sums;
    unsigned char *h_in, *h_out;
    unsigned* h_sums;
    size_t bytes, n_sums;
} tile_buffers;

static unsigned random_word(unsigned long long* s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (unsigned)(*s >> 16);
}

static void buffers_alloc(tile_buffers* b, const tile_variant* v, int blocks) {
    static unsigned long long seed;
    if (!seed) seed = (unsigned long long)time(NULL) * 2654435761ull | 1;
    b->bytes = (size_t)blocks * v->rows * v->cols * v->elem_bytes;
    b->n_sums = (size_t)blocks * TILE_THREADS;
    b->h_in = (unsigned char*)malloc(b->bytes);
    b->h_out = (unsigned char*)malloc(b->bytes);
    b->h_sums = (unsigned*)malloc(b->n_sums * sizeof(unsigned));
    if (!b->h_in || !b->h_out || !b->h_sums) die("out of host memory");
    for (size_t i = 0; i < b->bytes / 4; ++i) ((unsigned*)b->h_in)[i] = random_word(&seed);
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
static size_t run_and_verify(const tile_variant* v, tile_buffers* b, int blocks, int reps) {
    CUDA_CHECK(cudaMemset(b->out, 0xff, b->bytes));
    CUDA_CHECK(cudaMemset(b->sums, 0xff, b->n_sums * sizeof(unsigned)));
    v->launch(blocks, b->in, b->out, reps, b->sums);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(b->h_out, b->out, b->bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(
        cudaMemcpy(b->h_sums, b->sums, b->n_sums * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return v->verify(b->h_in, b->h_out, b->h_sums, blocks, reps);
}

size_t tile_check(const tile_variant* v) {
    static const int shapes[][2] = {{1, 1}, {3, 2}}; /* blocks, loop iterations */
    size_t wrong = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        tile_buffers b;
        buffers_alloc(&b, v, shapes[s][0]);
        wrong += run_and_verify(v, &b, shapes[s][0], shapes[s][1]);
        buffers_free(&b);
    }
    return wrong;
}

typedef struct {
    const tile_variant* v;
    tile_buffers* b;
    int blocks, reps;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    (void)rep;
    bench_ctx* c = (bench_ctx*)p;
    c->v->launch(c->blocks, c->b->in, c->b->out, c->reps, c->b->sums);
}

tile_measurement tile_bench(const tile_variant* v, const course_device* dev, int reps,
                            int timed_reps) {
    tile_measurement m;
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v->kernel, TILE_THREADS, 0));
    if (per_sm < 1) die("%s does not fit on an SM", v->name);
    m.blocks = per_sm * dev->sm_count; /* one full wave */
    bench_warn_if_spilling(v->kernel, v->name);
    tile_buffers b;
    buffers_alloc(&b, v, m.blocks);
    bench_ctx c = {v, &b, m.blocks, reps};
    m.t = bench_run(bench_launch, &c, 2, timed_reps, 1);
    m.wrong = run_and_verify(v, &b, m.blocks, reps);
    m.launches = m.t.launches + 1;
    double loads_per_sm = (double)per_sm * TILE_WARPS * reps * tile_unroll(v->elem_bytes);
    m.ns_per_load = m.t.median_ms * 1e6 / loads_per_sm;
    buffers_free(&b);
    return m;
}

FILE* tile_bank_maps_open(const char* csv, char* path, size_t len) {
    size_t n = strlen(csv);
    int stem = (int)(n > 4 && !strcmp(csv + n - 4, ".csv") ? n - 4 : n);
    snprintf(path, len, "%.*s_banks.csv", stem, csv);
    FILE* f = fopen(path, "w");
    if (!f) die("cannot write %s", path);
    fprintf(f, "# bank maps: picture,row,col,bank; one block per picture, blocks separated by two\n"
               "# blank lines (gnuplot: index k using 3:2:4)\n");
    return f;
}

void tile_write_bank_map(FILE* f, const tile_variant* v, const char* picture) {
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

void tile_list(const tile_result* r, int n) {
    for (int i = 0; i < n; ++i)
        printf("%-16s %2u-byte, %-22s column read %2d wavefronts (ideal %d), row write %d\n",
               r[i].v.name, r[i].v.elem_bytes, r[i].v.layout, r[i].model.ld, r[i].model.ld_ideal,
               r[i].model.st);
}

int tile_run(tile_result* r, int n, const course_device* dev, int check, int bench, int reps,
             int timed) {
    int failed = 0;
    for (int i = 0; i < n; ++i) {
        tile_model_of(&r[i].v, &r[i].model);
        size_t wrong = check ? tile_check(&r[i].v) : 0;
        if (bench) {
            r[i].m = tile_bench(&r[i].v, dev, reps, timed);
            wrong += r[i].m.wrong;
        }
        if (wrong) {
            printf("  %s: %zu wrong elements or sums\n", r[i].v.name, wrong);
            failed = 1;
        }
    }
    if (check)
        printf("check: %s\n", failed ? "FAILED" : "every variant's transpose and sums are right");
    for (int i = 0; bench && i < n; ++i) {
        int j = find_variant(r, n, r[i].baseline);
        r[i].speedup = j < 0 ? NAN : r[j].m.t.median_ms / r[i].m.t.median_ms;
        r[i].model_speedup = j < 0 ? NAN : (double)r[j].model.ld / r[i].model.ld;
    }
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

void tile_print(const tile_result* r, int n) {
    printf("\n%-18s %-24s %6s %7s %8s %10s %8s %9s %9s %8s\n", "variant", "layout", "smem B",
           "col wf", "row wf", "median ms", "ns/load", "speedup", "model", "meas/");
    printf("%-18s %-24s %6s %7s %8s %10s %8s %9s %9s %8s\n", "", "", "", "(ideal)", "(ideal)", "",
           "per SM", "vs base", "speedup", "model");
    for (int i = 0; i < n; ++i) {
        char col[16], row[16];
        snprintf(col, sizeof col, "%d (%d)", r[i].model.ld, r[i].model.ld_ideal);
        snprintf(row, sizeof row, "%d (%d)", r[i].model.st, r[i].model.st_ideal);
        printf("%-18s %-24s %6u %7s %8s %10.4f %8.3f %9.2f %9.2f %8.3f\n", r[i].v.name,
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
                       "model_ld_wavefronts_per_request,model_st_wavefronts_per_request");
    for (int i = 0; i < n; ++i)
        fprintf(f, "%s,%s,%u,%u,%u,%u,%d,%d,%d,%d,%.6f,%.6f,%.6f,%d,%.4f,%s,%.4f,%.4f,%d,%d,%d\n",
                r[i].v.name, r[i].v.layout, r[i].v.elem_bytes, r[i].v.rows, r[i].v.cols,
                r[i].v.slots * r[i].v.elem_bytes, r[i].model.ld, r[i].model.ld_ideal, r[i].model.st,
                r[i].model.st_ideal, r[i].m.t.median_ms, r[i].m.t.min_ms, r[i].m.t.max_ms,
                r[i].m.t.reps, r[i].m.ns_per_load, r[i].baseline, r[i].speedup, r[i].model_speedup,
                r[i].m.launches, r[i].model.ld, r[i].model.st);
    csv_close(f, path);
}
