/* Chapter 08, part 4: sgemm_auto (sgemm_auto.h) on the GPU: its kernels (the pack, the fixup,
 * K = 0's scale), the GPU's facts the plan needs, the workspace, and the plan run. */
#include "sgemm_auto.h"
#include "sgemm_auto_run.h"
#include "sgemm_launch.cuh"
#include "host/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the kernels it launches */

/* The kernels of each tile, fed by the TMA or by cp.async (their template arguments): 128 x 128
 * on chapter 06's geometry, 256 threads of 8 x 8 a lane (the variants tma_3 and async_3_swizzled:
 * twice the warps of cuBLAS's 128-thread geometry on a tile, which pays where there are few
 * tiles), 128 x 256 on 256 threads of 8 x 16 a lane (tma_wide_256). */
#define AUTO_TMA_128   128, 128, 256, 4, 8, 3, 0
#define AUTO_TMA_256   128, 256, 256, 8, 16, 3, 1
#define AUTO_ASYNC_128 128, 128, 8, 256, 4, 8, 3, ASYNC_A_SWIZZLED, reference_schedule
#define AUTO_ASYNC_256 128, 256, 8, 256, 8, 16, 3, ASYNC_A_SWIZZLED, reference_schedule
enum { AUTO_THREADS = 256 };

/* A rows x cols matrix (rows ld apart) into dst, rows ld_dst apart (a multiple of 4), the columns
 * from cols to ld_dst zero: whole float4 stores, 16-byte aligned. */
typedef struct {
    const float* src;
    int ld, rows, cols;
    float* dst;
    int ld_dst;
} sgemm_pack_job;

/* Both jobs (A's and B's) in one launch, since at the small shapes the pack matters at a launch
 * is a good part of its cost: blocks [0, blocks0) do job0, the rest job1, each a grid-stride loop
 * over its matrix's float4s. */
__global__ void sgemm_pack(sgemm_pack_job job0, sgemm_pack_job job1, int blocks0) {
    const int first = (int)blockIdx.x < blocks0;
    const sgemm_pack_job j = first ? job0 : job1;
    const long long block = first ? blockIdx.x : blockIdx.x - blocks0,
                    blocks = first ? blocks0 : gridDim.x - blocks0, q = j.ld_dst / 4;
    for (long long i = block * blockDim.x + threadIdx.x; i < j.rows * q; i += blocks * blockDim.x) {
        const long long r = i / q;
        const int c = (int)(i - r * q) * 4;
        const float* s = j.src + r * j.ld;
        float4 v;
        v.x = c < j.cols ? s[c] : 0.0f;
        v.y = c + 1 < j.cols ? s[c + 1] : 0.0f;
        v.z = c + 2 < j.cols ? s[c + 2] : 0.0f;
        v.w = c + 3 < j.cols ? s[c + 3] : 0.0f;
        *(float4*)&j.dst[i * 4] = v;
    }
}

/* K = 0: C = beta C (C not read when beta is 0, as in BLAS). */
__global__ void sgemm_scale(float* C, int M, int N, int ldc, float beta) {
    for (int r = blockIdx.y; r < M; r += gridDim.y)
        for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < N; c += gridDim.x * blockDim.x)
            C[(size_t)r * ldc + c] = beta == 0.0f ? 0.0f : beta * C[(size_t)r * ldc + c];
}

/* The stream-K tiles' sum: tile w.whole + blockIdx.y, four elements a thread; the blocks that
 * shared it added in a fixed order (the result does not depend on which block ran first). A
 * tile that one block covered whole is already in C. */
