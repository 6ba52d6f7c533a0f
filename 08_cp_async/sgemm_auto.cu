/* Chapter 08, part 4: sgemm_auto (sgemm_auto.h) on the GPU: its kernels (the pack, the fixup,
 * K = 0's scale), the GPU's facts the plan needs, the workspace, and the plan run. */
#include "sgemm_auto.h"
#include "sgemm_auto_run.h"
#include "sgemm_edge.cuh"
#include "sgemm_launch.cuh"
#include "host/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the kernels it launches */

/* Each tile's geometry, for the TMA's kernel and cp.async's alike: 128 x 128 on chapter 06's, 256
 * threads of 8 x 8 a lane (the variants tma_3 and async_3_swizzled: twice the warps of cuBLAS's
 * 128-thread geometry on a tile, which pays where there are few tiles), 128 x 256 on 256 threads
 * of 8 x 16 a lane (tma_wide_256), 128 x 128 on 128 threads of 8 x 16 a lane (cuBLAS's geometry:
 * tma_wide_3 and wide_3_swizzled).
 * INTERLEAVE is the TMA kernel's (the cp.async one keeps a lane's rows 4 apart). Every tile is 3
 * stages deep, BK = 32 on the TMA and 8 on cp.async, A through the 128B swizzle. */
template <int TILE>
struct auto_tile;
template <>
struct auto_tile<SGEMM_TILE_128x128> {
    static constexpr int BN = 128, NT = 256, LANES_M = 4, TN = 8, INTERLEAVE = 0;
};
template <>
struct auto_tile<SGEMM_TILE_128x256> {
    static constexpr int BN = 256, NT = 256, LANES_M = 8, TN = 16, INTERLEAVE = 1;
};
template <>
struct auto_tile<SGEMM_TILE_128x128_128T> {
    static constexpr int BN = 128, NT = 128, LANES_M = 8, TN = 16, INTERLEAVE = 1;
};
template <int TILE, bool WALK, bool STAGED_C>
static const void* auto_tma_kernel() {
    typedef auto_tile<TILE> T;
    return (const void*)
        gemm_tma<128, T::BN, T::NT, T::LANES_M, T::TN, 3, T::INTERLEAVE, WALK, STAGED_C>;
}
/* The 128 x 256 tiles' kernel that packs beside them (sgemm_plan.pack_spare). */
template <bool STAGED_C>
static const void* beside_kernel() {
    typedef auto_tile<SGEMM_TILE_128x256> T;
    return (const void*)
        gemm_tma<128, T::BN, T::NT, T::LANES_M, T::TN, 3, T::INTERLEAVE, false, STAGED_C, true>;
}
/* The 128 x 128 tiles' walking kernel that waits for the packing alongside it
 * (sgemm_plan.pack_along). Only that tile's: the 128 x 256 walk (255 registers a thread) and the
 * 128-thread tile's two walking blocks fill an SM's 65,536 registers, leaving no room for a
 * packing block. */
template <bool STAGED_C>
static const void* along_kernel() {
    typedef auto_tile<SGEMM_TILE_128x128> T;
    return (const void*)
        gemm_tma<128, T::BN, T::NT, T::LANES_M, T::TN, 3, T::INTERLEAVE, true, STAGED_C, true>;
}
template <int TILE, bool WALK>
static const void* auto_async_kernel() {
    typedef auto_tile<TILE> T;
    return (const void*)gemm_async<128, T::BN, 8, T::NT, T::LANES_M, T::TN, 3, ASYNC_A_SWIZZLED,
                                   reference_schedule, WALK>;
}
static int auto_threads(sgemm_tile t) {
    return t == SGEMM_TILE_128x256        ? auto_tile<SGEMM_TILE_128x256>::NT
           : t == SGEMM_TILE_128x128_128T ? auto_tile<SGEMM_TILE_128x128_128T>::NT
                                          : auto_tile<SGEMM_TILE_128x128>::NT;
}
static_assert(auto_tile<SGEMM_TILE_128x128>::BN == 128 &&
                  auto_tile<SGEMM_TILE_128x256>::BN == 256 &&
                  auto_tile<SGEMM_TILE_128x128_128T>::BN == 128,
              "the traits' columns are sgemm_tile_bn's");

