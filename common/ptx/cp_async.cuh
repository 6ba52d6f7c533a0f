/* cp.async in PTX (sm_80+), one line each, so that the lessons can show what the instructions
 * are (CUDA's <cuda_pipeline.h> wraps the same ones): chapter 08's stencil, SGEMM and tensor-core
 * GEMM use these, and only these.
 *
 *   cp.async.cg.shared.global [dst], [src], 16, n   16 bytes global -> shared, bypassing L1 (.cg,
 *                                                   "cache global"); only the first n bytes are
 *                                                   read, the rest of the 16 are written as zeros
 *                                                   (the zero-fill form: an edge costs no branch)
 *   cp.async.ca.shared.global [dst], [src], 4, n    4 bytes, through L1 (.ca: .cg takes 16 only)
 *   cp.async.commit_group                           closes the group of copies issued since the
 * last cp.async.wait_group N                           waits until at most N of this thread's
 * newest groups are pending (N an immediate)
 *
 * A copy's destination must be aligned to its size: 16 bytes for the first form. Whatever a
 * thread waited for is visible to that thread; other threads see it after a barrier.
 *
 * Compiled for a target older than sm_80 (a T4's sm_75, or PTX for 75-virtual), each is a trap:
 * the kernels still build there, and no program launches one, since each variant's needs say
 * 8.0 (common/host/needs.h) and are checked against the kernel's own ptxVersion. */
#ifndef COURSE_PTX_CP_ASYNC_CUH
#define COURSE_PTX_CP_ASYNC_CUH

#include "ptx/shared.cuh"

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define CP_ASYNC_AVAILABLE 1
#endif

static __device__ __forceinline__ void cp_async_16(void* dst, const void* src, int src_bytes) {
#ifdef CP_ASYNC_AVAILABLE
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_address(dst)), "l"(src),
                 "r"(src_bytes)
                 : "memory");
#else
    __trap();
#endif
}

static __device__ __forceinline__ void cp_async_4(void* dst, const void* src, int src_bytes) {
#ifdef CP_ASYNC_AVAILABLE
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_address(dst)), "l"(src),
                 "r"(src_bytes)
                 : "memory");
#else
    __trap();
#endif
}

static __device__ __forceinline__ void cp_async_commit(void) {
#ifdef CP_ASYNC_AVAILABLE
    asm volatile("cp.async.commit_group;" ::: "memory");
#else
    __trap();
#endif
}

/* wait_group takes an immediate: the depths a pipeline of up to 4 stages needs. */
static __device__ __forceinline__ void cp_async_wait(int pending) {
#ifdef CP_ASYNC_AVAILABLE
    switch (pending) {
    case 0:
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        break;
    case 1:
        asm volatile("cp.async.wait_group 1;" ::: "memory");
        break;
    case 2:
        asm volatile("cp.async.wait_group 2;" ::: "memory");
        break;
    default:
        asm volatile("cp.async.wait_group 3;" ::: "memory");
        break;
    }
#else
    (void)pending;
    __trap();
#endif
}

#endif