template <int BM, int BN>
__global__ void sgemm_fixup(gemm_work w, int M, int N, float alpha, float beta, float* C, int ldc) {
    const int tile = w.whole + (int)blockIdx.y;
    const int first = gemm_work_block_of(&w, (long long)tile * w.slices),
              last = gemm_work_block_of(&w, (long long)(tile + 1) * w.slices - 1);
    const int e = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (first == last || e >= BM * BN) return;
    const int r = tile / w.tiles_n * BM + e / BN, c0 = tile % w.tiles_n * BN + e % BN;
    if (r >= M || c0 >= N) return;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int b = first; b <= last; ++b) {
        const float4 v =
            *(const float4*)&w.partial[(size_t)gemm_work_slot(&w, b, tile) * BM * BN + e];
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
    }
    const float s[4] = {sum.x, sum.y, sum.z, sum.w};
    for (int j = 0; j < 4 && c0 + j < N; ++j) {
        float* out = &C[(size_t)r * ldc + c0 + j];
        *out = beta == 0.0f ? alpha * s[j] : alpha * s[j] + beta * *out;
    }
}

/* ---------------------------------------------------------------- the GPU and the table */

/* Each tile's kernel on each feed, a tile a block (data-parallel) or walking (stream-K); the
 * TMA's also with C's tile staged, for C's unaligned rows. */
template <bool STAGED_C>
static const void* tma_kernel_of(sgemm_tile t, sgemm_split split) {
    const int wide = t == SGEMM_TILE_128x256, walk = split == SGEMM_STREAM_K;
    return wide   ? walk ? (const void*)gemm_tma<AUTO_TMA_256, true, STAGED_C>
                         : (const void*)gemm_tma<AUTO_TMA_256, false, STAGED_C>
             : walk ? (const void*)gemm_tma<AUTO_TMA_128, true, STAGED_C>
                  : (const void*)gemm_tma<AUTO_TMA_128, false, STAGED_C>;
}
static const void* tma_kernel(sgemm_tile t, sgemm_split split) {
    return tma_kernel_of<false>(t, split);
}
static const void* async_kernel(sgemm_tile t, sgemm_split split) {
    const int wide = t == SGEMM_TILE_128x256, walk = split == SGEMM_STREAM_K;
    return wide   ? walk ? (const void*)gemm_async<AUTO_ASYNC_256, true>
                         : (const void*)gemm_async<AUTO_ASYNC_256, false>
             : walk ? (const void*)gemm_async<AUTO_ASYNC_128, true>
                  : (const void*)gemm_async<AUTO_ASYNC_128, false>;
}
static int tma_bytes(sgemm_tile t) {
    return tma_smem_bytes(128, t == SGEMM_TILE_128x256 ? 256 : 128, 3);
}
static int async_bytes(sgemm_tile t) {
    return async_smem_bytes(ASYNC_A_SWIZZLED, 128, t == SGEMM_TILE_128x256 ? 256 : 128, 8, 3);
}

course_variant sgemm_auto_kernel(sgemm_tile tile, sgemm_split split, int tma) {
    course_variant v;
    memset(&v, 0, sizeof v);
    v.kernel = tma ? tma_kernel(tile, split) : async_kernel(tile, split);
    v.needs.arch = tma ? 90 : 80;
    v.needs.feature = tma ? "the TMA" : "cp.async";
    v.needs.dynamic_smem = (size_t)(tma ? tma_bytes(tile) : async_bytes(tile));
    v.needs.threads = AUTO_THREADS;
    return v;
}

/* The table's choice for a shape asked before. Scaling the table's 1372 rows takes the host tens
 * of microseconds, as long as the GPU takes over a 1024^3 product: a call that chose afresh each
 * time would leave the GPU waiting on the host at the small shapes. */
enum { CHOICES_KEPT = 16 };
typedef struct {
    int M, N, K;
    const sgemm_gpu* gpu;
    sgemm_choice choice;
} kept_choice;

static struct {
    int ready, table_ready;
    sgemm_gpu gpu, gpu_async, gpu_staged; /* the facts for the feed in use, for cp.async's, and
                                           * for the feed in use with C's tile staged */
    sgemm_table table;
    kept_choice kept[CHOICES_KEPT]; /* the last shapes' choices, the oldest replaced first */
    int n_kept, next_kept;
    void* workspace;
    size_t workspace_bytes;
} S;

