/* Chapter 08, part 3's wgmma kernels, instantiated and launched (hgemm_wgmma.h); built for sm_90a
 * alone (CMakeLists.txt). */
#include "hgemm_wgmma.h"
#include "hgemm_wgmma_kernels.cuh"
#include "host/check.h"
#include "host/tma_map.h"

#include <stdint.h>

enum { STAGES = 4 };

/* The specialised kernels' shared memory: the stages, and with STORE_TMA each consumer warp's
 * staging buffer of 16 x 64 floats. */
template <int MODE, bool STORE_TMA>
constexpr size_t ws_smem() {
    return (size_t)wg_smem_bytes<64 * WG_CONSUMERS, STAGES, MODE>() +
           (STORE_TMA ? WG_CONSUMERS * 4 * HG_C_CHUNK * 4 : 0);
}

template <int MODE, bool PERSISTENT, bool STORE_TMA, int CLUSTER = 1>
static hgemm_wgmma_info ws_info(void) {
    hgemm_wgmma_info i = {(const void*)hgemm_wgmma_ws<STAGES, MODE, PERSISTENT, STORE_TMA, CLUSTER>,
                          ws_smem<MODE, STORE_TMA>(),
                          3 * WG_THREADS,
                          64 * WG_CONSUMERS,
                          WG_BN,
                          STAGES,
                          MODE,
                          STORE_TMA};
    return i;
}

hgemm_wgmma_info hgemm_wgmma_info_of(int kind) {
    switch (kind) {
    case WG_ONE_WARPGROUP: {
        hgemm_wgmma_info i = {(const void*)hgemm_wgmma<STAGES, WGMMA_128B>,
                              (size_t)wg_smem_bytes<64, STAGES, WGMMA_128B>(),
                              WG_THREADS,
                              64,
                              WG_BN,
                              STAGES,
                              WGMMA_128B,
                              0};
        return i;
    }
    case WG_SPECIALISED:
        return ws_info<WGMMA_128B, false, false>();
    case WG_PERSISTENT:
        return ws_info<WGMMA_128B, true, false>();
    case WG_TMA_C:
        return ws_info<WGMMA_128B, true, true>();
    case WG_TMA_C_64B:
        return ws_info<WGMMA_64B, true, true>();
    case WG_TMA_C_32B:
        return ws_info<WGMMA_32B, true, true>();
    case WG_TMA_C_NONE:
        return ws_info<WGMMA_NONE, true, true>();
    case WG_CLUSTER:
        return ws_info<WGMMA_128B, true, true, 2>();
    }
    die("hgemm_wgmma_info_of: no kind %d", kind);
    return hgemm_wgmma_info{};
}

/* The tensor maps of A (boxes of S / 2 halves x bm rows) and B (S / 2 x 64 rows of k), S the
 * mode's atom row; C's (16 x 32 floats, 128B) where the kernel stores through it. */
static void maps(const tensor_call* c, const hgemm_wgmma_info* x, int stores_c, CUtensorMap* a,
                 CUtensorMap* b, CUtensorMap* map_c) {
    const int box = (int)wgmma_span((wgmma_mode)x->mode) / 2;
    course_tma_map_2d(a, c->A, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, c->M, c->K, x->bm, box,
                      course_tma_swizzle_of((wgmma_mode)x->mode));
    course_tma_map_2d(b, c->B, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, c->K, c->N, WG_BK, box,
                      course_tma_swizzle_of((wgmma_mode)x->mode));
    if (stores_c)
        course_tma_map_2d(map_c, c->C, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c->M, c->N, HG_C_ROWS,
                          HG_C_BOX, CU_TENSOR_MAP_SWIZZLE_128B);
}

template <int MODE, bool PERSISTENT, bool STORE_TMA>
static void launch_ws(const tensor_call* c, const hgemm_wgmma_info* x, int stores_c) {
    CUtensorMap a, b, map_c = {};
    maps(c, x, stores_c, &a, &b, &map_c);
    long long blocks = (long long)((c->M + x->bm - 1) / x->bm) * ((c->N + x->bn - 1) / x->bn);
    if (PERSISTENT) {
        int dev, sms;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        if (blocks > sms) blocks = sms;
    }
    hgemm_wgmma_ws<STAGES, MODE, PERSISTENT, STORE_TMA>
        <<<(unsigned)blocks, x->threads, x->dynamic_smem>>>(a, b, map_c, c->C, c->M, c->N, c->K,
                                                            c->alpha, c->beta);
}

