#include "host/tma_map.h"

#include "host/check.h"
#include "host/device.h"

#include <stdio.h>

PFN_cuTensorMapEncodeTiled_v12000 course_tma_encoder(void) {
    static int looked;
    static PFN_cuTensorMapEncodeTiled_v12000 encode;
    if (!looked) {
        encode =
            (PFN_cuTensorMapEncodeTiled_v12000)course_driver_function("cuTensorMapEncodeTiled");
        looked = 1;
    }
    return encode;
}

int course_require_tma_kernel(const course_device* d, const void* kernel, const course_needs* need,
                              const char* what) {
    const int rc = course_require_kernel(d, kernel, need, what);
    if (rc != EXIT_OK) return rc;
    if (course_tma_encoder()) return EXIT_OK;
    printf("skipped: %s: the driver offers no cuTensorMapEncodeTiled (update it)\n", what);
    return EXIT_SKIPPED;
}

CUtensorMapSwizzle course_tma_swizzle_of(wgmma_mode m) {
    return m == WGMMA_128B  ? CU_TENSOR_MAP_SWIZZLE_128B
           : m == WGMMA_64B ? CU_TENSOR_MAP_SWIZZLE_64B
           : m == WGMMA_32B ? CU_TENSOR_MAP_SWIZZLE_32B
                            : CU_TENSOR_MAP_SWIZZLE_NONE;
}

void course_tma_map_2d(CUtensorMap* map, const void* X, CUtensorMapDataType type, int element_bytes,
                       int rows, int cols, int box_rows, int box_cols, CUtensorMapSwizzle swizzle) {
    course_tma_map_2d_ld(map, X, type, element_bytes, rows, cols, cols, box_rows, box_cols,
                         swizzle);
}

void course_tma_map_2d_ld(CUtensorMap* map, const void* X, CUtensorMapDataType type,
                          int element_bytes, int rows, int cols, int ld, int box_rows, int box_cols,
                          CUtensorMapSwizzle swizzle) {
    const PFN_cuTensorMapEncodeTiled_v12000 encode = course_tma_encoder();
    if (!encode) die("the driver offers no cuTensorMapEncodeTiled (update it)");
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows},
               strides[1] = {(cuuint64_t)ld * element_bytes};
    cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, steps[2] = {1, 1};
    const CUresult rc =
        encode(map, type, 2, (void*)X, dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
               swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (rc != CUDA_SUCCESS) die("cuTensorMapEncodeTiled failed with CUresult %d", (int)rc);
}