/* A rows x cols matrix (rows ld apart) into dst, rows ld_dst apart (a multiple of 4), the columns
 * from cols to ld_dst zero: whole float4 stores, 16-byte aligned. */
typedef struct {
    const float* src;
    int ld, rows, cols;
    float* dst;
    int ld_dst;
} sgemm_pack_job;

/* Block `block` of `blocks` on a pack job: a warp a row (rows warp, warp + the job's warps, ...),
 * its lanes along the row's float4s, PACK_UNROLL of them a lane loaded before any is stored, so
 * that each lane has several loads in flight; a narrow row keeps a warp, not a block. (A
 * grid-stride loop over the matrix's float4s, one at a time, paid a 64-bit division for each and
 * moved 2.9 TB/s on the H200, two thirds of a copy's speed.) */
enum { PACK_UNROLL = 4 };
__device__ __forceinline__ void sgemm_pack_block(const sgemm_pack_job& j, int block, int blocks) {
    const int q = j.ld_dst / 4, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int r = block * warps + (int)threadIdx.x / 32; r < j.rows; r += blocks * warps) {
        const float* s = j.src + (size_t)r * j.ld;
        float4* d = (float4*)(j.dst + (size_t)r * j.ld_dst);
        for (int c0 = lane; c0 < q; c0 += PACK_UNROLL * 32) {
            float4 v[PACK_UNROLL];
#pragma unroll
            for (int u = 0; u < PACK_UNROLL; ++u) {
                const int c = (c0 + u * 32) * 4;
                v[u].x = c < j.cols ? __ldg(s + c) : 0.0f;
                v[u].y = c + 1 < j.cols ? __ldg(s + c + 1) : 0.0f;
                v[u].z = c + 2 < j.cols ? __ldg(s + c + 2) : 0.0f;
                v[u].w = c + 3 < j.cols ? __ldg(s + c + 3) : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < PACK_UNROLL; ++u)
                if (c0 + u * 32 < q) d[c0 + u * 32] = v[u];
        }
    }
}

/* The packing: block `b` of the grid on job0's blocks0 first, then job1's. Four blocks an SM, for
 * loads in flight. */
__global__ void __launch_bounds__(EDGE_THREADS, 4)
    sgemm_pack(sgemm_pack_job job0, sgemm_pack_job job1, int blocks0, int blocks1) {
    const int b = blockIdx.x;
    if (b < blocks0)
        sgemm_pack_block(job0, b, blocks0);
    else
        sgemm_pack_block(job1, b - blocks0, blocks1);
}

/* The edges (sgemm_edge.cuh), launched beside the tiles on a second stream (sgemm_auto_run): they
 * write C where no tile does and read only what the tiles read. Three blocks an SM at least (the
 * edges' 40 loads in flight a lane). */
__global__ void __launch_bounds__(EDGE_THREADS, 3) sgemm_edges(sgemm_edge_job edges) {
    sgemm_edge_block(edges, (int)blockIdx.x);
}

/* K = 0: C = beta C (C not read when beta is 0, as in BLAS). */
__global__ void sgemm_scale(float* C, int M, int N, int ldc, float beta) {
    for (int r = blockIdx.y; r < M; r += gridDim.y)
        for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < N; c += gridDim.x * blockDim.x)
            C[(size_t)r * ldc + c] = beta == 0.0f ? 0.0f : beta * C[(size_t)r * ldc + c];
}

