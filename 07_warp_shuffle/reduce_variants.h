/* Chapter 07's variants: one record each (the table in reduce_variants.cu), how each is launched,
 * and the workspace they share. */
#ifndef REDUCE_VARIANTS_H
#define REDUCE_VARIANTS_H

#include "reduce.h"
#include "host/device.h"
#include "host/variant.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel 7's configuration: 256 threads, 4 float4 loads in flight per thread. */
enum { ONE_PASS_NT = 256, ONE_PASS_UNROLL = 4 };

/* What every variant may use, allocated once for the largest n. */
typedef struct {
    float* partial[2];     /* the passes' partial sums, and kernel 7's */
    unsigned* arrived;     /* kernel 7's counter of the blocks done, back at 0 after each launch */
    void* cub_temp;        /* CUB's temporary storage */
    size_t cub_temp_bytes; /* for n_max */
    int one_pass_blocks;   /* kernel 7's largest grid: as many blocks as fit on the GPU at once */
} reduce_workspace;

/* One call of a variant: the sum of x[0, n) into *out (a scan: x -> out[0, n)). */
typedef struct {
    const float* x;
    size_t n;
    float* out;
    const reduce_workspace* ws;
} reduce_call;

typedef void (*reduce_launch_fn)(const reduce_call* c);
typedef void (*reduce_pass_kernel)(const float* x, size_t n, float* out);

/* What the bank model predicts of a variant's shared-memory accesses (the CSV's model columns,
 * which the ncu test holds the hardware's counts to). */
typedef enum {
    SHARED_NOT_PREDICTED = 0, /* -1 in the CSV: CUB, the counter-example, the shuffle scan */
    SHARED_TREE,              /* the tree of kernels 1-5 (.tree), by reduce_tree_model */
    SHARED_ONE_WAVEFRONT      /* one per request: kernels 6 and 7's warp sums, the shared scan */
} shared_model;

/* A variant launches either one pass kernel again and again (kernels 1-6) or a function of its
 * own (CUB, kernel 7, the scans). */
typedef struct {
    course_variant v;
    reduce_pass_kernel pass; /* kernels 1-6: one pass, launched until one value is left */
    int per_block;           /* the elements one block of a pass reduces */
    reduce_launch_fn launch; /* the others */
    int scan;                /* 1: a warp scan (beyond reductions), with its own check */
    shared_model shared;
    reduce_tree tree; /* with SHARED_TREE */
} reduce_variant;

/* The chapter's variants in the lesson's order (CUB first, the baseline). */
course_variants reduce_variants(void);

/* One call of v: its kernels queued on the default stream. */
void reduce_launch(const reduce_variant* v, const reduce_call* c);

/* The model's wavefronts per shared load and store request of v, averaged over the kernel (what
 * ncu divides); -1 for both where it predicts none. */
void reduce_variant_model(const reduce_variant* v, double* ld, double* st);

/* The kernel launches one call of v makes at n: a pass each for kernels 1-6, one for kernel 7 and
 * the scans, two for CUB (its reduction, then its single tile over the partials). */
int reduce_launches_per_call(const reduce_variant* v, size_t n);

/* Kernel 7's grid at n: a block per ONE_PASS_NT * ONE_PASS_UNROLL float4s, at most
 * ws->one_pass_blocks. */
unsigned reduce_one_pass_grid(const reduce_workspace* ws, size_t n);

/* The workspace for sums of up to n_max floats on dev, held until the program ends. */
void reduce_workspace_alloc(reduce_workspace* ws, const course_device* dev, size_t n_max);

#ifdef __cplusplus
}
#endif

#endif
