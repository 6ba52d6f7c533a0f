/* test_wgmma_modes: wgmma reads a tile the TMA wrote, through the descriptor model/wgmma_desc.h
 * encodes, in each of the four modes (none, 32B, 64B, 128B) and both major-nesses, and gets the
 * exact product; a descriptor that disagrees with the TMA's map gets a wrong one.
 *
 * One warpgroup computes D (64 x 64, fp32) = A (64 x 64) B (64 x 64), fp16 integers in -2..2 so
 * that every sum is exact, in four wgmma.m64n64k16 of 16 along K. A and B come from global memory
 * by the TMA in the mode under test, boxes one atom row wide (wgmma_tma_strides), into shared
 * memory aligned to 1 KiB. K-major: A as M x K and B as N x K, rows along K; MN-major: A as
 * K x M and B as K x N, rows along M and N. The k-th slice's descriptor starts 32 bytes along K
 * (K-major: into the atom row, or the next box) or 16 rows on (MN-major).
 *
 * Wrong on purpose, each must give a wrong product: the 128B map read as 64B and the 64B map as
 * 128B (the mode field and its strides), and SBO written in bytes, not >> 4. Measured, not
 * asserted: a 128B tile 512 bytes past a 1 KiB boundary, read with base offset 0 and with
 * (pattern >> 7) & 7, what the PTX ISA asks where a pattern starts off its period.
 * Exit codes: 0 as said, 1 not, 77 skipped (a GPU other than sm_90: the code is sm_90a's). */
#include "host/buffers.h"
#include "host/check.h"
#include "host/device.h"
#include "host/test_util.h"
#include "host/tma_map.h"
#include "model/wgmma_desc.h"
#include "ptx/shared.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"

#include <cuda.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>

/* SMEM: every run's shared memory: the two tiles 1 KiB aligned, room to shift them by 512, and
 * 128 KiB past them, so that a wrong descriptor reads no further than the block's own memory
 * (SBO's field in bytes sends a K-major read 121 KiB on). */
enum {
    M = 64,
    N = 64,
    K = 64,
    THREADS = 128,
    TILE_BYTES = 64 * 64 * 2,
    SMEM = 1024 + 512 + 2 * TILE_BYTES + 128 * 1024
};

/* How the kernel reads what the TMA wrote: the descriptor's mode, strides and a corruption. */
typedef struct {
    wgmma_mode mode;   /* the descriptor's mode (the maps': the host's) */
    unsigned span;     /* the maps' box rows in bytes: where the next slice starts */
    unsigned lbo, sbo; /* the descriptor's strides, bytes */
    int sbo_unshifted; /* 1: SBO's field given in bytes (the missing >> 4) */
    int base_rule;     /* 1: base offset (pattern >> 7) & 7; 0: always 0 */
    unsigned shift;    /* the tiles' start past a 1 KiB boundary */
} read_plan;

template <int MN_MAJOR>
__global__ void wgmma_tile(const __grid_constant__ CUtensorMap map_a,
                           const __grid_constant__ CUtensorMap map_b, read_plan p, float* d_out) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) unsigned long long barrier;
    const unsigned raw = smem_address(smem_raw), bar = smem_address(&barrier);
    const unsigned a = (raw + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN + p.shift, b = a + TILE_BYTES;
    /* the boxes along the row: a row of the box is one atom row, `span` bytes, 64 rows deep */
    const unsigned box = 64u * p.span, boxes = 128u / p.span, box_elems = p.span / 2;
    /* where slice s (16 of K) of the operand at `tile` starts: K-major, 32 bytes on along K
     * (into the atom row, or the next box); MN-major, 16 rows of `span` bytes on */
    auto slice_start = [&](unsigned tile, int s) {
        return MN_MAJOR ? tile + 16u * s * p.span
                        : tile + 32u * s / p.span * box + 32u * s % p.span;
    };
    if (threadIdx.x == 0) {
        mbarrier_init(bar, 1);
        fence_proxy_async_shared();
        mbarrier_expect_bytes(bar, 2 * TILE_BYTES);
        for (unsigned j = 0; j < boxes; ++j) {
            tma_load_2d(a + j * box, &map_a, (int)(j * box_elems), 0, bar);
            tma_load_2d(b + j * box, &map_b, (int)(j * box_elems), 0, bar);
        }
    }
    __syncthreads();
    mbarrier_wait(bar, 0);

    /* every slice's descriptors first: nothing between the wgmma but the wgmma */
    unsigned long long desc[K / 16][2];
    for (int s = 0; s < K / 16; ++s)
        for (int op = 0; op < 2; ++op) {
            const unsigned start = slice_start(op ? b : a, s);
            /* the atom this slice lies in: K-major, its box's first row; MN-major, the slice */
            const unsigned pattern = MN_MAJOR ? start : start - 32u * s % p.span;
            desc[s][op] =
                wgmma_desc(p.mode, start, p.base_rule ? pattern : pattern & ~1023u, p.lbo, p.sbo);
            if (p.sbo_unshifted) /* the field holding SBO's bytes, not SBO >> 4 */
                desc[s][op] = (desc[s][op] & ~(0x3FFFull << 32)) |
                              (unsigned long long)(p.sbo & 0x3FFFu) << 32;
        }
    float d[32];
    for (int i = 0; i < 32; ++i) d[i] = 0.0f;
    wgmma_fence_operand(d);
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < K / 16; ++s)
        wgmma_m64n64k16<MN_MAJOR, MN_MAJOR>(d, desc[s][0], desc[s][1], s);
    wgmma_commit();
    wgmma_wait<0>();
    wgmma_fence_operand(d);
    const int t = (int)threadIdx.x;
    for (int i = 0; i < 32; ++i) d_out[wgmma_d_row(t, i) * N + wgmma_d_col(t, i)] = d[i];