/* Kernel 21: clusters of 2 blocks, as many as fit at once (a cluster's blocks share a GPC, so an
 * SM count that a GPC does not divide evenly can leave an SM out), each walking pairs of tiles. */
static void launch_cluster(const tensor_call* c, const hgemm_wgmma_info* x, int stores_c) {
    enum { CLUSTER = 2 };
    const auto kernel = hgemm_wgmma_ws<STAGES, WGMMA_128B, true, true, CLUSTER>;
    CUtensorMap a, b, map_c = {};
    maps(c, x, stores_c, &a, &b, &map_c);
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = CLUSTER;
    cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.blockDim = dim3((unsigned)x->threads);
    config.dynamicSmemBytes = x->dynamic_smem;
    config.attrs = &cluster;
    config.numAttrs = 1;
    /* this kernel's clusters at once on the GPU (the program uses one), asked once: after
     * tensor_configure has let the kernel have its shared memory, which the answer depends on */
    static int fit;
    if (!fit) {
        config.gridDim = dim3(CLUSTER);
        CUDA_CHECK(cudaOccupancyMaxActiveClusters(&fit, kernel, &config));
        if (fit < 1) die("hgemm_wgmma_cluster: no cluster of %d blocks fits this GPU", CLUSTER);
    }
    const int pairs = wg_walk_tiles<64 * WG_CONSUMERS, CLUSTER>(c->M, c->N); /* the kernel's walk */
    config.gridDim = dim3((unsigned)((pairs < fit ? pairs : fit) * CLUSTER));
    CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, a, b, map_c, c->C, c->M, c->N, c->K, c->alpha,
                                  c->beta));
}

int hgemm_wgmma_launch(int kind, const tensor_call* c) {
    const hgemm_wgmma_info x = hgemm_wgmma_info_of(kind);
    const int stores_c = x.stores_c && c->beta == 0.0f;
    if (!tensor_tma_takes(c, stores_c) || (uintptr_t)c->C % 8) return 0; /* float2 stores */
    switch (kind) {
    case WG_ONE_WARPGROUP: {
        CUtensorMap a, b, unused;
        maps(c, &x, 0, &a, &b, &unused);
        const long long tiles = (long long)((c->M + 63) / 64) * ((c->N + WG_BN - 1) / WG_BN);
        hgemm_wgmma<STAGES, WGMMA_128B><<<(unsigned)tiles, x.threads, x.dynamic_smem>>>(
            a, b, c->C, c->M, c->N, c->K, c->alpha, c->beta);
        break;
    }
    case WG_SPECIALISED:
        launch_ws<WGMMA_128B, false, false>(c, &x, 0);
        break;
    case WG_PERSISTENT:
        launch_ws<WGMMA_128B, true, false>(c, &x, 0);
        break;
    case WG_TMA_C:
        launch_ws<WGMMA_128B, true, true>(c, &x, stores_c);
        break;
    case WG_TMA_C_64B:
        launch_ws<WGMMA_64B, true, true>(c, &x, stores_c);
        break;
    case WG_TMA_C_32B:
        launch_ws<WGMMA_32B, true, true>(c, &x, stores_c);
        break;
    case WG_TMA_C_NONE:
        launch_ws<WGMMA_NONE, true, true>(c, &x, stores_c);
        break;
    case WG_CLUSTER:
        launch_cluster(c, &x, stores_c);
        break;
    default:
        die("hgemm_wgmma_launch: no kind %d", kind);
    }
    return 1;
}

const void* hgemm_wgmma_ceiling_kernel(void) {
    return (const void*)wgmma_ceiling;
}

size_t hgemm_wgmma_ceiling_smem(void) {
    return wg_stage<64 * WG_CONSUMERS, WGMMA_128B>::BYTES + TMA_ALIGN;
}

int hgemm_wgmma_ceiling_threads(void) {
    return WG_CONSUMERS * WG_THREADS;
}

double hgemm_wgmma_ceiling_flops_per_block(void) {
    return 2.0 * 64 * WG_BN * WG_BK * WG_CONSUMERS * (double)WG_CEILING_ITERS;
}

void hgemm_wgmma_launch_ceiling(int blocks, float* out) {
    wgmma_ceiling<<<(unsigned)blocks, hgemm_wgmma_ceiling_threads(), hgemm_wgmma_ceiling_smem()>>>(
        WG_CEILING_ITERS, out);
}