/* The stream-K tiles' sum: tile w.whole + blockIdx.y, FIXUP_THREADS x FIXUP_PASSES elements a
 * block, the blocks that shared it added in a fixed order (the result does not depend on which
 * block ran first). A tile that one block covered whole is already in C. A warp takes 32
 * consecutive elements a pass, which lie in one row of the tile (BN a multiple of 32): one
 * contiguous run of each part and of C, whatever ldc is, where four elements a thread made each
 * of a warp's stores span 512 bytes of a row, every sector written by four instructions. */
enum { FIXUP_THREADS = 256, FIXUP_PASSES = 4 };
template <int BM, int BN>
__global__ void __launch_bounds__(FIXUP_THREADS)
    sgemm_fixup(gemm_work w, int M, int N, float alpha, float beta, float* C, int ldc) {
    static_assert(BM * BN % (FIXUP_THREADS * FIXUP_PASSES) == 0 && BN % 32 == 0,
                  "whole blocks of the tile, a warp's run in one row");
    const int tile = w.whole + (int)blockIdx.y;
    const int first = gemm_work_block_of(&w, (long long)tile * w.slices),
              last = gemm_work_block_of(&w, (long long)(tile + 1) * w.slices - 1);
    if (first == last) return;
    const int e0 = blockIdx.x * FIXUP_THREADS * FIXUP_PASSES + threadIdx.x;
    float sum[FIXUP_PASSES] = {};
    for (int b = first; b <= last; ++b) {
        const float* part = w.partial + (size_t)gemm_work_slot(&w, b, tile) * BM * BN;
#pragma unroll
        for (int k = 0; k < FIXUP_PASSES; ++k) sum[k] += part[e0 + k * FIXUP_THREADS];
    }
    const int r0 = tile / w.tiles_n * BM, c0 = tile % w.tiles_n * BN;
#pragma unroll
    for (int k = 0; k < FIXUP_PASSES; ++k) {
        const int e = e0 + k * FIXUP_THREADS, r = r0 + e / BN, c = c0 + e % BN;
        if (r < M && c < N) gemm_store(C, (size_t)r * ldc + c, sum[k], alpha, beta);
    }
}

/* ---------------------------------------------------------------- the GPU and the table */

/* Each tile's kernel on each feed, a tile a block (data-parallel) or walking (stream-K); the
 * TMA's also with C's tile staged, for C's unaligned rows. */
template <bool WALK, bool STAGED_C>
static const void* tma_kernel_at(sgemm_tile t) {
    return t == SGEMM_TILE_128x256 ? auto_tma_kernel<SGEMM_TILE_128x256, WALK, STAGED_C>()
           : t == SGEMM_TILE_128x128_128T
               ? auto_tma_kernel<SGEMM_TILE_128x128_128T, WALK, STAGED_C>()
               : auto_tma_kernel<SGEMM_TILE_128x128, WALK, STAGED_C>();
}
static const void* tma_kernel_of(sgemm_tile t, sgemm_split split, bool staged_c) {
    const bool walk = split == SGEMM_STREAM_K;
    return walk       ? staged_c ? tma_kernel_at<true, true>(t) : tma_kernel_at<true, false>(t)
                 : staged_c ? tma_kernel_at<false, true>(t)
                      : tma_kernel_at<false, false>(t);
}
static const void* tma_kernel(sgemm_tile t, sgemm_split split) {
    return tma_kernel_of(t, split, false);
}
template <bool WALK>
static const void* async_kernel_at(sgemm_tile t) {
    return t == SGEMM_TILE_128x256        ? auto_async_kernel<SGEMM_TILE_128x256, WALK>()
           : t == SGEMM_TILE_128x128_128T ? auto_async_kernel<SGEMM_TILE_128x128_128T, WALK>()
                                          : auto_async_kernel<SGEMM_TILE_128x128, WALK>();
}
static const void* async_kernel(sgemm_tile t, sgemm_split split) {
    return split == SGEMM_STREAM_K ? async_kernel_at<true>(t) : async_kernel_at<false>(t);
}
static int tma_bytes(sgemm_tile t) {
    return tma_smem_bytes(128, sgemm_tile_bn(t), 3);
}
static int async_bytes(sgemm_tile t) {
    return async_smem_bytes(ASYNC_A_SWIZZLED, 128, sgemm_tile_bn(t), 8, 3);
}

