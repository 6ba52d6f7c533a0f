/* Chapter 06's pictures (--picture DIR): kernel 7's warp tile and its float4 shared reads, drawn
 * with the index functions gemm_vec calls (gemm/geometry.h: gemm_thread_origin, gemm_a_slot,
 * gemm_b_slot) on the host, the wavefronts the bank model's (smem_wavefronts). */
#include "gemm.h"
#include "host/picture.h"
#include "model/smem_model.h"

#include <stdio.h>

/* Which lane of warp 0 computes which element of C: gemm_thread_origin's row0, col0 and steps,
 * the acc[8][8] of gemm_store_micro_tile (2 x 2 blocks of 4 x 4). */
static int draw_warp_tile(const char* dir, const gemm_geometry* g) {
    static course_cell cells[32 * MICRO * MICRO];
    size_t n = 0;
    int rows = 0, cols = 0, step_m = 0, step_n = 0;
    for (int lane = 0; lane < 32; ++lane) {
        int row0, col0;
        gemm_thread_origin(g->bm, g->bn, g->spread, g->lanes_m, lane, &row0, &col0, &step_m,
                           &step_n);
        for (int hm = 0; hm < 2; ++hm)
            for (int i = 0; i < QUAD; ++i)
                for (int hn = 0; hn < 2; ++hn)
                    for (int j = 0; j < QUAD; ++j) {
                        const int r = row0 + hm * step_m + i, c = col0 + hn * step_n + j;
                        cells[n++] = course_cell_at(c, r, lane, "%d", lane);
                        rows = r + 1 > rows ? r + 1 : rows;
                        cols = c + 1 > cols ? c + 1 : cols;
                    }
    }
    static char title[128], key[256];
    snprintf(title, sizeof title,
             "kernel 7 (warptile): warp 0's %d x %d tile, the top left of the block's %d x %d "
             "tile of C",
             rows, cols, g->bm, g->bn);
    snprintf(
        key, sizeof key,
        "a box is an element of C, labelled and coloured by the lane that computes it: "
        "lanes in a %d x %d grid, each lane 2 x 2 blocks of 4 x 4, %d rows and %d columns apart",
        g->lanes_m, 32 / g->lanes_m, step_m, step_n);
    const course_picture pic = {.name = "06_warp_tile",
                                .title = title,
                                .key = key,
                                .xlabel = "column of C",
                                .ylabel = "row of C",
                                .columns = cols,
                                .rows = rows,
                                .xtics = 4,
                                .ytics = 4,
                                .width = 1600,
                                .height = 900};
    return course_picture_draw(dir, &pic, cells, n);
}

/* The four float4 reads of one k step (gemm_vec's a0, a1, b0, b1) by warp 0: lane by lane, the
 * words of As[k][m] and Bs[k][n] each reads, at their banks (gemm_a_slot, gemm_b_slot), in four
 * panels, each with its wavefronts by the bank model. */
static int draw_warp_reads(const char* dir, const gemm_geometry* g) {
    enum { K = 1, LABEL_W = 2, PANEL_W = LABEL_W + 32, PANEL_H = 2 + 32 };
    static course_cell cells[4 * (2 + 2 * 32 + 32 + 1)];
    size_t n = 0;
    for (int p = 0; p < 4; ++p) {
        const int is_a = p < 2, half = p % 2;
        const double x0 = p % 2 * (PANEL_W + 1), y0 = p / 2 * (PANEL_H + 1);
        smem_access s = {.width = 16, .op = SMEM_LOAD, .mask = 0xffffffffu};
        int first[32], slot[32], step = 0;
        for (int lane = 0; lane < 32; ++lane) {
            int row0, col0, step_m, step_n;
            gemm_thread_origin(g->bm, g->bn, g->spread, g->lanes_m, lane, &row0, &col0, &step_m,
                               &step_n);
            step = is_a ? step_m : step_n;
            first[lane] = (is_a ? row0 : col0) + half * step;
            slot[lane] = is_a ? gemm_a_slot(g->a_slot, g->bm, g->bk, K, first[lane])
                              : gemm_b_slot(g->b_padded, g->bn, K, first[lane]);
            s.offset[lane] = (unsigned)slot[lane] * 4;
        }
        /* A float4 is coloured by its place among the panel's addresses, their hues 32 / A
         * apart: colour 3 x is hue x / 32 on picture.h's wheel. */
        int lo = first[0], hi = first[0];
        for (int lane = 1; lane < 32; ++lane) {
            lo = first[lane] < lo ? first[lane] : lo;
            hi = first[lane] > hi ? first[lane] : hi;
        }
        const int addresses = (hi - lo) / QUAD + 1;
        for (int lane = 0; lane < 32; ++lane) {
            const int colour = 3 * ((first[lane] - lo) / QUAD * 32 / addresses) % 32;
            cells[n] =
                course_cell_at(x0 + LABEL_W + slot[lane] % 32, y0 + 2 + lane, colour, "%c %d-%d",
                               is_a ? 'm' : 'n', first[lane], first[lane] + QUAD - 1);
            cells[n++].w = QUAD;
            cells[n] = course_cell_at(x0, y0 + 2 + lane, -1, "%d", lane);
            cells[n++].w = LABEL_W;
        }
        cells[n] = course_cell_at(x0, y0, -1, "%s[%d][%s%s%.0d]", is_a ? "As" : "Bs", K,
                                  is_a ? "row0" : "col0", half ? "+" : "", half * step);
        cells[n++].w = PANEL_W / 2;
        cells[n] = course_cell_at(x0 + PANEL_W / 2, y0, -1, "%d wavefronts", smem_wavefronts(&s));
        cells[n++].w = PANEL_W / 2;
        cells[n] = course_cell_at(x0, y0 + 1, -1, "lane");
        cells[n++].w = LABEL_W;
        for (int b = 0; b < 32; ++b)
            cells[n++] = course_cell_at(x0 + LABEL_W + b, y0 + 1, -1, "%d", b);
    }
    static char title[160];
    snprintf(title, sizeof title,
             "kernel 7 (warptile): warp 0's four float4 shared reads at k = %d (As rows of %d "
             "floats, Bs rows of %d): no bank holds two addresses",
             K, gemm_a_slot(g->a_slot, g->bm, g->bk, 1, 0), gemm_b_slot(g->b_padded, g->bn, 1, 0));
    const course_picture pic = {
        .name = "06_warp_reads",
        .title = title,
        .key = "a bar is the float4 a lane reads, at its banks (numbered above), labelled with its "
               "rows m of A or columns n of B; one colour, one address",
        .xlabel = "bank",
        .ylabel = "lane of warp 0",
        .columns = 2 * PANEL_W + 1,
        .rows = 2 * PANEL_H + 1,
        .xtics = 0,
        .ytics = 0,
        .width = 1500,
        .height = 1560};
    return course_picture_draw(dir, &pic, cells, n);
}

int gemm_pictures(const char* dir, const gemm_geometry* warptile) {
    const int rc = draw_warp_tile(dir, warptile);
    return course_picture_join(rc, draw_warp_reads(dir, warptile));
}