/* The TMA feeds the kernels where the GPU (9.0), the driver (its encoder) and the binary (code
 * built for 9.0, not PTX of an older GPU) all have it. */
static int tma_here(int dev) {
    int major;
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 9 || !course_tma_encoder()) return 0;
    cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, tma_kernel(SGEMM_TILE_128x128, SGEMM_DATA_PARALLEL)));
    return a.ptxVersion >= 90;
}

/* The table, read on first use: the tuner, which only forces choices, never needs it. */
static void load_table(void) {
    if (S.table_ready) return;
    S.table_ready = 1;
    char why[256];
    const char* path = getenv("COURSE_SGEMM_TABLE");
    if (!path || !*path) {
        if (sgemm_table_parse(sgemm_table_h200, &S.table, why, sizeof why))
            die("sgemm_auto: the built-in table: %s", why);
        snprintf(S.table.source, sizeof S.table.source,
                 "built in, measured on an H200 (08_cp_async/results/h200_sgemm_table.csv)");
        return;
    }
    FILE* f = fopen(path, "rb");
    if (!f) die("sgemm_auto: COURSE_SGEMM_TABLE=%s cannot be read", path);
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    if (sgemm_table_parse(text, &S.table, why, sizeof why))
        die("sgemm_auto: COURSE_SGEMM_TABLE=%s: %s", path, why);
    snprintf(S.table.source, sizeof S.table.source, "COURSE_SGEMM_TABLE=%s", path);
}

/* How many blocks of a kernel fit on an SM, its shared memory granted; 0 where a block needs more
 * than the GPU gives one (the plan then takes the other tile). */
static int blocks_per_sm(int dev, const void* kernel, int bytes) {
    int most, n = 0;
    cudaFuncAttributes a;
    CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
    if (bytes + (int)a.sharedSizeBytes > most) return 0;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, AUTO_THREADS, bytes));
    return n;
}

void sgemm_auto_configure(void) {
    if (S.ready) return;
    int dev;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&S.gpu.sms, cudaDevAttrMultiProcessorCount, dev));
    S.gpu_async = S.gpu;
    S.gpu.tma = tma_here(dev);
    S.gpu_staged = S.gpu;
    for (int t = 0; t < SGEMM_TILES; ++t)
        for (int split = 0; split < 2; ++split) {
            const sgemm_tile tile = (sgemm_tile)t;
            const sgemm_split sp = (sgemm_split)split;
            int* async_n = &S.gpu_async.blocks_per_sm[t][split];
            *async_n = blocks_per_sm(dev, async_kernel(tile, sp), async_bytes(tile));
            S.gpu.blocks_per_sm[t][split] =
                S.gpu.tma ? blocks_per_sm(dev, tma_kernel(tile, sp), tma_bytes(tile)) : *async_n;
            S.gpu_staged.blocks_per_sm[t][split] =
                S.gpu.tma ? blocks_per_sm(dev, tma_kernel_of<true>(tile, sp), tma_bytes(tile))
                          : *async_n;
        }
    S.ready = 1;
}

const sgemm_gpu* sgemm_auto_gpu(void) {
    sgemm_auto_configure();
    return &S.gpu;
}

const sgemm_table* sgemm_auto_table(void) {
    sgemm_auto_configure();
    load_table();
    return &S.table;
}

/* The facts of the kernels a call runs: cp.async's where asked, the staged TMA kernels' for C's
 * unaligned rows (sgemm_auto_run). */
static const sgemm_gpu* gpu_for(const gemm_call* c, int cp_async) {
    return cp_async ? &S.gpu_async : S.gpu.tma && !sgemm_c_vec(c) ? &S.gpu_staged : &S.gpu;
}

