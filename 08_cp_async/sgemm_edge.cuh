/* Chapter 08, part 4: sgemm_auto's edges. Where M is 1031, the last row of 128 x 128 tiles has 7
 * rows in use and costs as much as a full one: 9 x 9 tiles for 8.06 x 8.06 of work. The plan
 * (sgemm_plan_for) peels such a remainder off the tiles and this kernel computes it: rows
 * [m0, M) of C whole (the rows strip), then columns [n0, N) of rows [0, m0) (the columns strip).
 *
 * Both strips are one product, O(i, c) = sum_k X(i, k) Y(k, c), i along the strip's short side
 * (up to SGEMM_EDGE_MAX), c along its long one, every matrix addressed by strides:
 *   rows strip:    X = A's rows m0.., Y = B,               O = C's rows m0..
 *   columns strip: X = B's columns n0.. (transposed), Y = A (transposed), O = C transposed.
 * A strip does as many multiply-adds for each element of Y it reads as it has rows (7 at 1031):
 * it runs at the speed of reading Y (B for the rows strip, A for the columns), not of the FMAs.
 *
 * A block computes a patch of SGEMM_EDGE_ROWS x SGEMM_EDGE_COLS outputs over a chunk of
 * SGEMM_EDGE_KC of K, its 8 warps 32 k each, a lane an output column. Y's rows run along c in the
 * rows strip (B's rows: a warp's load is 128 contiguous bytes) but along k in the columns strip
 * (A's rows: 32 lanes, 32 rows of A, 32 sectors a load). There a warp reads a 32 x 32 block of A
 * a row at a time, coalesced, and turns it in shared memory, rows 33 floats apart so that both the
 * write by k and the read by c fall on 32 banks (chapter 05's transpose). A patch's chunks are
 * summed in order of chunk by the last block to finish one, whichever it is: the result does not
 * depend on the order blocks ran. */
#ifndef SGEMM_EDGE_CUH
#define SGEMM_EDGE_CUH

#include "sgemm_auto.h"
#include "gemm/tile_io.cuh"

typedef struct {
    const float* x;
    long long xi, xk; /* X(i, k) = x[i * xi + k * xk] */
    const float* y;
    long long yk, yc; /* Y(k, c) = y[k * yk + c * yc]; yc == 1 or yk == 1 */
    float* o;
    long long oi, oc; /* O(i, c) = o[i * oi + c * oc] */
    int rows, cols;   /* the strip's short and long sides */
    int patches;      /* sgemm_edge_patches_of(rows, cols) */
} sgemm_strip;

typedef struct {
    sgemm_strip strip[2]; /* the rows strip, the columns strip (either may have no patch) */
    int K, chunks;        /* chunks of SGEMM_EDGE_KC */
    float alpha, beta;
    float* partial;     /* chunks > 1: a patch's chunk sums, patch * chunks + chunk */
    unsigned* finished; /* chunks > 1: a patch's chunks done; 0 before and after a launch */
    int blocks;         /* patches x chunks */
} sgemm_edge_job;

enum {
    EDGE_WARPS = 8,
    EDGE_THREADS = 32 * EDGE_WARPS,
    EDGE_K_WARP = SGEMM_EDGE_KC / EDGE_WARPS, /* a warp's k in a chunk */
    EDGE_TURN_LD = 33                         /* the turned block's row: 32 + 1, see above */
};
static_assert(SGEMM_EDGE_COLS == 32 && EDGE_K_WARP == 32,
              "a lane a column, a warp's k one turned 32 x 32 block");
static_assert(SGEMM_EDGE_ROWS * SGEMM_EDGE_COLS == EDGE_THREADS, "a thread an output of the patch");

/* The edge job's block `block` (of job.blocks), by all EDGE_THREADS threads. Each warp first
 * issues every global load of its 32 k (X's 8 x 32, Y's 32 x 32) at once, into shared memory, and
 * only then multiplies: 40 loads in flight a lane, where loads that waited on each k's
 * multiply-adds took a memory latency a k (a block of 32 k ran 20 us; H200, 1031^3's edges). So
 * the loads are unconditional (an index past the strip or K is clamped onto it, and what it
 * brings is never used: a row or column past the strip is never stored, a k past K never
 * multiplied) and read-only (__ldg: a load the compiler knows is not from shared memory can go
 * ahead of the stores into it). */