course_variant sgemm_auto_kernel(sgemm_tile tile, sgemm_split split, int tma) {
    course_variant v;
    memset(&v, 0, sizeof v);
    v.kernel = tma ? tma_kernel(tile, split) : async_kernel(tile, split);
    v.needs.arch = tma ? 90 : 80;
    v.needs.feature = tma ? "the TMA" : "cp.async";
    v.needs.dynamic_smem = (size_t)(tma ? tma_bytes(tile) : async_bytes(tile));
    v.needs.threads = auto_threads(tile);
    return v;
}

/* The table's choice for a shape asked before. Scaling the table's rows (2058 for six choices)
 * takes the host tens of microseconds, as long as the GPU takes over a 1024^3 product: a call that
 * chose afresh each time would leave the GPU waiting on the host at the small shapes. */
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
    unsigned* finished; /* the edge patches' counters (sgemm_edge.cuh) */
    int finished_n;
    unsigned* pack_ready;   /* the packing beside the tiles' counters, a chunk each ... */
    unsigned pack_total;    /* ... and what each holds: the blocks of every such call so far */
    cudaStream_t side;      /* the edges' stream, beside the caller's */
    cudaEvent_t fork, join; /* where the edges leave the caller's stream and meet it again */
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
static int blocks_per_sm(int dev, const void* kernel, int threads, int bytes) {
    int most, n = 0;
    cudaFuncAttributes a;
    CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
    if (bytes + (int)a.sharedSizeBytes > most) return 0;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, bytes));
    return n;
}

/* Whether a block of `extra` (threads, no shared memory of its own) fits on an SM beside `blocks`
 * of `kernel` (threads and dynamic shared memory a block): registers (a warp's in units of 256),
 * threads, and the shared memory every block reserves. */