#else
    (void)map_a, (void)map_b, (void)p, (void)d_out;
    __trap();
#endif
}

static CUtensorMapSwizzle tma_swizzle(wgmma_mode m) {
    return m == WGMMA_128B  ? CU_TENSOR_MAP_SWIZZLE_128B
           : m == WGMMA_64B ? CU_TENSOR_MAP_SWIZZLE_64B
           : m == WGMMA_32B ? CU_TENSOR_MAP_SWIZZLE_32B
                            : CU_TENSOR_MAP_SWIZZLE_NONE;
}

static const char* mode_name(wgmma_mode m) {
    return m == WGMMA_128B ? "128B" : m == WGMMA_64B ? "64B" : m == WGMMA_32B ? "32B" : "none";
}

typedef struct {
    course_buffer a[2], b[2], d; /* [mn_major]: A as M x K or K x M, B as N x K or K x N */
    float ref[M * N];            /* A B, exact */
} problem;

/* An integer in -2..2, from a 64-bit LCG's top bits. */
static float small_int(unsigned long long* seed) {
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((int)(*seed >> 40 & 0xFFFF) % 5 - 2);
}

static void problem_make(problem* q) {
    static float A[M * K], B[K * N];
    unsigned long long seed = 2026;
    for (int i = 0; i < M * K; ++i) A[i] = small_int(&seed);
    for (int i = 0; i < K * N; ++i) B[i] = small_int(&seed);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            double s = 0;
            for (int k = 0; k < K; ++k) s += (double)A[r * K + k] * B[k * N + c];
            q->ref[r * N + c] = (float)s;
        }
    for (int mn = 0; mn < 2; ++mn) {
        q->a[mn] = course_buffer_alloc(TILE_BYTES);
        q->b[mn] = course_buffer_alloc(TILE_BYTES);
        __half *ha = (__half*)q->a[mn].host, *hb = (__half*)q->b[mn].host;
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < 64; ++c) {
                /* K-major: A[m][k] at m * K + k, B[k][n] at n * K + k; MN-major: A at k * M + m,
                 * B at k * N + n (r, c: the stored row and column) */
                ha[r * 64 + c] = __float2half(mn ? A[c * K + r] : A[r * K + c]);
                hb[r * 64 + c] = __float2half(mn ? B[r * N + c] : B[c * N + r]);
            }
        course_buffer_upload(&q->a[mn]);
        course_buffer_upload(&q->b[mn]);
    }
    q->d = course_buffer_alloc(M * N * 4);
}

/* The product with the maps in `map_mode` and the read plan p; returns the elements off the
 * reference (NaN counts as off). */
