/* Chapter 05's pictures (--picture DIR): kernel 7 as the variants vec and vec_unswizzled run it
 * on float (a 64 x 64 tile, 256 threads, 4 x 4 micro-blocks), drawn from the kernel's own index
 * functions (transpose_kernels.cuh): micro_block_of (which thread loads which micro-block),
 * transposed_row_of (where its columns go in S), s_unit_of (which unit of S a thread reads back),
 * and the kernel's Slot, vec_swizzle or vec_unswizzled; the wavefronts are the model's
 * (smem_analyze) on those same offsets. */
#include "transpose_kernels.cuh"
#include "transpose_program.h"
#include "host/check.h"
#include "host/picture.h"
#include "model/smem_model.h"

#include <stdio.h>

typedef vec_tile<float, VEC_TILE_ROWS, VEC_TILE_COLS, VEC_THREADS> G;
static_assert(G::MB == 1, "one micro-block per thread: a store's label is its thread and column");

enum {
    WARP = 0,                          /* the warp whose accesses are drawn */
    UNIT_BANKS = 16 / SMEM_BANK_BYTES, /* a 16-byte unit covers 4 banks */
    QUARTER = 8,                       /* the lanes a 16-byte access serves together */
    NOTE = 8,                          /* the width of a column of notes, right of the banks */
    N_STORES = G::MB * G::V            /* a thread's stores into S, and its loads from it */
};

/* vec_swizzle's Swizzle<B,M,S>, as the titles name it. */
static void swizzle_name(char* out, size_t len) {
    snprintf(out, len, "Swizzle<3,%d,%d>", course_log2(G::V), course_log2(G::TR));
}

/* A quarter-warp's colour: 4 hues far apart. */
static int quarter_colour(unsigned lane) {
    return (int)(lane / QUARTER * 8);
}

/* "4 wavefronts each", or each store's count where they differ. */
static void describe_wavefronts(const int* wf, int n, int ideal, char* out, size_t len) {
    int same = 1;
    for (int i = 1; i < n; ++i) same &= wf[i] == wf[0];
    if (same) {
        snprintf(out, len, "%d wavefronts each (ideal %d)", wf[0], ideal);
        return;
    }
    size_t used = (size_t)snprintf(out, len, "wavefronts");
    for (int i = 0; i < n && used < len; ++i)
        used += (size_t)snprintf(out + used, len - used, "%s %d", i ? "," : "", wf[i]);
    if (used < len) snprintf(out + used, len - used, " (ideal %d each)", ideal);
}

/* The input tile: each 4 x 4 micro-block labelled with the thread that loads it. */
static int draw_blocks(const char* dir) {
    static course_cell cells[G::NT * G::MB];
    size_t n = 0;
    for (int t = 0; t < G::NT; ++t)
        for (int k = 0; k < G::MB; ++k) {
            int a, b;
            micro_block_of<G>(t, k, &a, &b);
            course_cell* c = &cells[n++];
            *c = course_cell_at(G::V * b, G::V * a, t / SMEM_WARP * 4, "t%d", t);
            c->w = c->h = G::V;
        }
    static const course_picture pic = {
        .name = "05_vec_blocks",
        .title = "vec, float: the 64x64 input tile in 4x4 micro-blocks, one for each of the 256 "
                 "threads",
        .key = "a box is a micro-block, labelled with the thread that loads it (4 float4 loads, "
               "one a row) and stores it transposed; colour: its warp",
        .xlabel = "column of the input tile",
        .ylabel = "row of the input tile",
        .columns = G::TC,
        .rows = G::TR,
        .xtics = G::V,
        .ytics = G::V,
        .width = 1400,
        .height = 1450};
    return course_picture_draw(dir, &pic, cells, n);
}

/* Warp WARP's stores into S (store_transposed): store j writes column j of each thread's
 * micro-block as row V*b + j of S. A box: one 16-byte store at its banks and S row. */
