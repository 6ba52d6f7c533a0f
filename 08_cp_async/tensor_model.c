/* Chapter 08, part 3's bank model (tensor_model.h). */
#include "hgemm_layout.h"
#include "tensor_model.h"
#include "host/check.h"
#include "model/hd.h"
#include "model/smem_model.h"
#include "model/swizzle_tile.h"

/* Chapter 04's rule for a tile of `cols` halves a row read by ldmatrix: Swizzle<B,3,S> on half
 * offsets, B = min(3, log2 units), S = max(3, log2 units), for rows of `units` 16-byte units. */
static swizzle_tile ldmatrix_tile(int cols, int rows, int pad, int swizzled) {
    const int units = cols / 8;
    const int b = units < 8 ? course_log2(units) : 3, s = units > 8 ? course_log2(units) : 3;
    const swizzle_tile t = {2,
                            8,
                            (unsigned)(cols + pad),
                            (unsigned)rows,
                            swizzled ? b : 0,
                            swizzled ? 3 : 0,
                            swizzled ? s : 0};
    return t;
}

int tensor_ldmatrix_model(int layout, int bm, int bn, int bk, int* a_wf, int* b_wf) {
    const int pad = layout == HG_PADDED ? 8 : 0;
    const int swizzled = layout == HG_SWIZZLED || layout == HG_TMA, tma = layout == HG_TMA;
    const int a_cols = tma && bk > 64 ? 64 : bk, b_cols = tma && bn > 64 ? 64 : bn;
    const swizzle_tile ta = ldmatrix_tile(a_cols, bm, pad, swizzled),
                       tb = ldmatrix_tile(b_cols, bk, pad, swizzled);
    int ideal;
    *a_wf = swizzle_tile_worst_ldmatrix(&ta, &ideal);
    *b_wf = swizzle_tile_worst_ldmatrix(&tb, &ideal);
    return *a_wf < 0 || *b_wf < 0 ? -1 : 0;
}

int tensor_c_staging_model(int swizzled, int odd_rows_swapped, int* ideal) {
    int worst = 0;
    for (unsigned j = 0; j < 8; ++j)
        for (unsigned h = 0; h < 2; ++h) {
            smem_access s;
            s.width = 8;
            s.op = SMEM_STORE;
            s.mask = 0xffffffffu;
            for (unsigned l = 0; l < 32; ++l) {
                const unsigned r = l / 4 + 8 * h, c = odd_rows_swapped
                                                          ? hgemm_c_staging_column(j, l)
                                                          : 8 * j + 2 * (l % 4);
                s.offset[l] = 4 * hgemm_c_staging_offset(r, c, swizzled);
            }
            smem_report rep;
            if (smem_analyze(&s, &rep)) die("C's staging: a malformed access");
            if (rep.wavefronts > worst) worst = rep.wavefronts;
            *ideal = rep.ideal;
        }
    return worst;
}