static int run(problem* q, int mn_major, wgmma_mode map_mode, const read_plan* p) {
    CUtensorMap ma, mb;
    const int box_elems = (int)wgmma_span(map_mode) / 2;
    course_tma_map_2d(&ma, q->a[mn_major].dev, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, 64, 64, 64,
                      box_elems, tma_swizzle(map_mode));
    course_tma_map_2d(&mb, q->b[mn_major].dev, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, 64, 64, 64,
                      box_elems, tma_swizzle(map_mode));
    course_buffer_poison(&q->d);
    if (mn_major)
        wgmma_tile<1><<<1, THREADS, SMEM>>>(ma, mb, *p, (float*)q->d.dev);
    else
        wgmma_tile<0><<<1, THREADS, SMEM>>>(ma, mb, *p, (float*)q->d.dev);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&q->d);
    const float* d = (const float*)q->d.host;
    int off = 0;
    for (int i = 0; i < M * N; ++i) off += !(fabsf(d[i] - q->ref[i]) <= 0.0f);
    return off;
}

static read_plan plan_for(wgmma_mode m, int mn_major) {
    read_plan p = {m, wgmma_span(m), 0, 0, 0, 1, 0};
    wgmma_tma_strides(m, !mn_major, 64, &p.lbo, &p.sbo);
    return p;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    course_device dev;
    const char* what = "the wgmma modes test (wgmma.mma_async)";
    int rc = course_device_open(&dev, 9, 0, what);
    if (rc != EXIT_OK) return rc;
    const course_needs need = {90, "the TMA and wgmma", SMEM, THREADS};
    rc = course_require_tma_kernel(&dev, (const void*)wgmma_tile<0>, &need, what);
    if (rc != EXIT_OK) return rc;
    CUDA_CHECK(
        cudaFuncSetAttribute(wgmma_tile<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    CUDA_CHECK(
        cudaFuncSetAttribute(wgmma_tile<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));

    static problem q;
    problem_make(&q);
    static const wgmma_mode modes[] = {WGMMA_NONE, WGMMA_32B, WGMMA_64B, WGMMA_128B};
    for (int mn = 0; mn < 2; ++mn)
        for (int i = 0; i < 4; ++i) {
            const read_plan p = plan_for(modes[i], mn);
            const int off = run(&q, mn, modes[i], &p);
            printf("%-4s %s-major, LBO %5u, SBO %4u: %4d of %d elements off A B\n",
                   mode_name(modes[i]), mn ? "MN" : " K", p.lbo, p.sbo, off, M * N);
            EXPECT(off == 0, "%s, %s-major: the product is wrong", mode_name(modes[i]),
                   mn ? "MN" : "K");
        }
    /* the pitfalls: each must come out wrong */
    for (int mn = 0; mn < 2; ++mn) {
        const read_plan as64 = plan_for(WGMMA_64B, mn), as128 = plan_for(WGMMA_128B, mn);
        read_plan p = as64;
        p.span = wgmma_span(WGMMA_128B); /* the slices where the 128B tile has them */
        int off = run(&q, mn, WGMMA_128B, &p);
        printf("128B map, 64B descriptor, %s-major: %d elements off\n", mn ? "MN" : "K", off);
        EXPECT(off > 0, "a 128B tile read as 64B gave the right product");
        p = as128;
        p.span = wgmma_span(WGMMA_64B);
        off = run(&q, mn, WGMMA_64B, &p);
        printf("64B map, 128B descriptor, %s-major: %d elements off\n", mn ? "MN" : "K", off);
        EXPECT(off > 0, "a 64B tile read as 128B gave the right product");
        p = as128;
        p.sbo_unshifted = 1;
        off = run(&q, mn, WGMMA_128B, &p);
        printf("128B, SBO's field in bytes, %s-major: %d elements off\n", mn ? "MN" : "K", off);
        EXPECT(off > 0, "SBO without >> 4 gave the right product");
    }
    /* measured: a 128B tile 512 bytes off its period, either base offset */
    for (int rule = 0; rule < 2; ++rule) {
        read_plan p = plan_for(WGMMA_128B, 0);
        p.shift = 512, p.base_rule = rule;
        const int off = run(&q, 0, WGMMA_128B, &p);
        printf("128B K-major at 1 KiB + 512, base offset %s: %d elements off\n",
               rule ? "(pattern >> 7) & 7 = 4" : "0", off);
    }
    course_buffer_free(&q.d);
    for (int mn = 0; mn < 2; ++mn) course_buffer_free(&q.a[mn]), course_buffer_free(&q.b[mn]);
    return test_finish("test_wgmma_modes");
}
