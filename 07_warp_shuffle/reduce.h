/* Chapter 07: what the program, its model, the solution and the exercise share. */
#ifndef REDUCE_H
#define REDUCE_H

#ifdef __CUDACC__
#define REDUCE_HD __host__ __device__
#else
#define REDUCE_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- the exercise
 * Both run in every thread of a block whose size is a multiple of 32 (at most 1024), all threads
 * calling, with the warp operations of reduce_ops.h (intrinsics on the GPU, the warp simulator on
 * the CPU). */

/* The sum of v over the 32 lanes of the calling warp, in lane 0 (other lanes: anything). */
REDUCE_HD float exercise_warp_reduce_sum(float v);

/* The sum of v over the whole block, in thread 0 (others: anything). warp_sums: 32 floats of
 * shared memory, one per warp. */
REDUCE_HD float exercise_block_reduce_sum(float v, float* warp_sums);

/* ---------------------------------------------------------------- the bank model */

/* The tree of kernels 1-3 over a block of `threads` floats: for each step (stride s = 1, 2, 4, ...
 * or threads / 2, ..., 1 for the sequential tree), the wavefronts per request of the step's
 * shared loads and store, by the calibrated model, averaged over the warps with an active lane. */
typedef enum { TREE_DIVERGENT = 0, TREE_STRIDED = 1, TREE_SEQUENTIAL = 2 } reduce_tree;

typedef struct {
    int stride;    /* s */
    int warps;     /* warps with at least one active lane */
    double ld, st; /* wavefronts per request (the ideal is 1) */
    int worst_ld;  /* the most any warp's load needs */
} tree_step;

enum { MAX_TREE_STEPS = 11 };

/* Fills steps[] (at most MAX_TREE_STEPS); returns how many, or -1 on a malformed access.
 * *ld and *st: the averages over every request of the whole tree (what ncu divides), including
 * the block's first store of its loaded values. */
int reduce_tree_model(reduce_tree tree, int threads, tree_step* steps, double* ld, double* st);

/* A warp's inclusive scan of 32 floats in shared memory (Hillis-Steele, 5 steps: a load of the
 * lane's own and of its partner's value, a store), by the model: wavefronts per request and
 * requests per warp. The shuffle scan makes none. */
void reduce_scan_model(double* wavefronts_per_request, int* requests_per_warp);

#ifdef __cplusplus
}
#endif

#endif