static sgemm_choice table_choice(const gemm_call* c, const sgemm_gpu* g) {
    for (int i = 0; i < S.n_kept; ++i) {
        const kept_choice* k = &S.kept[i];
        if (k->M == c->M && k->N == c->N && k->K == c->K && k->gpu == g) return k->choice;
    }
    const kept_choice k = {c->M, c->N, c->K, g,
                           sgemm_table_choice(sgemm_auto_table(), g, c->M, c->N, c->K)};
    S.kept[S.next_kept] = k;
    S.next_kept = (S.next_kept + 1) % CHOICES_KEPT;
    if (S.n_kept < CHOICES_KEPT) ++S.n_kept;
    return k.choice;
}

/* ---------------------------------------------------------------- the plan, run
 * Launch errors are checked without a synchronisation: the call stays asynchronous, like a
 * library's. */

/* A call BLAS would refuse: negative sizes, rows shorter than the matrix's. */
static void require_valid(const gemm_call* c) {
    if (c->M < 0 || c->N < 0 || c->K < 0)
        die("sgemm_auto: M, N, K must be >= 0 (got %d, %d, %d)", c->M, c->N, c->K);
    if (c->lda < (c->K > 0 ? c->K : 1) || c->ldb < (c->N > 0 ? c->N : 1) ||
        c->ldc < (c->N > 0 ? c->N : 1))
        die("sgemm_auto: lda %d, ldb %d, ldc %d: need lda >= max(1, K = %d), ldb and ldc >= "
            "max(1, N = %d)",
            c->lda, c->ldb, c->ldc, c->K, c->N);
}

sgemm_plan sgemm_auto_plan(const gemm_call* c, const sgemm_choice* forced, int cp_async) {
    sgemm_auto_configure();
    require_valid(c);
    const sgemm_gpu* g = gpu_for(c, cp_async);
    const sgemm_choice choice = forced ? *forced : table_choice(c, g);
    sgemm_plan p = sgemm_plan_for(c->M, c->N, c->K, c->lda, c->ldb, (uintptr_t)c->A,
                                  (uintptr_t)c->B, g, choice);
    /* alpha = 0: C = beta C, A and B not read (as in BLAS: an Inf in them does not reach C) */
    if (c->alpha == 0.0f && !p.nothing) p.scale_only = 1;
    return p;
}

static size_t align256(size_t n) {
    return (n + 255) / 256 * 256;
}

/* The workspace, grown (never shrunk) to what a plan needs: the one allocation sgemm_auto makes,
 * on a call that needs more than any before it. Not for two host threads at once. */
static char* workspace(size_t bytes) {
    if (bytes > S.workspace_bytes) {
        if (S.workspace) CUDA_CHECK(cudaFree(S.workspace));
        CUDA_CHECK(cudaMalloc(&S.workspace, bytes));
        S.workspace_bytes = bytes;
    }
    return (char*)S.workspace;
}

/* Blocks of 256 threads along a row (per_row threads), a block row per matrix row (up to 65535,
 * then strided). */
static dim3 rows_grid(int rows, int per_row) {
    const int x = (per_row + 255) / 256;
    return dim3(x < 1 ? 1 : x, rows < 65535 ? (rows > 0 ? rows : 1) : 65535);
}

/* A and B where the plan reads them: packed into the workspace where it says so. */
static void pack_operands(const gemm_call* c, const sgemm_plan* p, char* ws, const float** A,
                          const float** B) {
    *A = c->A, *B = c->B;
    sgemm_pack_job job[2];
    int jobs = 0;
    if (p->pack_a) {
        const sgemm_pack_job a = {c->A, c->lda, c->M, c->K, (float*)ws, p->lda};
        job[jobs++] = a;
        *A = a.dst;
    }
    if (p->pack_b) {
        const sgemm_pack_job b = {
            c->B, c->ldb, c->K, c->N, (float*)(ws + align256(p->pack_a_bytes)), p->ldb};
        job[jobs++] = b;
        *B = b.dst;
    }
    if (!jobs) return;
    /* a block per 256 float4s of each job, up to 4096 */
    int blocks[2] = {0, 0};
    for (int j = 0; j < jobs; ++j) {
        const long long n = ((long long)job[j].rows * (job[j].ld_dst / 4) + 255) / 256;
        blocks[j] = n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
    }
    sgemm_pack<<<blocks[0] + blocks[1], 256>>>(job[0], job[jobs - 1], blocks[0]);
    CUDA_CHECK(cudaGetLastError());
}

