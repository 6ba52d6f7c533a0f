/* One warpgroup's wgmma on TMA-written tiles, descriptors from the host (wgmma_tile.h). */
#include "wgmma_tile.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/tma_map.h"
#include "ptx/shared.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"

#include <cuda.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>

/* SMEM: the two tiles 1 KiB aligned, room to shift them by 512, and 128 KiB past them, so that
 * test_wgmma_modes' wrong descriptors still read the block's own memory (SBO's field in bytes
 * sends a K-major read 121 KiB on); a descriptor that would reach further is not run (reach). */
enum {
    M = 64,
    N = 64,
    K = 64,
    THREADS = 128,
    SMEM = 1024 + 512 + 2 * WGMMA_TILE_BYTES + 128 * 1024
};

template <int MN_MAJOR>
__global__ void wgmma_tile(const __grid_constant__ CUtensorMap map_a,
                           const __grid_constant__ CUtensorMap map_b, wgmma_tile_read r,
                           float* d_out) {
#if COURSE_WGMMA
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) unsigned long long barrier;
    const unsigned raw = smem_address(smem_raw), bar = smem_address(&barrier);
    const unsigned base = (raw + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN, a = base + r.shift,
                   b = a + WGMMA_TILE_BYTES;
    /* the boxes along the row: a row of the box is one atom row, `span` bytes, 64 rows deep */
    const unsigned span = wgmma_span(r.map_mode), box = 64u * span, boxes = 128u / span;
    if (threadIdx.x == 0) {
        mbarrier_init(bar, 1);
        fence_proxy_async_shared();
        mbarrier_expect_bytes(bar, 2 * WGMMA_TILE_BYTES);
        for (unsigned j = 0; j < boxes; ++j) {
            tma_load_2d(a + j * box, &map_a, (int)(j * span / 2), 0, bar);
            tma_load_2d(b + j * box, &map_b, (int)(j * span / 2), 0, bar);
        }
    }
    __syncthreads();
    mbarrier_wait(bar, 0);
    /* the start fields from the boundary's: add its address (>> 4: the field's unit) */
    unsigned long long desc[K / 16][2];
    for (int s = 0; s < K / 16; ++s)
        for (int op = 0; op < 2; ++op) desc[s][op] = r.desc[s][op] + (base >> 4);
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
    (void)map_a, (void)map_b, (void)r, (void)d_out;
    __trap();
#endif
}

unsigned wgmma_tile_slice_start(int mn_major, wgmma_mode mode, int op, int s) {
    const unsigned span = wgmma_span(mode), tile = op ? (unsigned)WGMMA_TILE_BYTES : 0u;
    return mn_major ? tile + 16u * s * span : tile + 32u * s / span * (64u * span) + 32u * s % span;
}

static struct {
    course_buffer a[2], b[2], d; /* [mn_major] */
    float ref[M * N];            /* A B, exact */
} q;

/* An integer in -2..2, from a 64-bit LCG's top bits. */
static float small_int(unsigned long long* seed) {
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((int)(*seed >> 40 & 0xFFFF) % 5 - 2);
}

int wgmma_tile_open(const course_device* d, const char* what) {
    const course_needs need = {90, "the TMA and wgmma", SMEM, THREADS, 1};
    const int rc = course_require_tma_kernel(d, (const void*)wgmma_tile<0>, &need, what);
    if (rc != EXIT_OK) return rc;
    CUDA_CHECK(
        cudaFuncSetAttribute(wgmma_tile<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    CUDA_CHECK(
        cudaFuncSetAttribute(wgmma_tile<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    static float A[M * K], B[K * N];
    unsigned long long seed = 2026;
    for (int i = 0; i < M * K; ++i) A[i] = small_int(&seed);
    for (int i = 0; i < K * N; ++i) B[i] = small_int(&seed);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            double s = 0;
            for (int k = 0; k < K; ++k) s += (double)A[r * K + k] * B[k * N + c];
            q.ref[r * N + c] = (float)s;
        }
    for (int mn = 0; mn < 2; ++mn) {
        q.a[mn] = course_buffer_alloc(WGMMA_TILE_BYTES);
        q.b[mn] = course_buffer_alloc(WGMMA_TILE_BYTES);
        __half *ha = (__half*)q.a[mn].host, *hb = (__half*)q.b[mn].host;
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < 64; ++c) {
                /* K-major: A[m][k] at m * K + k, B[k][n] at n * K + k; MN-major: A at k * M + m,
                 * B at k * N + n (r, c: the stored row and column) */
                ha[r * 64 + c] = __float2half(mn ? A[c * K + r] : A[r * K + c]);
                hb[r * 64 + c] = __float2half(mn ? B[r * N + c] : B[c * N + r]);
            }
        course_buffer_upload(&q.a[mn]);
        course_buffer_upload(&q.b[mn]);
    }
    q.d = course_buffer_alloc(M * N * 4);
    return EXIT_OK;
}

/* One past the furthest byte from the 1 KiB boundary that wgmma reads through descriptor d: its
 * start and the layout's largest offset over a slice's 64 rows and 16 k of halves (the swizzle
 * keeps a chunk in its 128-byte line). A learner's descriptor may point anywhere. */
static unsigned reach(unsigned long long d, int k_major) {
    const wgmma_fields f = wgmma_desc_fields(d);
    unsigned top = 0;
    for (unsigned mn = 0; mn < 64; ++mn)
        for (unsigned k = 0; k < 16; ++k) {
            const unsigned o = wgmma_offset(f.mode, k_major, mn, k, 2, f.lbo, f.sbo);
            if (o > top) top = o;
        }
    return f.start + top + 2;
}

int wgmma_tile_elements_off(const wgmma_tile_read* r) {
    for (int s = 0; s < K / 16; ++s)
        for (int op = 0; op < 2; ++op) {
            const unsigned end = reach(r->desc[s][op], !r->mn_major);
            if (end > SMEM - TMA_ALIGN) {
                printf("  the descriptor of %s's slice %d reaches %u bytes past the tile's 1 KiB "
                       "boundary, beyond the block's %d: not run, every element counted wrong\n",
                       op ? "B" : "A", s, end, SMEM - TMA_ALIGN);
                return M * N;
            }
        }
    CUtensorMap ma, mb;
    const int box_elems = (int)wgmma_span(r->map_mode) / 2, mn = r->mn_major;
    course_tma_map_2d(&ma, q.a[mn].dev, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, 64, 64, 64, box_elems,
                      course_tma_swizzle_of(r->map_mode));
    course_tma_map_2d(&mb, q.b[mn].dev, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, 64, 64, 64, box_elems,
                      course_tma_swizzle_of(r->map_mode));
    course_buffer_poison(&q.d);
    if (mn)
        wgmma_tile<1><<<1, THREADS, SMEM>>>(ma, mb, *r, (float*)q.d.dev);
    else
        wgmma_tile<0><<<1, THREADS, SMEM>>>(ma, mb, *r, (float*)q.d.dev);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&q.d);
    const float* d = (const float*)q.d.host;
    int off = 0;
    for (int i = 0; i < M * N; ++i) off += !(fabsf(d[i] - q.ref[i]) <= 0.0f);
    return off;
}

void wgmma_tile_close(void) {
    course_buffer_free(&q.d);
    for (int mn = 0; mn < 2; ++mn) course_buffer_free(&q.a[mn]), course_buffer_free(&q.b[mn]);
}
