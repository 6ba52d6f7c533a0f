/* Chapter 08: the TMA's device side (sm_90), one line of PTX each, for the SGEMM's gemm_tma and
 * the tensor-core GEMM's hgemm_tma.
 *
 *   mbarrier.init                     a barrier in shared memory that expects `arrivals` arrivals
 *   mbarrier.arrive.expect_tx         one arrival, and the bytes that copies will count in
 *   cp.async.bulk.tensor.2d           one box of a tensor map into shared memory, its bytes
 *                                     counted into the barrier (complete_tx) as they land
 *   mbarrier.try_wait.parity          has the phase of that parity completed? (a phase completes
 *                                     when its arrivals and bytes are all in; parities alternate)
 *
 * A swizzled box's pattern is of the shared address bits: its destination 1 KiB aligned. */
#ifndef TMA_CUH
#define TMA_CUH

#include <cuda.h>

enum { TMA_ALIGN = 1024 };

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

/* One box of a 2-D tensor map at coordinates (x, y), innermost first, into shared memory at dst;
 * its bytes complete on the mbarrier bar. */
static __device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap* map, int x,
                                                   int y, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                 "l"(reinterpret_cast<unsigned long long>(map)), "r"(x), "r"(y), "r"(bar)
                 : "memory");
}

#endif
