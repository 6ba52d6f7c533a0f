/* test_tma_swizzle: Hopper's tensor-memory accelerator (TMA) places a tile in shared memory in
 * its 32-, 64- and 128-byte swizzle modes exactly as Swizzle<1,4,3>, <2,4,3> and <3,4,3> on byte
 * offsets say (layout_swizzle in common/model/layout.h).
 *
 * For each mode: a 64-row tile of 16-bit elements whose rows are as wide as the mode's span
 * (16, 32 or 64 elements), every element a different number, loaded by one
 * cp.async.bulk.tensor.2d into shared memory aligned to 1024 bytes, completed on an mbarrier,
 * then copied out byte for byte. Element (r, c) must be found at byte
 * Swizzle(r * row_bytes + 2 * c) of the tile. Alignment: the TMA needs the destination 128-byte
 * aligned, and its swizzle acts on the shared-memory address bits (bits 4..6 and 7..9 for 128B),
 * so the pattern equals the offset formula only for a tile aligned to its whole period: 256,
 * 512 and 1024 bytes for the 32B, 64B and 128B modes; 1024 here for all three.
 * Exit codes: 0 every element where the formula says, 1 not, 77 skipped (a GPU older than
 * sm_90, or a build whose code for it has no TMA: its kernel's ptxVersion below 90). */
#include "host/buffers.h"
#include "host/check.h"
#include "host/device.h"
#include "host/test_util.h"
#include "host/tma_map.h"
#include "model/layout.h"
#include "ptx/shared.cuh"
#include "ptx/tma.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <stdio.h>

enum { ROWS = 64, THREADS = 128, ALIGN = 1024 };

__global__ void tma_load_tile(const __grid_constant__ CUtensorMap map, unsigned short* out,
                              unsigned bytes) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) unsigned long long barrier;
    const unsigned raw = smem_address(smem_raw);
    const unsigned tile = (raw + ALIGN - 1) / ALIGN * ALIGN, bar = smem_address(&barrier);
    if (threadIdx.x == 0) {
        mbarrier_init(bar, 1);
        fence_proxy_async_shared(); /* the initialised barrier, seen by the copy engine */
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        mbarrier_expect_bytes(bar, bytes);
        tma_load_2d(tile, &map, 0, 0, bar);
    }
    mbarrier_wait(bar, 0);
    const unsigned short* t = (const unsigned short*)(smem_raw + (tile - raw));
    for (unsigned i = threadIdx.x; i < bytes / 2; i += blockDim.x) out[i] = t[i];
#else
    (void)map, (void)out, (void)bytes;
    __trap();
#endif
}

typedef struct {
    const char* name;
    CUtensorMapSwizzle mode;
    unsigned row_bytes;
    int b; /* Swizzle<b,4,3> */
} tma_mode;

/* Loads the tile through the TMA in this mode; returns the elements not where the formula
 * says. */
static int check_mode(const tma_mode* m) {
    const unsigned row_elems = m->row_bytes / 2, n = ROWS * row_elems, bytes = n * 2;
    course_buffer in = course_buffer_alloc(bytes), out = course_buffer_alloc(bytes);
    unsigned short* h = (unsigned short*)in.host;
    /* Every element different, and none 0xffff: the poison an unwritten one keeps. */
    for (unsigned i = 0; i < n; ++i) h[i] = (unsigned short)(i + 1);
    course_buffer_upload(&in);
    course_buffer_poison(&out);

    CUtensorMap map; /* one box: the whole tile */
    course_tma_map_2d(&map, in.dev, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, ROWS, (int)row_elems, ROWS,
                      (int)row_elems, m->mode);
    tma_load_tile<<<1, THREADS, bytes + ALIGN>>>(map, (unsigned short*)out.dev, bytes);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&out);
    const unsigned short* h_out = (const unsigned short*)out.host;

    int wrong = 0;
    for (unsigned r = 0; r < ROWS; ++r)
        for (unsigned c = 0; c < row_elems; ++c) {
            unsigned at = layout_swizzle(r * m->row_bytes + 2 * c, m->b, 4, 3) / 2;
            if (h_out[at] != h[r * row_elems + c] && wrong++ < 3)
                printf("  %s: element (%u, %u) not at byte %u of the tile\n", m->name, r, c,
                       2 * at);
        }
    printf("%-5s rows of %3u bytes: %s: %u of %u elements at Swizzle<%d,4,3>(byte offset)\n",
           m->name, m->row_bytes, wrong ? "MISMATCH" : "ok", n - (unsigned)wrong, n, m->b);
    course_buffer_free(&in);
    course_buffer_free(&out);
    return wrong;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    course_device dev;
    const char* what = "the TMA swizzle test (cp.async.bulk.tensor)";
    int rc = course_device_open(&dev, 7, 5, what);
    if (rc != EXIT_OK) return rc;
    const course_needs need = {90, "the TMA", ALIGN + ROWS * 128, THREADS, 0};
    rc = course_require_tma_kernel(&dev, (const void*)tma_load_tile, &need, what);
    if (rc != EXIT_OK) return rc;
    static const tma_mode modes[] = {{"32B", CU_TENSOR_MAP_SWIZZLE_32B, 32, 1},
                                     {"64B", CU_TENSOR_MAP_SWIZZLE_64B, 64, 2},
                                     {"128B", CU_TENSOR_MAP_SWIZZLE_128B, 128, 3}};
    int wrong = 0;
    for (int i = 0; i < 3; ++i) wrong += check_mode(&modes[i]);
    return wrong ? EXIT_CHECK_FAILED : EXIT_OK;
}
