/* Chapter 07: what the program, its model, the solution and the exercise share. */
#ifndef REDUCE_H
#define REDUCE_H

#include "model/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RT = 256 }; /* threads per block: kernels 1-6, the scans, and the model's trees */

/* ---------------------------------------------------------------- the exercise
 * Both run in every thread of a block whose size is a multiple of 32 (at most 1024), all threads
 * calling, with the warp operations of reduce_ops.h (intrinsics on the GPU, the warp simulator on
 * the CPU). */

/* The sum of v over the 32 lanes of the calling warp, in lane 0 (other lanes: anything). */
COURSE_HD float exercise_warp_reduce_sum(float v);

/* The sum of v over the whole block, in thread 0 (others: anything). warp_sums: 32 floats of
 * shared memory, one per warp. Two calls in a row with the same warp_sums need a barrier between
 * them (warp 0 may still be reading the first call's sums). */
COURSE_HD float exercise_block_reduce_sum(float v, float* warp_sums);

/* ---------------------------------------------------------------- the bank model */

/* The tree of kernels 1-3 over a block of `threads` floats: for each step (stride s = 1, 2, 4, ...
 * or threads / 2, ..., 1 for the sequential tree), the wavefronts per request of the step's
 * shared loads and store, by the calibrated model, averaged over the warps with an active lane. */
typedef enum {
    TREE_DIVERGENT = 0,  /* kernel 1 */
    TREE_STRIDED = 1,    /* kernel 2 */
    TREE_SEQUENTIAL = 2, /* kernels 3 and 4 */
    TREE_LAST_WARP = 3   /* kernel 5: sequential down to 64, then warp 0 alone */
} reduce_tree;

typedef struct {
    int stride;    /* s */
    int warps;     /* warps with at least one active lane */
    double ld, st; /* wavefronts per request (the ideal is 1) */
} tree_step;

enum { MAX_TREE_STEPS = 11 };

/* Fills steps[] (at most MAX_TREE_STEPS); returns how many, or -1 on a malformed access.
 * *ld and *st: the averages over every request of the whole kernel (what ncu divides): the first
 * store of the loaded values, every step, thread 0's final load. A step's instructions are
 * predicated, not branched around (the SASS), so every warp issues them; one whose lanes are all
 * predicated off makes no request and no wavefront. Measured on the H200 (ncu): kernel 2's loads
 * average 3.80 wavefronts per request, as this model says; 1.54 if such a warp counted a request
 * of one wavefront, 0.74 if a request of none. Kernel 5's last six steps are one warp's (a
 * branch: __syncwarp inside). */
int reduce_tree_model(reduce_tree tree, int threads, tree_step* steps, double* ld, double* st);

/* A warp's inclusive scan of 32 floats in shared memory (Hillis-Steele: a store of the lane's
 * value, then 5 steps of a load of its partner's and a store; its own stays in a register), by
 * the model: wavefronts per request and requests per warp. The shuffle scan makes none. */
void reduce_scan_model(double* wavefronts_per_request, int* requests_per_warp);

#ifdef __cplusplus
}
#endif

#endif
