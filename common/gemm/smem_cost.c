/* A GEMM kernel's table of shared accesses through the bank model, and the table of the
 * register-staged kernels (chapter 06's 6 to 8) from their geometry. */
#include "gemm/smem_cost.h"

#include "model/smem_model.h"

#include <string.h>

int gemm_model_add_access(gemm_smem_cost* c, const char* what, int width, int is_store, int warps,
                          int per_warp, gemm_lane_offset_fn at, const void* ctx) {
    if (c->n >= GEMM_MAX_ACCESSES) return -1;
    gemm_access_cost* a = &c->access[c->n++];
    memset(a, 0, sizeof *a);
    a->what = what;
    a->width = width;
    a->is_store = is_store;
    long wf = 0, ideal = 0;
    for (int w = 0; w < warps; ++w)
        for (int i = 0; i < per_warp; ++i) {
            smem_access s;
            s.width = (unsigned)width;
            s.op = is_store ? SMEM_STORE : SMEM_LOAD;
            s.mask = 0xffffffffu;
            for (int l = 0; l < SMEM_WARP; ++l) s.offset[l] = at(ctx, w, l, i);
            smem_report r;
            if (smem_analyze(&s, &r)) return -1;
            wf += r.wavefronts;
            ideal += r.ideal;
        }
    a->requests = warps * per_warp;
    a->wavefronts = (double)wf / a->requests;
    a->ideal = (double)ideal / a->requests;
    return 0;
}

void gemm_model_finish(gemm_smem_cost* c) {
    double wf[2] = {0, 0}, req[2] = {0, 0};
    for (int i = 0; i < c->n; ++i) {
        wf[c->access[i].is_store] += c->access[i].wavefronts * c->access[i].requests;
        req[c->access[i].is_store] += c->access[i].requests;
    }
    c->ld = req[0] ? wf[0] / req[0] : -1;
    c->st = req[1] ? wf[1] / req[1] : -1;
}

/* ---------------------------------------------------------------- kernels 6 to 8
 * Per K-slice and thread: BM * BK / (4 NT) float4 loads of A, each stored as 4 floats down a
 * column of As (k = 4q + j, row m); BK * BN / (4 NT) float4 loads of B, each stored as one
 * float4 along a row of Bs; per k, two float4 reads of As (the thread's two 4-row blocks) and two
 * of Bs. */
static unsigned vec_a_store(const void* ctx, int w, int l, int i) {
    const gemm_geometry* g = (const gemm_geometry*)ctx;
    const int f = w * 32 + l + i / QUAD * g->nt, per_row = g->bk / QUAD;
    return (unsigned)gemm_a_slot(g->a_slot, g->bm, g->bk, f % per_row * QUAD + i % QUAD,
                                 f / per_row) *
           4;
}
static unsigned vec_b_store(const void* ctx, int w, int l, int i) {
    const gemm_geometry* g = (const gemm_geometry*)ctx;
    const int f = w * 32 + l + i * g->nt, per_row = g->bn / QUAD;
    return (unsigned)gemm_b_slot(g->b_padded, g->bn, f / per_row, f % per_row * QUAD) * 4;
}
static unsigned vec_read(const void* ctx, int w, int l, int i, int a) {
    const gemm_geometry* g = (const gemm_geometry*)ctx;
    int row0, col0, step_m, step_n;
    gemm_thread_origin(g->bm, g->bn, g->spread, g->lanes_m, w * 32 + l, &row0, &col0, &step_m,
                       &step_n);
    const int k = i / 2, half = i % 2;
    return (unsigned)(a ? gemm_a_slot(g->a_slot, g->bm, g->bk, k, row0 + half * step_m)
                        : gemm_b_slot(g->b_padded, g->bn, k, col0 + half * step_n)) *
           4;
}
static unsigned vec_a_read(const void* ctx, int w, int l, int i) {
    return vec_read(ctx, w, l, i, 1);
}
static unsigned vec_b_read(const void* ctx, int w, int l, int i) {
    return vec_read(ctx, w, l, i, 0);
}

int gemm_model_vec(const gemm_geometry* g, gemm_smem_cost* c) {
    memset(c, 0, sizeof *c);
    const int warps = g->nt / 32, a_loads = g->bm * g->bk / QUAD / g->nt,
              b_loads = g->bk * g->bn / QUAD / g->nt;
    if (gemm_model_add_access(c, "A stores, transposed", 4, 1, warps, QUAD * a_loads, vec_a_store,
                              g) ||
        gemm_model_add_access(c, "B stores", 16, 1, warps, b_loads, vec_b_store, g) ||
        gemm_model_add_access(c, "A reads (float4)", 16, 0, warps, 2 * g->bk, vec_a_read, g) ||
        gemm_model_add_access(c, "B reads (float4)", 16, 0, warps, 2 * g->bk, vec_b_read, g))
        return -1;
    gemm_model_finish(c);
    return 0;
}
