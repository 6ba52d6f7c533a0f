/* Chapter 08, part 3's run (tensor.h): the lesson's tables, then the check and the benchmark;
 * its pictures. */
#include "hgemm_layout.h"
#include "mma_fragments.h"
#include "tensor.h"
#include "tensor_model.h"
#include "host/check.h"
#include "host/picture.h"
#include "model/smem_model.h"

#include <stdio.h>
#include <string.h>

double tensor_ldmatrix_wavefronts(const tensor_variant* x, int* a_wf, int* b_wf) {
    if (tensor_ldmatrix_model(x->layout, x->bm, x->bn, x->bk, a_wf, b_wf))
        die("%s: no ldmatrix model", x->v.name);
    return (*a_wf + *b_wf) / 2.0;
}

void tensor_print_lesson(const course_variants* t) {
    for (int i = 0; i < t->n; ++i) {
        const tensor_variant* x = tensor_at(t, i);
        if (!x->sweep) printf("  %2d %-20s %s\n", x->v.number, x->v.name, x->v.description);
    }
    printf("     the tensor-core sweep (hgemm_BMxBNxBK_sSTAGES): --list\n");

    printf("\nTensor cores: ldmatrix wavefronts per request by the model (ideal 4), A = BM x BK\n"
           "halves read by .x4, B = BK x BN halves read by .x4.trans:\n");
    printf("%-20s %-9s %9s %9s %9s\n", "variant", "layout", "A", "B", "mean");
    for (int i = 0; i < t->n; ++i) {
        const tensor_variant* x = tensor_at(t, i);
        if (!x->launch || !x->v.kernel || hgemm_is_wgmma(x->layout)) continue;
        int a, b;
        const double m = tensor_ldmatrix_wavefronts(x, &a, &b);
        printf("%-20s %-9s %9d %9d %9.2f\n", x->v.name, hgemm_layout_name(x->layout), a, b, m);
    }
    printf(
        "Plain, A's 64-byte rows put a matrix's 8 rows in 2 of the line's 8 slots (4-way) and\n"
        "B's 512-byte rows put them all in one (8-way); padding by 16 bytes or the swizzle\n"
        "spreads them over all 8 (chapter 04, \"ldmatrix\"), and so does the TMA's 128B mode.\n");
    int ideal;
    const int plain = tensor_c_staging_model(0, 0, &ideal),
              swz = tensor_c_staging_model(1, 0, &ideal),
              both = tensor_c_staging_model(1, 1, &ideal);
    printf("\nhgemm_tma_persistent stages C for the TMA in chunks of 16 x 64 floats, a float2 a\n"
           "lane, 16 lanes a wavefront. Wavefronts per store by the model (ideal %d): rows plain\n"
           "%d; in the TMA's 128B swizzle %d; swizzled, odd rows taking their 8-column blocks in\n"
           "the order j ^ 2, %d (the kernel's: hgemm_layout.h, hgemm_c_staging_column).\n",
           ideal, plain, swz, both);
}

int tensor_run(const char* program, const course_args* a, const course_device* dev,
               const course_variants* running, int lesson) {
    if (course_find_variant(running, TENSOR_CEILING) < 0) return 0; /* judged out: cp_async.cu */
    cublasHandle_t cublas;
    if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS) die("cublasCreate failed");
    tensor_configure(running);
    int bad = 0;
    if (a->check || lesson) bad = tensor_check(a, running, cublas);
    if (!bad && !a->check) bad = tensor_bench(program, a, dev, running, cublas, lesson);
    cublasDestroy(cublas);
    return bad;
}

/* ---------------------------------------------------------------- pictures */

/* The C staging of hgemm_tma_persistent (hg_store_tma): lane l's float2 of store (j, h) holds
 * the accumulators at row mma_d_element(l, 2 h) and column hgemm_c_staging_column(j, l) of the
 * chunk, and sits at hgemm_c_staging_offset(row, column, 1) in the warp's buffer. */

/* One chunk of 16 x 64 floats, each float2 where it belongs in C, by its store: the 8 j of one
 * h in 8 hues 45 degrees apart (colour 3 x is hue x / 32 on picture.h's wheel). */
static int draw_staging_order(const char* dir) {
    static course_cell cells[8 * 2 * 32 + 8];
    size_t n = 0;
    for (int j = 0; j < 8; ++j)
        for (int h = 0; h < 2; ++h)
            for (int lane = 0; lane < 32; ++lane) {
                int row, col;
                mma_d_element(lane, 2 * h, &row, &col);
                cells[n] =
                    course_cell_at(hgemm_c_staging_column(j, lane), row, 12 * j % 32, "%d", lane);
                cells[n++].w = 2;
            }
    for (int j = 0; j < 8; ++j) { /* the key */
        cells[n] = course_cell_at(8 * j, HG_C_ROWS + 1, 12 * j % 32, "store j = %d", j);
        cells[n++].w = 8;
    }
    static const course_picture pic = {
        .name = "08_c_staging_order",
        .title = "hgemm_tma_persistent: one warp stages a 16 x 64 chunk of its C tile in 16 "
                 "float2 stores, (j, h) = (0, 0), (0, 1), (1, 0) .. (7, 1)",
        .key = "a box is the float2 of accumulators a lane stores (labelled), coloured by its "
               "store's j: rows 8 h + lane / 4, odd rows take block j ^ 2",
        .xlabel = "column of the chunk",
        .ylabel = "row of the chunk",
        .columns = 64,
        .rows = HG_C_ROWS + 2,
        .xtics = 8,
        .ytics = 8,
        .width = 1600,
        .height = 640};
    return course_picture_draw(dir, &pic, cells, n);
}