static int room_beside(int dev, const void* kernel, int blocks, int threads, int bytes,
                       const void* extra, int extra_threads) {
    cudaFuncAttributes a, e;
    int regs, max_threads, smem, reserved;
    CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
    CUDA_CHECK(cudaFuncGetAttributes(&e, extra));
    CUDA_CHECK(cudaDeviceGetAttribute(&regs, cudaDevAttrMaxRegistersPerMultiprocessor, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
    const auto warp_regs = [](int r) { return (r * 32 + 255) / 256 * 256; };
    const long long used_regs = (long long)blocks * (threads / 32) * warp_regs(a.numRegs) +
                                extra_threads / 32 * warp_regs(e.numRegs);
    const long long used_smem =
        (long long)blocks * (bytes + (long long)a.sharedSizeBytes + reserved) + e.sharedSizeBytes +
        reserved;
    return used_regs <= regs && blocks * threads + extra_threads <= max_threads &&
           used_smem <= smem;
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
            const int nt = auto_threads(tile);
            *async_n = blocks_per_sm(dev, async_kernel(tile, sp), nt, async_bytes(tile));
            S.gpu.blocks_per_sm[t][split] =
                S.gpu.tma ? blocks_per_sm(dev, tma_kernel(tile, sp), nt, tma_bytes(tile))
                          : *async_n;
            S.gpu_staged.blocks_per_sm[t][split] =
                S.gpu.tma ? blocks_per_sm(dev, tma_kernel_of(tile, sp, true), nt, tma_bytes(tile))
                          : *async_n;
        }
    /* The packing beside the tiles: a cooperative launch of as many blocks as the 128 x 256
     * tiles' kernel fits, so its own kernel must fit as many. */
    int cooperative = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, dev));
    if (S.gpu.tma && cooperative) {
        const int t = SGEMM_TILE_128x256, b = tma_bytes(SGEMM_TILE_128x256),
                  nt = auto_threads(SGEMM_TILE_128x256);
        const int plain = S.gpu.blocks_per_sm[t][SGEMM_DATA_PARALLEL],
                  staged = S.gpu_staged.blocks_per_sm[t][SGEMM_DATA_PARALLEL];
        S.gpu.pack_beside = plain > 0 && blocks_per_sm(dev, beside_kernel<false>(), nt, b) == plain;
        S.gpu_staged.pack_beside =
            staged > 0 && blocks_per_sm(dev, beside_kernel<true>(), nt, b) == staged;
    }
    /* The packing alongside the 128 x 128 walk: a block an SM, resident beside the walk's (they
     * launch as its programmatic dependents, sm_90 as the TMA is), where the waiting kernels fit
     * as the walk does with room left on the SM for a packing block: else the walk's blocks would
     * wait for the packers to end. An SM's split of L1 and shared memory is set by the blocks it
     * holds, so both kernels prefer the most shared memory: a packing block, which uses none,
     * would otherwise choose a split that leaves the walk's blocks no room. */
    if (S.gpu.tma) {
        const void* packer = (const void*)pack_along<PACK_ALONG_UNITS>;
        const sgemm_tile tile = SGEMM_TILE_128x128;
        const int nt = auto_threads(tile), bytes = tma_bytes(tile);
        CUDA_CHECK(cudaFuncSetAttribute(packer, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        cudaSharedmemCarveoutMaxShared));
        int fits = 1;
        for (int staged = 0; staged < 2; ++staged) {
            const void* k = staged ? along_kernel<true>() : along_kernel<false>();
            const int n = (staged ? &S.gpu_staged : &S.gpu)->blocks_per_sm[tile][SGEMM_STREAM_K];
            CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                            cudaSharedmemCarveoutMaxShared));
            fits = fits && n > 0 && blocks_per_sm(dev, k, nt, bytes) == n &&
                   room_beside(dev, k, n, nt, bytes, packer, PACK_ALONG_THREADS);
        }
        S.gpu.pack_along[tile] = S.gpu_staged.pack_along[tile] = fits ? S.gpu.sms : 0;
    }
    /* non-blocking: the legacy default stream would otherwise wait for it, and it for that */
    CUDA_CHECK(cudaStreamCreateWithFlags(&S.side, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&S.fork, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&S.join, cudaEventDisableTiming));
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

/* The workspace's parts, in order, each from a 256-byte boundary: A packed, B packed, the stream-K
 * parts, the edges' sums; where each starts, and the whole. */
