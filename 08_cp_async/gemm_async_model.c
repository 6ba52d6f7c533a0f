/* Chapter 08: the cp.async GEMM's shared-memory accesses, warp by warp, through the calibrated
 * bank model (chapter 06's tables). The lane-to-address maps are gemm_async_kernels.cuh's. */
#include "gemm_async.h"

#include "model/smem_model.h"

#include <string.h>

/* Copy i of a thread: chunk f = tid + i NT; A's: row f / (BK/4), k 4 (f % (BK/4)). */
static unsigned a_copy(const void* ctx, int w, int l, int i) {
    const async_geometry* g = (const async_geometry*)ctx;
    const int f = w * 32 + l + i * g->nt, per_row = g->bk / QUAD;
    return (unsigned)async_a_slot(g->a_layout, g->bk, f / per_row, f % per_row * QUAD) * 4;
}
/* B's: row f / (BN/4), column 4 (f % (BN/4)). */
static unsigned b_copy(const void* ctx, int w, int l, int i) {
    const async_geometry* g = (const async_geometry*)ctx;
    const int f = w * 32 + l + i * g->nt, per_row = g->bn / QUAD;
    return (unsigned)(f / per_row * g->bn + f % per_row * QUAD) * 4;
}
/* The offset from row0 of a lane's row i (i < 8): i row_step, then step_m + (i - 4) row_step. */
static int a_row(const async_lane* o, int i) {
    return i / QUAD * o->step_m + i % QUAD * o->row_step;
}
/* Read i of a slice: A, k-group i / 8, the lane's row i % 8 (a_row); B, k = i / (tn / 4), its
 * columns col0 + (i % (tn / 4)) step_n. */
static unsigned reads(const void* ctx, int w, int l, int i, int a) {
    const async_geometry* g = (const async_geometry*)ctx;
    const async_lane o = async_lane_origin(g->bn, g->lanes_m, g->tn, g->interleave, w * 32 + l);
    if (a) { /* the kernel's address: async_a_read_slot (the check below holds it to the layout) */
        const int r = a_row(&o, i % MICRO);
        const int lane_slot = async_a_slot(g->a_layout, g->bk, o.row0, 0);
        return (unsigned)async_a_read_slot(g->a_layout, g->bk, lane_slot, r, i / MICRO * QUAD) * 4;
    }
    const int per_k = g->tn / QUAD;
    return (unsigned)(i / per_k * g->bn + o.col0 + i % per_k * o.step_n) * 4;
}
static unsigned a_read(const void* ctx, int w, int l, int i) {
    return reads(ctx, w, l, i, 1);
}
static unsigned b_read(const void* ctx, int w, int l, int i) {
    return reads(ctx, w, l, i, 0);
}

int gemm_async_model(const async_geometry* geo, gemm_smem_cost* c, const char** why) {
    memset(c, 0, sizeof *c);
    const async_geometry g = *geo;
    const int bm = g.bm, bn = g.bn, bk = g.bk, nt = g.nt, tn = g.tn, a_layout = g.a_layout;
    *why = NULL;
    /* The first copy that is not 16-byte aligned, in the model's words. */
    for (int f = 0; f < bm * bk / QUAD; ++f) {
        smem_access s;
        memset(&s, 0, sizeof s);
        s.width = 16;
        s.op = SMEM_STORE;
        s.mask = 1;
        s.offset[0] =
            (unsigned)async_a_slot(a_layout, bk, f / (bk / QUAD), f % (bk / QUAD) * QUAD) * 4;
        if ((*why = smem_invalid(&s)) != NULL) return -1;
    }
    /* The compute's reads of A as the kernels address them, split in a lane's part and a constant
     * one (async_a_read_slot), must be the layout's slots: row0 and r sharing no bit. */
    for (int t = 0; t < nt; ++t) {
        const async_lane o = async_lane_origin(bn, g.lanes_m, tn, g.interleave, t);
        const int lane_slot = async_a_slot(a_layout, bk, o.row0, 0);
        for (int i = 0; i < MICRO; ++i)
            for (int k = 0; k < bk; k += QUAD) {
                const int r = a_row(&o, i);
                if (async_a_read_slot(a_layout, bk, lane_slot, r, k) !=
                    async_a_slot(a_layout, bk, o.row0 + r, k)) {
                    *why = "a read's split address (async_a_read_slot) is not the layout's slot: "
                           "the lane's first row and its offset share a bit";
                    return -1;
                }
            }
    }
    const int warps = nt / 32, a_copies = bm * bk / QUAD / nt, b_copies = bk * bn / QUAD / nt;
    if (gemm_model_add_access(c, "A copies (cp.async)", 16, 1, warps, a_copies, a_copy, &g) ||
        gemm_model_add_access(c, "B copies (cp.async)", 16, 1, warps, b_copies, b_copy, &g) ||
        gemm_model_add_access(c, "A reads (float4 along k)", 16, 0, warps, 2 * bk, a_read, &g) ||
        gemm_model_add_access(c, "B reads (float4)", 16, 0, warps, tn / QUAD * bk, b_read, &g))
        return -1;
    gemm_model_finish(c);
    return 0;
}