template <typename Slot>
static int draw_stores(const char* dir, const char* name, const char* variant, const char* layout) {
    const Slot slot;
    static course_cell cells[SMEM_WARP * N_STORES];
    size_t n = 0;
    int wf[N_STORES], ideal = 0;
    for (int k = 0; k < G::MB; ++k)
        for (int j = 0; j < G::V; ++j) {
            smem_access acc = smem_strided(16, SMEM_STORE, 1, 0);
            for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
                const int t = WARP * SMEM_WARP + (int)lane;
                int a, b, row, col;
                micro_block_of<G>(t, k, &a, &b);
                transposed_row_of<G>(a, b, j, &row, &col);
                const unsigned e = slot((unsigned)row, (unsigned)col);
                acc.offset[lane] = e * (unsigned)sizeof(float);
                if (e % G::TR * sizeof(float) / SMEM_BANK_BYTES >= SMEM_BANKS) {
                    fprintf(stderr, "%s: a store lands in the second 128 bytes of its row\n", name);
                    return EXIT_CHECK_FAILED;
                }
                course_cell* c = &cells[n++];
                *c = course_cell_at(smem_bank(acc.offset[lane]), e / G::TR, quarter_colour(lane),
                                    "t%d j%d", t, j);
                c->w = UNIT_BANKS;
            }
            smem_report rep;
            if (smem_analyze(&acc, &rep)) return EXIT_CHECK_FAILED;
            wf[k * G::V + j] = rep.wavefronts;
            ideal = rep.ideal;
        }
    char verdict[80], title[200];
    describe_wavefronts(wf, N_STORES, ideal, verdict, sizeof verdict);
    snprintf(title, sizeof title, "%s, float: warp %d's 4 float4 stores into S, %s: %s", variant,
             WARP, layout, verdict);
    const course_picture pic = {
        .name = name,
        .title = title,
        .key = "a box: thread t's store j (column j of its micro-block) at its 4 banks, its row of "
               "S (first 128 bytes); colour: quarter-warp, served together",
        .xlabel = "bank",
        .ylabel = "row of S (the transposed tile)",
        .columns = SMEM_BANKS,
        .rows = G::TC,
        .xtics = UNIT_BANKS,
        .ytics = G::V,
        .width = 1050,
        .height = 1650};
    return course_picture_draw(dir, &pic, cells, n);
}

/* Warp WARP's loads from S (write_rows), under the swizzle: load k, quarter-warp q on line
 * 4k + q of the picture, each box a lane's unit at its banks. */
static int draw_loads(const char* dir) {
    const vec_swizzle<float, G::TR> slot;
    static course_cell cells[SMEM_WARP * N_STORES + 2 * N_STORES];
    size_t n = 0;
    int wf[N_STORES], ideal = 0;
    for (int k = 0; k < N_STORES; ++k) {
        smem_access acc = smem_strided(16, SMEM_LOAD, 1, 0);
        for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
            const int t = WARP * SMEM_WARP + (int)lane;
            int row, col;
            s_unit_of<G>(t, k, &row, &col);
            acc.offset[lane] = slot((unsigned)row, (unsigned)col) * (unsigned)sizeof(float);
            course_cell* c = &cells[n++];
            *c = course_cell_at(smem_bank(acc.offset[lane]), k * 4 + lane / QUARTER,
                                quarter_colour(lane), "t%d: r%d u%d", t, row, col / G::V);
            c->w = UNIT_BANKS;
        }
        smem_report rep;
        if (smem_analyze(&acc, &rep)) return EXIT_CHECK_FAILED;
        wf[k] = rep.wavefronts;
        ideal = rep.ideal;
        course_cell* c = &cells[n++];
        *c = course_cell_at(SMEM_BANKS, k * 4, -1, "load %d", k);
        c->w = NOTE;
        c->h = 2;
        c = &cells[n++];
        *c = course_cell_at(SMEM_BANKS, k * 4 + 2, -1, "%d wavefronts", rep.wavefronts);
        c->w = NOTE;
        c->h = 2;
    }
    char verdict[80], title[200];
    describe_wavefronts(wf, N_STORES, ideal, verdict, sizeof verdict);
    char swizzle[24];
    swizzle_name(swizzle, sizeof swizzle);
    snprintf(title, sizeof title, "vec, float: warp %d's 4 float4 loads from S, %s: %s", WARP,
             swizzle, verdict);
    const course_picture pic = {
        .name = "05_vec_loads",
        .title = title,
        .key = "a box: thread t's load of unit u (floats 4u..4u+3) of row r of S, at its 4 banks; "
               "a line: a quarter-warp (colour), its 8 lanes served together",
        .xlabel = "bank",
        .ylabel = "load k, quarter-warp q: line 4k + q",
        .columns = SMEM_BANKS + NOTE,
        .rows = 4 * N_STORES,
        .xtics = UNIT_BANKS,
        .ytics = 4,
        .width = 1400,
        .height = 720};
    return course_picture_draw(dir, &pic, cells, n);
}

int transpose_pictures(const char* dir) {
    char swizzle[24];
    swizzle_name(swizzle, sizeof swizzle);
    int rc = draw_blocks(dir);
    rc = course_picture_join(
        rc, draw_stores<vec_swizzle<float, G::TR>>(dir, "05_vec_stores", "vec", swizzle));
    rc =
        course_picture_join(rc, draw_stores<vec_unswizzled<G::TR>>(dir, "05_vec_stores_unswizzled",
                                                                   "vec_unswizzled", "no swizzle"));
    return course_picture_join(rc, draw_loads(dir));
}
