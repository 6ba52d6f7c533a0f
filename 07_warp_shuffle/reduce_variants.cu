/* Chapter 07's variants: the table, their launches, the model's predictions, the workspace. */
#include "reduce_kernels.cuh"
#include "reduce_variants.h"
#include "shuffle_exercise.cuh"
#include "host/check.h"

#include <cub/device/device_reduce.cuh>

#define ONE_PASS reduce_one_pass<ONE_PASS_NT, ONE_PASS_UNROLL>

/* Kernels 1-6: pass after pass until one value is left; the last pass writes to out. */
static int passes_for(size_t n, int per_block) {
    int p = 0;
    do {
        n = n > 0 ? (n + per_block - 1) / per_block : 1;
        ++p;
    } while (n > 1);
    return p;
}

static void launch_passes(const reduce_variant* v, const reduce_call* c) {
    const float* in = c->x;
    size_t m = c->n;
    int buf = 0;
    for (;;) {
        const size_t blocks = m > 0 ? (m + v->per_block - 1) / v->per_block : 1;
        float* dst = blocks == 1 ? c->out : c->ws->partial[buf];
        v->pass<<<(unsigned)blocks, RT>>>(in, m, dst);
        if (blocks == 1) return;
        in = dst;
        m = blocks;
        buf ^= 1;
    }
}

/* Kernel 7's grid: a block per NT * UNROLL float4s, so that every thread has its UNROLL loads in
 * flight at once, up to as many blocks as fit on the GPU together. A full grid at every n would
 * cost small inputs hundreds of idle blocks, each an atomic on the counter, and a last block that
 * adds hundreds of partials. */
unsigned reduce_one_pass_grid(const reduce_workspace* ws, size_t n) {
    const size_t per_block = (size_t)ONE_PASS_NT * ONE_PASS_UNROLL * 4;
    const size_t want = n > 0 ? (n + per_block - 1) / per_block : 1;
    return want < (size_t)ws->one_pass_blocks ? (unsigned)want : (unsigned)ws->one_pass_blocks;
}

static void launch_one_pass(const reduce_call* c) {
    ONE_PASS<<<reduce_one_pass_grid(c->ws, c->n), ONE_PASS_NT>>>(c->x, c->n, c->ws->partial[0],
                                                                 c->ws->arrived, c->out);
}

/* The scans write n floats: c->out must hold n (the benchmark gives them a buffer of their own). */
static void launch_scan_smem(const reduce_call* c) {
    if (c->n) scan_warp_smem<<<(unsigned)((c->n + RT - 1) / RT), RT>>>(c->x, c->n, c->out);
}
static void launch_scan_shuffle(const reduce_call* c) {
    if (c->n) scan_warp_shuffle<<<(unsigned)((c->n + RT - 1) / RT), RT>>>(c->x, c->n, c->out);
}

static void launch_cub(const reduce_call* c) {
    size_t bytes = c->ws->cub_temp_bytes;
    CUDA_CHECK(cub::DeviceReduce::Sum(c->ws->cub_temp, bytes, c->x, c->out, (long long)c->n));
}

void reduce_launch(const reduce_variant* v, const reduce_call* c) {
    if (v->pass)
        launch_passes(v, c);
    else
        v->launch(c);
}

/* A block of kernels 1-6 and of the scans, and one of kernel 7. */
static const course_needs PASS_BLOCK = {.threads = RT}, ONE_PASS_BLOCK = {.threads = ONE_PASS_NT};

