/* Chapter 08, part 2: the alignment trap (sgemm.h). Chapter 02's cure for a scalar tile, a float
 * of padding per row, applied to A's cp.async slice: row m starts at 4 (BK + 1) m bytes, so the
 * 16-byte copy of chunk (m, k) lands at 4 (m (BK + 1) + k), aligned only when m is a multiple of
 * 4. The bank model refuses it before any launch; on the GPU the copy faults. The fault leaves
 * the context unusable, so the trap runs only when named, with --check, and the program ends
 * after it. */
#include "sgemm.h"
#include "host/check.h"

#include <stdio.h>

int alignment_trap_run(const sgemm_variant* trap) {
    gemm_smem_cost cost;
    const char* why = NULL;
    gemm_async_model(&trap->geo, &cost, &why);
    printf("trap_padded: A's rows padded to %d floats (%d bytes); the bank model refuses the "
           "copies: %s\n",
           trap->bk + 1, 4 * (trap->bk + 1), why ? why : "it accepts them (a bug in the model)");
    /* One block's tile: BM x BK of A, BK x BN of B, BM x BN of C. */
    const int M = trap->geo.bm, N = trap->geo.bn, K = trap->bk;
    float *A, *B, *C;
    CUDA_CHECK(cudaMalloc(&A, (size_t)M * K * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&B, (size_t)K * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&C, (size_t)M * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(A, 0, (size_t)M * K * sizeof(float)));
    CUDA_CHECK(cudaMemset(B, 0, (size_t)K * N * sizeof(float)));
    const gemm_call call = gemm_call_dense(M, N, K, 1.0f, A, B, 0.0f, C);
    trap->g.launch(&call);
    const cudaError_t launch = cudaGetLastError(), run = cudaDeviceSynchronize();
    if (launch == cudaSuccess && run == cudaErrorMisalignedAddress) {
        printf("trap_padded: the GPU stopped the kernel: %s (%s). A 16-byte cp.async needs a "
               "16-byte aligned destination; a swizzle moves whole 16-byte chunks and keeps "
               "every one aligned. (The context is now unusable: the program ends here.)\n",
               cudaGetErrorName(run), cudaGetErrorString(run));
        return 0;
    }
    printf("trap_padded: expected cudaErrorMisalignedAddress, got %s at launch and %s at the "
           "end\n",
           cudaGetErrorName(launch), cudaGetErrorName(run));
    return 1;
}
