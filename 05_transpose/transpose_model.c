/* The shared-memory side of chapter 05's tiled kernels, by the calibrated model: every warp
 * instruction of one tile, each lane's byte offset as the kernel computes it. */
#include "transpose.h"
#include "model/smem_model.h"

/* Adds one instruction's wavefronts; -1 if it is malformed. */
static int add(const smem_access* a, double* wf, double* ideal, unsigned* n) {
    smem_report r;
    if (smem_analyze(a, &r)) return -1;
    *wf += r.wavefronts;
    *ideal += r.ideal;
    ++*n;
    return 0;
}

int vec_model(const vec_geometry* g, vec_slot_fn slot, smem_cost* c) {
    const unsigned v = 16 / g->elem_bytes, ur = g->tile_rows / v, uc = g->tile_cols / v;
    const unsigned mb = ur * uc / g->threads; /* micro-blocks per thread */
    double st = 0, st_ideal = 0, ld = 0, ld_ideal = 0;
    unsigned n_st = 0, n_ld = 0;
    for (unsigned w = 0; w < g->threads / SMEM_WARP; ++w) {
        /* Phase 1, store (k, j): thread t's k-th micro-block (a, b) writes its transposed row j,
         * row v*b + j of S, columns v*a .. v*a + v-1. */
        for (unsigned k = 0; k < mb; ++k)
            for (unsigned j = 0; j < v; ++j) {
                smem_access a = smem_strided(16, SMEM_STORE, 1, 0);
                for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
                    unsigned m = w * SMEM_WARP + lane + k * g->threads;
                    a.offset[lane] = slot(v * (m % uc) + j, v * (m / uc)) * g->elem_bytes;
                }
                if (add(&a, &st, &st_ideal, &n_st)) return -1;
            }
        /* Phase 2, load k: unit q of S in row order, q = t + k * threads. */
        for (unsigned k = 0; k < mb * v; ++k) {
            smem_access a = smem_strided(16, SMEM_LOAD, 1, 0);
            for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
                unsigned q = w * SMEM_WARP + lane + k * g->threads;
                a.offset[lane] = slot(q / ur, v * (q % ur)) * g->elem_bytes;
            }
            if (add(&a, &ld, &ld_ideal, &n_ld)) return -1;
        }
    }
    c->st = st / n_st;
    c->st_ideal = st_ideal / n_st;
    c->ld = ld / n_ld;
    c->ld_ideal = ld_ideal / n_ld;
    return 0;
}

int tile32_model(unsigned elem_bytes, tile32_slot_fn slot, smem_cost* c) {
    double st = 0, st_ideal = 0, ld = 0, ld_ideal = 0;
    unsigned n_st = 0, n_ld = 0;
    /* Warp ty of the 32 x 8 block, its k-th element: it writes row ty + 8k (lane = column)
     * and reads column ty + 8k back (lane = row). */
    for (unsigned ty = 0; ty < 8; ++ty)
        for (unsigned k = 0; k < 4; ++k) {
            smem_access s = smem_strided(elem_bytes, SMEM_STORE, 1, 0);
            smem_access l = smem_strided(elem_bytes, SMEM_LOAD, 1, 0);
            for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
                s.offset[lane] = slot(ty + 8 * k, lane) * elem_bytes;
                l.offset[lane] = slot(lane, ty + 8 * k) * elem_bytes;
            }
            if (add(&s, &st, &st_ideal, &n_st) || add(&l, &ld, &ld_ideal, &n_ld)) return -1;
        }
    c->st = st / n_st;
    c->st_ideal = st_ideal / n_st;
    c->ld = ld / n_ld;
    c->ld_ideal = ld_ideal / n_ld;
    return 0;
}
