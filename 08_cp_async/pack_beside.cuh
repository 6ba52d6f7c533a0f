/* Chapter 08, part 4: packing beside the tiles. Operands the TMA cannot map (rows off 16 bytes)
 * are packed by the tiles' own launch instead of by a packing launch before it, where one wave
 * of data-parallel tiles leaves blocks over (sgemm_plan.pack_spare), or by a small grid running
 * alongside a stream-K walk (sgemm_plan.pack_along, pack_along below).
 *
 * Beside, the launch is cooperative (every block resident): `tiles` blocks of tiles, then the spare
 * ones. Every block first packs chunks [0, lead) of K (A's columns [k0, k1) of every row and B's
 * rows [k0, k1), in units of 128 floats of a row a warp) and counts itself in their counters.
 * Then the spare blocks pack the remaining chunks in order while the tiles run, and a tile's
 * thread 0, before it copies the first slice of a chunk, waits until that chunk's counter has
 * grown by `blocks` this call (ld.acquire), then fences the async proxy: the TMA reads what
 * generic stores wrote.
 *
 * Every counter below `cap` grows by `blocks` a call (the spare blocks add it past the call's
 * chunks), so a call's base is the sum of the earlier calls' blocks and no reset is needed. */
#ifndef PACK_BESIDE_CUH
#define PACK_BESIDE_CUH

typedef struct {
    const float* src[2]; /* A (rows M, columns K) and B (rows K, columns N), the caller's */
    int ld[2];
    float* dst[2]; /* their packed copies, NULL where an operand is not packed */
    int ld_dst[2];
    int m0, n0; /* A's rows packed, B's columns packed */
    int K;
    unsigned* ready; /* a counter a chunk */
    unsigned base;   /* what the counters held before this call */
    int cap;         /* counters */
    int blocks;      /* the launch's blocks */
    int tiles;       /* of which tiles (the first), the rest spare */
    int tiles_n;     /* tiles a row of C */
    int chunk_k;     /* K a chunk: 32 << ch_log2 */
    int ch_log2;     /* log2 of the slices a chunk */
    int chunks, lead;
    int segs_b;       /* units (128 floats) a row of B */
    unsigned u_magic; /* i / segs_b as (umulhi(i, u_magic) + i) >> u_shift, i < 2^31 */
    int u_shift;
} gemm_pack_beside;

/* A unit: 128 floats of a row of A or B in a chunk (chunks of 128 floats or more: ch_log2 >= 2),
 * taken by a warp. */
struct pack_unit {
    const float* src;
    float* dst;
};

/* Unit v of chunk c: how many of its 128 floats exist (0 or fewer: none), -1 past the chunk. */
static __device__ __forceinline__ int pack_unit_of(const gemm_pack_beside& p, int c, unsigned v,
                                                   pack_unit* u) {
    const int k0 = c * p.chunk_k, k1 = min(k0 + p.chunk_k, p.K);
    if (p.dst[0]) { /* A: m0 rows, chunk_k / 128 units each */
        const int s_log2 = p.ch_log2 - 2;
        const unsigned n = (unsigned)p.m0 << s_log2;
        if (v < n) {
            const int r = (int)(v >> s_log2), col = k0 + (int)(v & ((1u << s_log2) - 1)) * 128;
            u->src = p.src[0] + (size_t)r * p.ld[0] + col;
            u->dst = p.dst[0] + (size_t)r * p.ld_dst[0] + col;
            return max(0, min(128, k1 - col));
        }
        v -= n;
    }
    if (p.dst[1]) { /* B: the chunk's rows, segs_b units each */
        const unsigned r = (__umulhi(v, p.u_magic) + v) >> p.u_shift;
        if (r < (unsigned)(k1 - k0)) {
            const int col = (int)(v - r * (unsigned)p.segs_b) * 128;
            u->src = p.src[1] + (size_t)(k0 + r) * p.ld[1] + col;
            u->dst = p.dst[1] + (size_t)(k0 + r) * p.ld_dst[1] + col;
            return min(128, p.n0 - col);
        }
    }
    return -1;
}

/* A chunk's units (the last one's past K among them: none of their floats exist). */
static __device__ __forceinline__ unsigned pack_units(const gemm_pack_beside& p) {
    return (p.dst[0] ? (unsigned)p.m0 << (p.ch_log2 - 2) : 0u) +
           (p.dst[1] ? (unsigned)p.chunk_k * p.segs_b : 0u);
}

/* Units v0, v0 + W, ... of chunk c (UNITS of them): every lane loads floats lane, lane + 32,
 * lane + 64 and lane + 96 of each (a warp's load reads 128 consecutive bytes), all before any is
 * stored, then stores them where they go (128 consecutive bytes a warp's store). The units'
 * addresses stay in registers to the stores: finding them again cost 7% at 2047^3. */
template <int UNITS>
static __device__ __forceinline__ void pack_batch(const gemm_pack_beside& p, int c, unsigned v0,
                                                  unsigned W) {
    const int lane = threadIdx.x % 32;
    float v[UNITS][4];
    pack_unit u[UNITS];
    int n[UNITS];
#pragma unroll
    for (int j = 0; j < UNITS; ++j) {
        n[j] = pack_unit_of(p, c, v0 + j * W, &u[j]);
#pragma unroll
        for (int e = 0; e < 4; ++e)
            v[j][e] = lane + 32 * e < n[j] ? __ldg(u[j].src + lane + 32 * e) : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < UNITS; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e)
            if (lane + 32 * e < ((n[j] + 3) & ~3)) u[j].dst[lane + 32 * e] = v[j][e];
}