/* The first store (j = 0, h = 0) into the buffer's 128-byte rows, three ways: rows plain and
 * columns in mma order (8 j + mma_d_element's), the 128B swizzle in mma order, and the swizzle
 * with hgemm_c_staging_column's order (the kernel's): what tensor_c_staging_model counts. Under
 * each panel, the words each bank takes from each half-warp (64-bit stores: 16 lanes a
 * wavefront). */
static int draw_staging_banks(const char* dir) {
    enum { J = 0, H = 0, ROWS = 8, LABEL_X = 32, LABEL_W = 4, PANEL_H = 1 + ROWS + 2 };
    static const char* const how[3][2] = {{"rows plain", "mma order"},
                                          {"128B swizzle", "mma order"},
                                          {"128B swizzle", "odd rows j ^ 2"}};
    static const int half_colour[2] = {13, 8}; /* cyan, violet; a conflict red (0) */
    static course_cell cells[3 * (3 + 32 + ROWS + 2 * (32 + 1))];
    size_t n = 0;
    for (int p = 0; p < 3; ++p) {
        const int swizzled = p > 0, kernels = p == 2;
        const double y0 = p * (PANEL_H + 1);
        smem_access s = {.width = 8, .op = SMEM_STORE, .mask = 0xffffffffu};
        int words[2][32] = {{0}};
        for (int lane = 0; lane < 32; ++lane) {
            int row, col;
            mma_d_element(lane, 2 * H, &row, &col);
            const unsigned c = kernels ? hgemm_c_staging_column(J, lane) : 8 * J + col;
            const unsigned o = hgemm_c_staging_offset(row, c, swizzled);
            if (o / 32 >= ROWS) die("C's staging picture: float2 %u past row %d", o, ROWS);
            s.offset[lane] = 4 * o;
            words[lane / 16][o % 32]++;
            words[lane / 16][o % 32 + 1]++;
            cells[n] =
                course_cell_at(o % 32, y0 + 1 + o / 32, half_colour[lane / 16], "%d: c%u", lane, c);
            cells[n++].w = 2;
        }
        const double title_x[4] = {0, 12, 24, LABEL_X + LABEL_W};
        for (int t = 0; t < 3; ++t) {
            if (t < 2)
                cells[n] = course_cell_at(title_x[t], y0, -1, "%s", how[p][t]);
            else
                cells[n] = course_cell_at(title_x[t], y0, -1, "%d wavefronts", smem_wavefronts(&s));
            cells[n++].w = title_x[t + 1] - title_x[t];
        }
        for (int r = 0; r < ROWS; ++r) {
            cells[n] = course_cell_at(LABEL_X, y0 + 1 + r, -1, "row %d", r);
            cells[n++].w = LABEL_W;
        }
        for (int half = 0; half < 2; ++half) {
            const double y = y0 + 1 + ROWS + half;
            for (int b = 0; b < 32; ++b) {
                const int w = words[half][b];
                cells[n++] = course_cell_at(b, y,
                                            w == 0   ? -1
                                            : w == 1 ? half_colour[half]
                                                     : 0,
                                            "%.0d", w);
            }
            cells[n] = course_cell_at(LABEL_X, y, -1, "lanes %d-%d", 16 * half, 16 * half + 15);
            cells[n++].w = LABEL_W;
        }
    }
    static const course_picture pic = {
        .name = "08_c_staging_banks",
        .title = "hgemm_tma_persistent: a warp's first float2 store of a chunk into its staging "
                 "buffer (j = 0, h = 0); the third way is the kernel's",
        .key = "a box is a lane's float2 (lane: C column) at its banks and 128-byte row; below, "
               "the words each bank takes from each half-warp (16 lanes a wavefront)",
        .xlabel = "bank",
        .ylabel = "",
        .columns = LABEL_X + LABEL_W, /* a multiple of xtics: picture.c's x2 axis autoscales */
        .rows = 3 * PANEL_H + 2,
        .xtics = 4,
        .ytics = 0,
        .width = 1400,
        .height = 1500};
    return course_picture_draw(dir, &pic, cells, n);
}

int tensor_pictures(const char* dir) {
    const int rc = draw_staging_order(dir);
    return course_picture_join(rc, draw_staging_banks(dir));
}