/* Not const: course_variants_begin moves the variants that run on this GPU to the front. */
static reduce_variant table[] = {
    {.v = {.name = "cub",
           .number = 0,
           .description = "cub::DeviceReduce::Sum (the toolkit's CUB): the baseline",
           .baseline = 1},
     .launch = launch_cub},
    {.v = {.name = "divergent",
           .number = 1,
           .description = "shared-memory tree, threads 0, 2s, 4s, ... work: divergent warps",
           .kernel = (const void*)reduce_divergent,
           .needs = PASS_BLOCK},
     .pass = reduce_divergent,
     .per_block = RT,
     .shared = SHARED_TREE,
     .tree = TREE_DIVERGENT},
    {.v = {.name = "strided",
           .number = 2,
           .description = "the work packed into the first threads at index 2 s t: bank conflicts",
           .kernel = (const void*)reduce_strided,
           .needs = PASS_BLOCK},
     .pass = reduce_strided,
     .per_block = RT,
     .shared = SHARED_TREE,
     .tree = TREE_STRIDED},
    {.v = {.name = "sequential",
           .number = 3,
           .description = "halving strides, consecutive words: conflict-free",
           .kernel = (const void*)reduce_sequential,
           .needs = PASS_BLOCK},
     .pass = reduce_sequential,
     .per_block = RT,
     .shared = SHARED_TREE,
     .tree = TREE_SEQUENTIAL},
    {.v = {.name = "first_add",
           .number = 4,
           .description = "each thread adds two elements while loading",
           .kernel = (const void*)reduce_first_add,
           .needs = PASS_BLOCK},
     .pass = reduce_first_add,
     .per_block = 2 * RT,
     .shared = SHARED_TREE,
     .tree = TREE_SEQUENTIAL},
    {.v = {.name = "last_warp",
           .number = 5,
           .description = "the last 6 steps in one warp, with __syncwarp() between them",
           .kernel = (const void*)reduce_last_warp,
           .needs = PASS_BLOCK},
     .pass = reduce_last_warp,
     .per_block = 2 * RT,
     .shared = SHARED_TREE,
     .tree = TREE_LAST_WARP},
    {.v = {.name = "shuffle",
           .number = 6,
           .description = "__shfl_down_sync in each warp, 32 floats of shared memory",
           .kernel = (const void*)reduce_shuffle,
           .needs = PASS_BLOCK},
     .pass = reduce_shuffle,
     .per_block = 2 * RT,
     .shared = SHARED_ONE_WAVEFRONT},
    /* Its warp sums reached through a generic pointer inside the exercise's functions (LD/ST in
     * the SASS, not LDS/STS): ncu counts a generic access that lands in shared memory as a shared
     * one (measured on the H200), so it is predicted like kernel 6. */
    {.v = {.name = "shuffle_exercise",
           .number = 6,
           .description = "kernel 6 calling the exercise's functions, compiled apart (solution.cu)",
           .kernel = (const void*)reduce_shuffle_exercise,
           .needs = PASS_BLOCK},
     .pass = reduce_shuffle_exercise,
     .per_block = 2 * RT,
     .shared = SHARED_ONE_WAVEFRONT},
    {.v = {.name = "butterfly",
           .number = 6,
           .description = "kernel 6 with __shfl_xor_sync: every lane gets the warp's sum",
           .kernel = (const void*)reduce_butterfly,
           .needs = PASS_BLOCK},
     .pass = reduce_butterfly,
     .per_block = 2 * RT,
     .shared = SHARED_ONE_WAVEFRONT},
    {.v = {.name = "one_pass",
           .number = 7,
           .description = "float4 loads, 4 in flight, grid-stride, last block adds: one launch",
           .kernel = (const void*)ONE_PASS,
           .needs = ONE_PASS_BLOCK},
     .launch = launch_one_pass,
     .shared = SHARED_ONE_WAVEFRONT},
    {.v = {.name = "warp_volatile",
           .number = -1,
           .description = "COUNTER-EXAMPLE: kernel 5 ending on volatile alone (no __syncwarp)",
           .on_request = 1,
           .kernel = (const void*)reduce_warp_volatile,
           .needs = PASS_BLOCK},
     .pass = reduce_warp_volatile,
     .per_block = 2 * RT},
    {.v = {.name = "scan_smem",
           .number = 9,
           .description = "beyond reductions: each warp's prefix sums through shared memory",
           .kernel = (const void*)scan_warp_smem,
           .needs = PASS_BLOCK},
     .launch = launch_scan_smem,
     .scan = 1,
     .shared = SHARED_ONE_WAVEFRONT},
    {.v = {.name = "scan_shuffle",
           .number = 9,
           .description = "the same with __shfl_up_sync: no shared memory",
           .kernel = (const void*)scan_warp_shuffle,
           .needs = PASS_BLOCK},
     .launch = launch_scan_shuffle,
     .scan = 1},
};

course_variants reduce_variants(void) {
    return course_variants_of(table, sizeof table[0], (int)(sizeof table / sizeof table[0]));
}

void reduce_variant_model(const reduce_variant* v, double* ld, double* st) {
    *ld = *st = v->shared == SHARED_ONE_WAVEFRONT ? 1.0 : -1.0;
    tree_step steps[MAX_TREE_STEPS];
    if (v->shared == SHARED_TREE && reduce_tree_model(v->tree, RT, steps, ld, st) < 0)
        die("%s: a shared access is malformed", v->v.name);
}

int reduce_launches_per_call(const reduce_variant* v, size_t n) {
    if (v->pass) return passes_for(n, v->per_block);
    return v->v.kernel ? 1 : 2;
}

void reduce_workspace_alloc(reduce_workspace* ws, const course_device* dev, size_t n_max) {
    int per_sm;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ONE_PASS, ONE_PASS_NT, 0));
    ws->one_pass_blocks = per_sm * dev->sm_count;
    const size_t partials = (n_max + RT - 1) / RT + (size_t)ws->one_pass_blocks + 1;
    CUDA_CHECK(cudaMalloc(&ws->partial[0], partials * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ws->partial[1], partials * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ws->arrived, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(ws->arrived, 0, sizeof(unsigned)));
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, ws->cub_temp_bytes, (const float*)NULL, (float*)NULL,
                                      (long long)n_max));
    CUDA_CHECK(cudaMalloc(&ws->cub_temp, ws->cub_temp_bytes + 16));
}
