/* The warp-wide matrix instructions in PTX, one line each: chapter 08's tensor-core GEMM, its
 * fragments test and the calibration probe use these, and only these.
 *
 *   ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16   N (1, 2, 4) 8x8 matrices of 16-bit
 *       elements from shared memory: lane l gives the address of row l % 8 of matrix l / 8 (lanes
 *       past 8 N: ignored); each lane gets, of matrix i, the two elements of row lane / 4 at
 *       columns 2 (lane % 4) and + 1 in r[i] (.trans: of the transposed matrix)       sm_75
 *   stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16   the reverse: r[i] into matrix i  sm_90
 *   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32  d += a (16 x 16) b (16 x 8), the
 *       fragments as 08_cp_async/mma_fragments.h lays them out                        sm_80
 *
 * Compiled for an older target than its own, an instruction is a trap (the variants' needs keep
 * such a kernel from launching: common/host/needs.h). */
#ifndef COURSE_PTX_MATRIX_CUH
#define COURSE_PTX_MATRIX_CUH

template <int N, bool TRANS>
static __device__ __forceinline__ void ldmatrix(unsigned (&r)[N], unsigned addr) {
    static_assert(N == 1 || N == 2 || N == 4, "ldmatrix takes 1, 2 or 4 matrices");
    if constexpr (N == 1 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                     : "=r"(r[0])
                     : "r"(addr));
    else if constexpr (N == 1)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                     : "=r"(r[0])
                     : "r"(addr));
    else if constexpr (N == 2 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(addr));
    else if constexpr (N == 2)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(addr));
    else if constexpr (!TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
}

template <int N, bool TRANS>
static __device__ __forceinline__ void stmatrix(unsigned addr, const unsigned (&r)[N]) {
    static_assert(N == 1 || N == 2 || N == 4, "stmatrix takes 1, 2 or 4 matrices");
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
    if constexpr (N == 1 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r[0])
                     : "memory");
    else if constexpr (N == 1)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(addr),
                     "r"(r[0])
                     : "memory");
    else if constexpr (N == 2 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr),
                     "r"(r[0]), "r"(r[1])
                     : "memory");
    else if constexpr (N == 2)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(addr),
                     "r"(r[0]), "r"(r[1])
                     : "memory");
    else if constexpr (!TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
                     "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                     : "memory");
    else
        asm volatile(
            "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
            "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
            : "memory");
#else
    (void)addr, (void)r;
    __trap();
#endif
}

/* d += a b: a 16 x 16 (row), b 16 x 8 (col) in halves, d in floats. */
static __device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const unsigned (&a)[4],
                                                    unsigned b0, unsigned b1) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    (void)d, (void)a, (void)b0, (void)b1;
    __trap();
#endif
}

#endif