static __device__ __forceinline__ void pack_release(unsigned* counter) {
    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(counter) : "memory");
}

/* Thread 0: wait until every block has stored its share of chunk c. */
static __device__ __forceinline__ void pack_wait(const gemm_pack_beside& p, int c) {
    for (long long spins = 0;; ++spins) {
        unsigned v;
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p.ready + c) : "memory");
        if ((int)(v - p.base) >= p.blocks) break;
        if (spins > (1ll << 26)) __trap(); /* the packers never came: the launch was wrong */
        __nanosleep(64);
    }
    asm volatile("fence.proxy.async.global;" ::: "memory");
}

/* The block's thread `g` of G = blocks x blockDim. */
static __device__ __forceinline__ unsigned pack_thread(void) {
    const unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    return b * blockDim.x + threadIdx.x;
}

/* Before anything else, by every block: chunks [0, lead), then counted. */
static __device__ void pack_prologue(const gemm_pack_beside& p) {
    const unsigned W = p.blocks * (blockDim.x / 32), w = pack_thread() / 32;
    const unsigned units = pack_units(p);
    const int chunks = min(p.lead, p.chunks);
    for (int c = 0; c < chunks; ++c)
        for (unsigned b = 0; b < units; b += W * 4) pack_batch<4>(p, c, w + b, W);
    __syncthreads();
    if (threadIdx.x == 0)
        for (int c = 0; c < chunks; ++c) pack_release(p.ready + c);
}

/* The counters past this call's chunks, so that every counter grows by `blocks` a call. */
static __device__ __forceinline__ void pack_spare_counters(const gemm_pack_beside& p, unsigned g,
                                                           unsigned T) {
    for (int c = p.chunks + (int)g; c < p.cap; c += (int)T)
        atomicAdd(p.ready + c, (unsigned)p.blocks);
}

/* The spare blocks (blockIdx.x >= tiles): chunks [lead, chunks) in order, as fast as they go.
 * A chunk stored, the block counts it: the first spare block adds blocks - spare + 1, the others
 * 1, so that the counter reaches `blocks` once every spare block is done, as for the prologue's
 * chunks. */
enum { PACK_SPARE_UNITS = 16 }; /* a warp's units in flight */

static __device__ void pack_spare(const gemm_pack_beside& p) {
    const unsigned spare = p.blocks - p.tiles, j = blockIdx.x - p.tiles,
                   W = spare * (blockDim.x / 32), w = j * (blockDim.x / 32) + threadIdx.x / 32;
    const unsigned units = pack_units(p);
    const unsigned step = W * PACK_SPARE_UNITS;
    const unsigned red = j == 0 ? p.blocks - spare + 1 : 1u;
    for (int c = p.lead; c < p.chunks; ++c) {
        for (unsigned b = 0; b < units; b += step) pack_batch<PACK_SPARE_UNITS>(p, c, w + b, W);
        __syncthreads(); /* chunk c stored by this block */
        if (threadIdx.x == 0)
            asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p.ready + c), "r"(red)
                         : "memory");
    }
    pack_spare_counters(p, j * blockDim.x + threadIdx.x, spare * blockDim.x);
}

/* Packing alongside the walk: a grid of its own, a block of PACK_ALONG_THREADS an SM, launched
 * just before a stream-K walk whose first wave starts every tile at k = 0 (work.whole >= the
 * slots). The walk is its programmatic dependent: it launches once every packing block has
 * started, so the packers are resident beside the tiles' blocks (a few registers, no shared
 * memory; a tile takes the path only where that fits, sgemm_auto_configure) and never wait for
 * them; nothing can deadlock, and where launches are serialized (a
 * sanitizer) the packing simply runs first. Its blocks pack chunks 0, 1, ... in order, each
 * adding 1 to a chunk's counter once its share is stored, so the counters reach the grid's
 * blocks in order; the walk's thread 0 waits for the chunk of each copy (gemm_tma's PACK with
 * WALK). Both kernels prefer the most shared memory: an SM's split of L1 and shared memory is
 * set by the blocks it holds, and a packing block on the L1's side kept the walk's blocks out
 * until it ended. Four warps an SM, four units each in flight (two warps fell behind at 3001^3). */
enum { PACK_ALONG_THREADS = 128, PACK_ALONG_UNITS = 4 };

template <int UNITS>
__global__ void __launch_bounds__(PACK_ALONG_THREADS)
    pack_along(const __grid_constant__ gemm_pack_beside p) {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    constexpr unsigned WARPS = PACK_ALONG_THREADS / 32;
    const unsigned W = gridDim.x * WARPS, w = blockIdx.x * WARPS + threadIdx.x / 32;
    const unsigned units = pack_units(p), step = W * UNITS;
    for (int c = 0; c < p.chunks; ++c) {
        for (unsigned b = 0; b < units; b += step) pack_batch<UNITS>(p, c, w + b, W);
        __syncthreads(); /* chunk c stored by this block */
        if (threadIdx.x == 0) pack_release(p.ready + c);
    }
    pack_spare_counters(p, blockIdx.x * PACK_ALONG_THREADS + threadIdx.x,
                        gridDim.x * PACK_ALONG_THREADS);
}

#endif
