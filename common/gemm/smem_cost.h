/* The GEMM kernels' shared-memory accesses put through the calibrated bank model (smem_model.h):
 * wavefronts per request of one K-slice, summed over every warp of a block, which is what Nsight
 * Compute divides over a whole launch. A kernel's model is a table of accesses, each a function
 * from (warp, lane, request) to the byte offset the lane touches. */
#ifndef COURSE_GEMM_SMEM_COST_H
#define COURSE_GEMM_SMEM_COST_H

#include "gemm/geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char* what; /* "A tile store", ... */
    int width;        /* bytes per lane */
    int is_store;
    double wavefronts, ideal; /* per request */
    int requests;             /* per block and K-slice */
} gemm_access_cost;

enum { GEMM_MAX_ACCESSES = 4 };
typedef struct {
    int n;
    gemm_access_cost access[GEMM_MAX_ACCESSES];
    double st, ld; /* the averages over every store (load) request */
} gemm_smem_cost;

/* One access of a table: the byte offset lane `lane` of warp `warp` touches in its `i`-th
 * request of this kind (of `per_warp`); added to c with its wavefronts and ideal per request.
 * gemm_model_finish then sets c->ld and c->st, the averages over every load (store) request:
 * what ncu's wavefronts / requests measure. (Chapter 08 models its kernels with them too.) */
typedef unsigned (*gemm_lane_offset_fn)(const void* ctx, int warp, int lane, int i);
int gemm_model_add_access(gemm_smem_cost* c, const char* what, int width, int is_store, int warps,
                          int per_warp, gemm_lane_offset_fn at, const void* ctx);
void gemm_model_finish(gemm_smem_cost* c);

/* Kernels 6 to 8 of chapter 06 (gemm_vec), from their geometry. Returns 0, or -1 if an access is
 * malformed. */
int gemm_model_vec(const gemm_geometry* g, gemm_smem_cost* c);

#ifdef __cplusplus
}
#endif

#endif