__device__ __forceinline__ void sgemm_edge_block(const sgemm_edge_job& job, int block) {
    /* a warp's Y (turned or not), then its sums (a patch's worth); its X, a k's 8 rows together */
    __shared__ float ys[EDGE_WARPS][32 * EDGE_TURN_LD];
    __shared__ __align__(16) float xs[EDGE_WARPS][32 * SGEMM_EDGE_ROWS];
    __shared__ unsigned ticket;
    const int patch = block / job.chunks, chunk = block % job.chunks;
    const int first = patch < job.strip[0].patches;
    const sgemm_strip s = first ? job.strip[0] : job.strip[1];
    const int p = first ? patch : patch - job.strip[0].patches;
    const int across = (s.cols + SGEMM_EDGE_COLS - 1) / SGEMM_EDGE_COLS;
    const int i0 = p / across * SGEMM_EDGE_ROWS, c0 = p % across * SGEMM_EDGE_COLS;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int k0 = chunk * SGEMM_EDGE_KC + warp * EDGE_K_WARP;
    float* y = ys[warp];
    float* x = xs[warp];
    /* this lane's k (X, and Y turned) and its column (Y as it is), clamped */
    const int kl = k0 + lane < job.K ? k0 + lane : job.K - 1;
    const int cl = c0 + lane < s.cols ? c0 + lane : s.cols - 1;
    float xv[SGEMM_EDGE_ROWS];
#pragma unroll
    for (int i = 0; i < SGEMM_EDGE_ROWS; ++i) {
        const int r = i0 + i < s.rows ? i0 + i : s.rows - 1;
        xv[i] = __ldg(&s.x[(long long)r * s.xi + (long long)kl * s.xk]);
    }
    if (s.yc != 1) { /* Y along k: row j of the block is Y's column c0 + j, read along k */
#pragma unroll 8
        for (int j = 0; j < 32; ++j) {
            const int cj = c0 + j < s.cols ? c0 + j : s.cols - 1;
            y[lane * EDGE_TURN_LD + j] = __ldg(&s.y[(long long)kl * s.yk + (long long)cj * s.yc]);
        }
    } else { /* Y along c: lane c's column, a k a load */
#pragma unroll 8
        for (int k = 0; k < 32; ++k) {
            const int kk = k0 + k < job.K ? k0 + k : job.K - 1;
            y[k * EDGE_TURN_LD + lane] = __ldg(&s.y[(long long)kk * s.yk + cl]);
        }
    }
    *(float4*)&x[lane * SGEMM_EDGE_ROWS] = make_float4(xv[0], xv[1], xv[2], xv[3]);
    *(float4*)&x[lane * SGEMM_EDGE_ROWS + 4] = make_float4(xv[4], xv[5], xv[6], xv[7]);
    __syncwarp();
    float acc[SGEMM_EDGE_ROWS] = {};
    /* the k the warp has (none past K: what was loaded there is never used) */
    const int kn = job.K - k0 < EDGE_K_WARP ? job.K - k0 : EDGE_K_WARP;
#pragma unroll 4
    for (int k = 0; k < kn; ++k) {
        const float yk = y[k * EDGE_TURN_LD + lane];
        const float4 a = *(const float4*)&x[k * SGEMM_EDGE_ROWS],
                     b = *(const float4*)&x[k * SGEMM_EDGE_ROWS + 4];
        acc[0] += a.x * yk, acc[1] += a.y * yk, acc[2] += a.z * yk, acc[3] += a.w * yk;
        acc[4] += b.x * yk, acc[5] += b.y * yk, acc[6] += b.z * yk, acc[7] += b.w * yk;
    }
    __syncwarp(); /* the warp done with its Y before its sums overwrite it */
#pragma unroll
    for (int i = 0; i < SGEMM_EDGE_ROWS; ++i) y[i * 32 + lane] = acc[i];
    __syncthreads();
    /* thread (i, cc) of the patch: its sum over the warps, in order */
    const int i = threadIdx.x / 32, cc = threadIdx.x % 32;
    float v = 0.0f;
#pragma unroll
    for (int w = 0; w < EDGE_WARPS; ++w) v += ys[w][i * 32 + cc];
    const int oi = i0 + i, oc = c0 + cc;
    float* out = s.o + (long long)oi * s.oi + (long long)oc * s.oc;
    if (job.chunks == 1) {
        if (oi < s.rows && oc < s.cols) gemm_store(out, 0, v, job.alpha, job.beta);
        return;
    }
    float* mine = job.partial + ((size_t)patch * job.chunks) * EDGE_THREADS;
    mine[(size_t)chunk * EDGE_THREADS + threadIdx.x] = v;
    __threadfence(); /* the sum visible before the count that says it is there */
    __syncthreads();
    if (threadIdx.x == 0) ticket = atomicAdd(&job.finished[patch], 1u);
    __syncthreads();
    if (ticket != (unsigned)job.chunks - 1) return;
    __threadfence();
    v = 0.0f;
    for (int ch = 0; ch < job.chunks; ++ch)
        v += __ldcg(&mine[(size_t)ch * EDGE_THREADS + threadIdx.x]);
    if (oi < s.rows && oc < s.cols) gemm_store(out, 0, v, job.alpha, job.beta);
    if (threadIdx.x == 0) job.finished[patch] = 0; /* ready for the next call */
}

#endif