void sgemm_auto_run(const gemm_call* c, const sgemm_plan* p) {
    if (p->nothing) return;
    if (p->scale_only) {
        sgemm_scale<<<rows_grid(c->M, c->N), 256>>>(c->C, c->M, c->N, c->ldc, c->beta);
        CUDA_CHECK(cudaGetLastError());
        return;
    }
    const size_t at_partial = align256(p->pack_a_bytes) + align256(p->pack_b_bytes);
    char* ws = workspace(at_partial + p->partial_bytes);
    const float *A, *B;
    pack_operands(c, p, ws, &A, &B);
    gemm_work w = p->work;
    w.partial = (float*)(ws + at_partial);
    const int wide = p->choice.tile == SGEMM_TILE_128x256;
    if (p->tma && sgemm_c_vec(c)) {
        if (w.sk_blocks)
            wide ? run_tma<AUTO_TMA_256, true>(c, A, p->lda, B, p->ldb, w)
                 : run_tma<AUTO_TMA_128, true>(c, A, p->lda, B, p->ldb, w);
        else
            wide ? run_tma<AUTO_TMA_256, false>(c, A, p->lda, B, p->ldb, w)
                 : run_tma<AUTO_TMA_128, false>(c, A, p->lda, B, p->ldb, w);
    } else if (p->tma) {
        if (w.sk_blocks)
            wide ? run_tma<AUTO_TMA_256, true, true>(c, A, p->lda, B, p->ldb, w)
                 : run_tma<AUTO_TMA_128, true, true>(c, A, p->lda, B, p->ldb, w);
        else
            wide ? run_tma<AUTO_TMA_256, false, true>(c, A, p->lda, B, p->ldb, w)
                 : run_tma<AUTO_TMA_128, false, true>(c, A, p->lda, B, p->ldb, w);
    } else {
        if (w.sk_blocks)
            wide ? run_async<AUTO_ASYNC_256, true>(c, A, p->lda, B, p->ldb, p->vec, w)
                 : run_async<AUTO_ASYNC_128, true>(c, A, p->lda, B, p->ldb, p->vec, w);
        else
            wide ? run_async<AUTO_ASYNC_256, false>(c, A, p->lda, B, p->ldb, p->vec, w)
                 : run_async<AUTO_ASYNC_128, false>(c, A, p->lda, B, p->ldb, p->vec, w);
    }
    CUDA_CHECK(cudaGetLastError());
    if (w.sk_blocks) {
        const int bn = wide ? 256 : 128;
        const dim3 grid(128 * bn / 4 / 256, p->sk_tiles);
        if (wide)
            sgemm_fixup<128, 256><<<grid, 256>>>(w, c->M, c->N, c->alpha, c->beta, c->C, c->ldc);
        else
            sgemm_fixup<128, 128><<<grid, 256>>>(w, c->M, c->N, c->alpha, c->beta, c->C, c->ldc);
        CUDA_CHECK(cudaGetLastError());
    }
}

void sgemm_auto_pack_only(const gemm_call* c, const sgemm_plan* p) {
    if (!p->pack_a && !p->pack_b) return;
    const float *A, *B;
    pack_operands(c, p, workspace(align256(p->pack_a_bytes) + align256(p->pack_b_bytes)), &A, &B);
}

void sgemm_auto(const gemm_call* c) {
    const sgemm_plan p = sgemm_auto_plan(c, NULL, 0);
    sgemm_auto_run(c, &p);
}
