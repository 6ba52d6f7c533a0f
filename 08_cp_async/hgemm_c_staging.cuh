/* Chapter 08, part 3: one 16 x 64 chunk of C leaving through the TMA, what hgemm_tma_persistent
 * (hg_store_tma) and the wgmma kernels (wg_store_tma) share. A warp writes the chunk into its
 * staging buffer in hgemm_c_staging_column's order (2 wavefronts a store: hgemm_layout.h says
 * why), fences it over to the copy engine (the async proxy), and one lane stores it as two boxes
 * of 16 x 32 floats in the 128B swizzle; the copy engine leaves out what lies past C. */
#ifndef HGEMM_C_STAGING_CUH
#define HGEMM_C_STAGING_CUH

#include "hgemm_layout.h"
#include "ptx/shared.cuh"
#include "ptx/tma.cuh"

#include <cuda.h>

/* alpha times one chunk into buf (1 KiB aligned), then out to C at (row0, col0) in one bulk
 * group. frag(j, e): the lane's value e (0..3) of its 8-column block j, in mma.sync's m16n8
 * accumulator layout (rows lane / 4 and + 8, columns 2 (lane % 4) and + 1), which wgmma's
 * accumulators share. The caller has waited until the copy engine read buf's last chunk. */
template <typename FRAG>
static __device__ __forceinline__ void hg_store_chunk_tma(const CUtensorMap* map_c, float* buf,
                                                          int row0, int col0, float alpha, int lane,
                                                          FRAG frag) {
    const int g = lane / 4, odd = g % 2;
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            /* hgemm_c_staging_column's order: a select of two registers, odd rows j ^ 2 */
            const int e = 2 * h;
            const float x = odd ? frag(j ^ 2, e) : frag(j, e),
                        y = odd ? frag(j ^ 2, e + 1) : frag(j, e + 1);
            *reinterpret_cast<float2*>(
                buf + hgemm_c_staging_offset(g + 8 * h, hgemm_c_staging_column(j, lane), 1)) =
                make_float2(alpha * x, alpha * y);
        }
    fence_proxy_async_shared();
    __syncwarp();
    if (lane == 0) {
#pragma unroll
        for (int box = 0; box < 64 / HG_C_BOX; ++box)
            tma_store_2d(map_c, col0 + HG_C_BOX * box, row0,
                         smem_address(buf + box * HG_C_ROWS * HG_C_BOX));
        tma_store_commit();
    }
}

#endif
