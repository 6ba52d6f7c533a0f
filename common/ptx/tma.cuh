/* The TMA's device side (sm_90), one line of PTX each: chapter 04's TMA swizzle test, chapter
 * 08's gemm_tma, hgemm_tma, hgemm_tma_persistent and the wgmma kernels use these, and only
 * these.
 *
 *   mbarrier.init                     a barrier in shared memory that expects `arrivals` arrivals
 *   mbarrier.arrive.expect_tx         one arrival, and the bytes that copies will count in
 *   cp.async.bulk.tensor.2d           one box of a tensor map into shared memory, its bytes
 *                                     counted into the barrier (complete_tx) as they land
 *     .multicast::cluster             the same box into the same offset of each block of the
 *                                     cluster named in a mask, on each one's barrier at the
 *                                     same offset (ptx/cluster.cuh)
 *   mbarrier.arrive                   one arrival (a consumer done with a stage)
 *   mbarrier.try_wait.parity          has the phase of that parity completed? (a phase completes
 *                                     when its arrivals and bytes are all in; parities alternate)
 *   cp.async.bulk.tensor.2d (store)   one box of shared memory out to a tensor map, clipped at
 *                                     the edges; asynchronous, tracked in bulk groups:
 *   cp.async.bulk.commit_group        closes this thread's group of stores issued so far
 *   cp.async.bulk.wait_group.read N   waits until all but the newest N groups have read their
 *                                     shared memory (which may then be written again)
 *   fence.proxy.async.shared::cta     orders this thread's generic-proxy accesses to shared memory
 *                                     (an mbarrier's init, a staged tile's stores) before the copy
 *                                     engine's (the async proxy) that follow
 *
 * A swizzled box's pattern is of the shared address bits: its shared memory (a load's destination,
 * a store's source) 1 KiB aligned. */
#ifndef COURSE_PTX_TMA_CUH
#define COURSE_PTX_TMA_CUH

#include <cuda.h>

enum { TMA_ALIGN = 1024 };

/* What this thread wrote to shared memory, ordered before what the copy engine does next. */
static __device__ __forceinline__ void fence_proxy_async_shared(void) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* Spin until the phase of that parity has completed. */
static __device__ __forceinline__ void mbarrier_wait(unsigned bar, unsigned parity) {
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
}

static __device__ __forceinline__ void mbarrier_init(unsigned bar, unsigned arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals) : "memory");
}

/* The issuing thread's arrival, and the bytes the copies will count in before the phase ends. */
static __device__ __forceinline__ void mbarrier_expect_bytes(unsigned bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
}

/* This thread's arrival. */
static __device__ __forceinline__ void mbarrier_arrive(unsigned bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

/* One box of a 2-D tensor map at coordinates (x, y), innermost first, into shared memory at dst;
 * its bytes complete on the mbarrier bar. */
static __device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap* map, int x,
                                                   int y, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                 "l"(reinterpret_cast<unsigned long long>(map)), "r"(x), "r"(y), "r"(bar)
                 : "memory");
}

/* tma_load_2d into every block of the cluster whose rank's bit is set in `blocks`: one read of
 * L2 for all of them. dst and bar: this block's addresses, the same offsets in the others. */
static __device__ __forceinline__ void tma_load_2d_multicast(unsigned dst, const CUtensorMap* map,
                                                             int x, int y, unsigned bar,
                                                             unsigned short blocks) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
                 "l"(reinterpret_cast<unsigned long long>(map)), "r"(x), "r"(y), "r"(bar),
                 "h"(blocks)
                 : "memory");
}

/* One box of shared memory at src out to the tensor map at (x, y), by this thread's next bulk
 * group; src's writes by the generic proxy must be fenced first (fence.proxy.async). */
static __device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, int x, int y,
                                                    unsigned src) {
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
            reinterpret_cast<unsigned long long>(map)),
        "r"(x), "r"(y), "r"(src)
        : "memory");
}

static __device__ __forceinline__ void tma_store_commit(void) {
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/* All but the newest N of this thread's store groups have read their shared memory. */
template <int N>
static __device__ __forceinline__ void tma_store_wait_read(void) {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

/* All of this thread's store groups are complete: their writes done. */
static __device__ __forceinline__ void tma_store_wait_all(void) {
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

#endif