typedef struct {
    size_t b, partial, edges, bytes;
} workspace_parts;
static workspace_parts parts_of(const sgemm_plan* p) {
    workspace_parts w;
    w.b = align256(p->pack_a_bytes);
    w.partial = w.b + align256(p->pack_b_bytes);
    w.edges = w.partial + align256(p->partial_bytes);
    w.bytes = w.edges + p->edge_bytes;
    return w;
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

/* The edge kernel's counters, zero between launches (the last block of a patch puts it back):
 * grown like the workspace, zeroed when allocated. */
static unsigned* edge_counters(int n) {
    if (n > S.finished_n) {
        if (S.finished) CUDA_CHECK(cudaFree(S.finished));
        CUDA_CHECK(cudaMalloc(&S.finished, (size_t)n * sizeof(unsigned)));
        CUDA_CHECK(cudaMemset(S.finished, 0, (size_t)n * sizeof(unsigned)));
        S.finished_n = n;
    }
    return S.finished;
}

/* The plan's edges as the edge kernel's two strips (sgemm_edge.cuh). */
static sgemm_edge_job edge_job(const gemm_call* c, const sgemm_plan* p, float* partial) {
    sgemm_edge_job e;
    memset(&e, 0, sizeof e);
    sgemm_strip* r = &e.strip[0]; /* rows m0.. of C, every column */
    r->x = c->A + (size_t)p->m0 * c->lda, r->xi = c->lda, r->xk = 1;
    r->y = c->B, r->yk = c->ldb, r->yc = 1;
    r->o = c->C + (size_t)p->m0 * c->ldc, r->oi = c->ldc, r->oc = 1;
    r->rows = p->edge_rows, r->cols = c->N;
    r->patches = sgemm_edge_patches_of(r->rows, r->cols);
    sgemm_strip* k = &e.strip[1]; /* columns n0.. of rows [0, m0), transposed */
    k->x = c->B + p->n0, k->xi = 1, k->xk = c->ldb;
    k->y = c->A, k->yk = 1, k->yc = c->lda;
    k->o = c->C + p->n0, k->oi = 1, k->oc = c->ldc;
    k->rows = p->edge_cols, k->cols = p->m0;
    k->patches = sgemm_edge_patches_of(k->rows, k->cols);
    e.K = c->K, e.chunks = p->edge_chunks;
    e.alpha = c->alpha, e.beta = c->beta;
    e.partial = partial;
    e.finished = p->edge_chunks > 1 && p->edge_patches ? edge_counters(p->edge_patches) : NULL;
    e.blocks = p->edge_patches * p->edge_chunks;
    return e;
}

/* A and B where the tiles read them: packed into the workspace where the plan says so (one launch
 * on the caller's stream, before the tiles), else the caller's. */
static void pack_operands(const gemm_call* c, const sgemm_plan* p, char* ws, const float** A,
                          const float** B) {
    *A = c->A, *B = c->B;
    sgemm_pack_job job[2];
    memset(job, 0, sizeof job);
    int jobs = 0;
    if (p->pack_a) {
        const sgemm_pack_job a = {c->A, c->lda, p->m0, c->K, (float*)ws, p->lda};
        job[jobs++] = a;
        *A = a.dst;
    }
    if (p->pack_b) {
        const sgemm_pack_job b = {c->B, c->ldb, c->K, p->n0, (float*)(ws + parts_of(p).b), p->ldb};
        job[jobs++] = b;
        *B = b.dst;
    }
    if (!jobs) return;
    /* a warp a row of each job, up to 4096 blocks */
    int blocks[2] = {0, 0};
    for (int j = 0; j < jobs; ++j) {
        const int n = (job[j].rows + EDGE_WARPS - 1) / EDGE_WARPS;
        blocks[j] = n < 1 ? 1 : n > 4096 ? 4096 : n;
    }
    sgemm_pack<<<blocks[0] + blocks[1], EDGE_THREADS>>>(job[0], job[jobs > 1 ? 1 : 0], blocks[0],
                                                        blocks[1]);
    CUDA_CHECK(cudaGetLastError());
}

/* The plan's edge job, its sums after the workspace's other parts. Its counters are allocated
 * and zeroed on the caller's stream (edge_counters): build it before the edges fork from it. */
static sgemm_edge_job edges_of(const gemm_call* c, const sgemm_plan* p, char* ws) {
    return edge_job(c, p, (float*)(ws + parts_of(p).edges));
}

static void run_edges(const sgemm_edge_job& e, cudaStream_t stream) {
    if (!e.blocks) return;
    sgemm_edges<<<e.blocks, EDGE_THREADS, 0, stream>>>(e);
    CUDA_CHECK(cudaGetLastError());
}

/* The plan's kernel on its tile: the TMA's (C staged where its rows are unaligned) or cp.async's,
 * walking where the plan has stream-K blocks, then their fixup. */
template <int TILE>
static void run_tile(const gemm_call* c, const sgemm_plan* p, const float* A, const float* B,
                     const gemm_work& w, const gemm_pack_beside& pk) {
    typedef auto_tile<TILE> T;
    const bool walk = w.sk_blocks > 0, staged = !sgemm_c_vec(c);
#define AUTO_TMA(WALK, STAGED)                                                                     \
    run_tma<128, T::BN, T::NT, T::LANES_M, T::TN, 3, T::INTERLEAVE, WALK, STAGED>(c, A, p->lda, B, \
                                                                                  p->ldb, w)
#define AUTO_ASYNC(WALK)                                                                           \
    run_async<128, T::BN, 8, T::NT, T::LANES_M, T::TN, 3, ASYNC_A_SWIZZLED, reference_schedule,    \
              WALK>(c, A, p->lda, B, p->ldb, p->vec, w)
#define AUTO_TMA_PACKED(WALK, STAGED)                                                              \
    run_tma<128, T::BN, T::NT, T::LANES_M, T::TN, 3, T::INTERLEAVE, WALK, STAGED, true>(           \
        c, A, p->lda, B, p->ldb, w, pk)
    if constexpr (TILE == SGEMM_TILE_128x256)
        if (p->pack_spare) {
            staged ? AUTO_TMA_PACKED(false, true) : AUTO_TMA_PACKED(false, false);
            return; /* a checked cudaLaunchKernelEx */
        }
    if (p->pack_along) { /* the packing grid, then the walk as its dependent (128 x 128 alone) */
        if constexpr (TILE == SGEMM_TILE_128x128) {
            pack_along<PACK_ALONG_UNITS><<<p->pack_along, PACK_ALONG_THREADS>>>(pk);
            CUDA_CHECK(cudaGetLastError());
            staged ? AUTO_TMA_PACKED(true, true) : AUTO_TMA_PACKED(true, false);
        } else {
            die("sgemm_auto: a plan packs alongside a tile other than 128 x 128");
        }
    } else if (p->tma) {
        if (walk)
            staged ? AUTO_TMA(true, true) : AUTO_TMA(true, false);
        else
            staged ? AUTO_TMA(false, true) : AUTO_TMA(false, false);
    } else {
        walk ? AUTO_ASYNC(true) : AUTO_ASYNC(false);
    }
#undef AUTO_TMA
#undef AUTO_ASYNC
#undef AUTO_TMA_PACKED
    CUDA_CHECK(cudaGetLastError());
    if (walk) {
        sgemm_fixup<128, T::BN>
            <<<dim3(128 * T::BN / (FIXUP_THREADS * FIXUP_PASSES), p->sk_tiles), FIXUP_THREADS>>>(
                w, c->M, c->N, c->alpha, c->beta, c->C, c->ldc);
        CUDA_CHECK(cudaGetLastError());
    }
}

/* The packing beside the tiles or alongside their walk (the plan's pack_spare or pack_along,
 * pack_beside.cuh): A and B into the workspace as pack_operands would, during the tiles. Its
 * counters grow by the launch's blocks every call, so they are zeroed once, here, and never reset.
 * The base is the host's count, so a captured CUDA graph would replay a stale one: the path is for
 * stream calls. */
static gemm_pack_beside beside_job(const gemm_call* c, const sgemm_plan* p, char* ws,
                                   const float** A, const float** B) {
    static_assert(SGEMM_PACK_CHUNK_K == TMA_BK << 3, "a chunk: 8 slices");
    if (!S.pack_ready) {
        CUDA_CHECK(cudaMalloc(&S.pack_ready, SGEMM_PACK_MAX_CHUNKS * sizeof(unsigned)));
        CUDA_CHECK(cudaMemset(S.pack_ready, 0, SGEMM_PACK_MAX_CHUNKS * sizeof(unsigned)));
    }
    gemm_pack_beside pk = gemm_pack_beside();
    float* const da = (float*)ws;
    float* const db = (float*)(ws + parts_of(p).b);
    *A = p->pack_a ? da : c->A;
    *B = p->pack_b ? db : c->B;
    pk.src[0] = c->A, pk.ld[0] = c->lda, pk.dst[0] = p->pack_a ? da : NULL, pk.ld_dst[0] = p->lda;
    pk.src[1] = c->B, pk.ld[1] = c->ldb, pk.dst[1] = p->pack_b ? db : NULL, pk.ld_dst[1] = p->ldb;
    pk.m0 = p->m0, pk.n0 = p->n0, pk.K = c->K;
    pk.ready = S.pack_ready, pk.base = S.pack_total, pk.cap = SGEMM_PACK_MAX_CHUNKS;
    pk.tiles = p->tiles, pk.tiles_n = p->tiles_n;
    pk.blocks =
        p->pack_along ? p->pack_along : p->tiles + p->pack_spare; /* what a counter reaches */
    pk.chunk_k = SGEMM_PACK_CHUNK_K, pk.ch_log2 = 3, pk.chunks = p->pack_chunks;
    pk.lead = p->pack_lead;
    /* i / d = (umulhi(i, m) + i) >> s, s = ceil(log2 d), m = 2^32 (2^s - d) / d + 1 (i < 2^31) */
    const unsigned d = (unsigned)(p->n0 + 127) / 128;
    int sh = 0;
    while ((1u << sh) < d) ++sh;
    pk.segs_b = (int)d, pk.u_shift = sh;
    pk.u_magic = (unsigned)((((1ull << sh) - d) << 32) / d + 1);
    S.pack_total += (unsigned)pk.blocks;
    return pk;
}

void sgemm_auto_run(const gemm_call* c, const sgemm_plan* p) {
    if (p->nothing) return;
    if (p->scale_only) {
        sgemm_scale<<<rows_grid(c->M, c->N), 256>>>(c->C, c->M, c->N, c->ldc, c->beta);
        CUDA_CHECK(cudaGetLastError());
        return;
    }
    char* ws = workspace(parts_of(p).bytes);
    const sgemm_edge_job e = edges_of(c, p, ws);
    if (!p->tiles) {
        run_edges(e, 0);
        return;
    }
    const float *A, *B;
    gemm_pack_beside pk = gemm_pack_beside();
    if (p->pack_spare || p->pack_along)
        pk = beside_job(c, p, ws, &A, &B);
    else
        pack_operands(c, p, ws, &A, &B);
    /* The edges fork from the caller's stream where the tiles start (after the packing: the two
     * would only share the memory's bandwidth) and join it after them. Launched after the tiles,
     * their blocks take what room the tiles' blocks leave: the last wave's idle SMs, or an SM
     * that one block of a tile does not fill (a walk packed alongside waits for its packers to
     * start, so there the edges may start first: a matter of speed only). */
    if (e.blocks) CUDA_CHECK(cudaEventRecord(S.fork, 0));
    /* the tiles: rows [0, m0) and columns [0, n0) of the same matrices */
    gemm_call tiled = *c;
    tiled.M = p->m0, tiled.N = p->n0;
    gemm_work w = p->work;
    w.partial = (float*)(ws + parts_of(p).partial);
    switch (p->choice.tile) {
    case SGEMM_TILE_128x256:
        run_tile<SGEMM_TILE_128x256>(&tiled, p, A, B, w, pk);
        break;
    case SGEMM_TILE_128x128_128T:
        run_tile<SGEMM_TILE_128x128_128T>(&tiled, p, A, B, w, pk);
        break;
    default:
        run_tile<SGEMM_TILE_128x128>(&tiled, p, A, B, w, pk);
    }
    if (e.blocks) {
        CUDA_CHECK(cudaStreamWaitEvent(S.side, S.fork, 0));
        run_edges(e, S.side);
        CUDA_CHECK(cudaEventRecord(S.join, S.side));
        CUDA_CHECK(cudaStreamWaitEvent(0, S.join, 0));
    }
}

void sgemm_auto_side_work(const gemm_call* c, const sgemm_plan* p, int pack, int edges) {
    if (p->nothing || p->scale_only) return;
    char* ws = workspace(parts_of(p).bytes);
    const float *A, *B;
    if (pack) pack_operands(c, p, ws, &A, &B);
    if (edges) run_edges(edges_of(c, p, ws), 0);
}

void sgemm_auto(const gemm_call* c) {
    const sgemm_plan p = sgemm_auto_plan(c, NULL, 0);
    sgemm_auto_run(c, &p);
}
