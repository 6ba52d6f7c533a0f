/* Hopper's warpgroup matrix instructions in PTX, one line each (sm_90a: code built for sm_90
 * without the "a" has none of them). A warpgroup is 4 consecutive warps, 128 threads, that issue
 * each instruction together.
 *
 *   wgmma.fence.sync.aligned          orders this thread's register and shared-memory writes
 *                                     before the wgmma that follow read them
 *   wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
 *                                     d (64 x 64, fp32, in the threads' registers) = a (64 x 16)
 *                                     b (16 x 64) + d, a and b read from shared memory through
 *                                     their matrix descriptors (model/wgmma_desc.h); TRANS_A /
 *                                     TRANS_B: the operand is MN-major; scale_d 0: d = a b
 *   wgmma.commit_group.sync.aligned   closes the group of wgmma issued so far
 *   wgmma.wait_group.sync.aligned N   waits until at most N groups are pending: their d written
 *   (and an empty asm that pins d's registers between them: wgmma_fence_operand)
 *
 * d's fragments: thread t of the warpgroup (warp w = t / 32, lane l) holds d[i] at row
 * 16 w + l / 4 + 8 (i / 2 % 2), column 8 (i / 4) + 2 (l % 4) + i % 2: mma.sync's m16n8
 * accumulator, tiled 4 times down and 8 times across. */
#ifndef COURSE_PTX_WGMMA_CUH
#define COURSE_PTX_WGMMA_CUH

/* What this build's device code has: 1 where it was compiled for sm_90a. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define COURSE_WGMMA 1
#else
#define COURSE_WGMMA 0
#endif

static __device__ __forceinline__ void wgmma_fence(void) {
#if COURSE_WGMMA
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#else
    __trap();
#endif
}

static __device__ __forceinline__ void wgmma_commit(void) {
#if COURSE_WGMMA
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#else
    __trap();
#endif
}

template <int N>
static __device__ __forceinline__ void wgmma_wait(void) {
#if COURSE_WGMMA
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
#else
    __trap();
#endif
}

/* Pins the accumulators' registers at this point of the program: the compiler may not move
 * their writes past a wgmma_fence that follows, nor their reads before a wgmma_wait before it
 * (the fence and the wait name memory, not registers). */
template <int N>
static __device__ __forceinline__ void wgmma_fence_operand(float (&d)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

/* Row and column of d[i] (m64nNk16, fp32) for thread t of the warpgroup. */
static __device__ __forceinline__ int wgmma_d_row(int t, int i) {
    return 16 * (t / 32) + t % 32 / 4 + 8 * (i / 2 % 2);
}
static __device__ __forceinline__ int wgmma_d_col(int t, int i) {
    return 8 * (i / 4) + 2 * (t % 4) + i % 2;
}

template <int TRANS_A, int TRANS_B>
static __device__ __forceinline__ void wgmma_m64n64k16(float (&d)[32], unsigned long long desc_a,
                                                       unsigned long long desc_b, int scale_d) {
#if COURSE_WGMMA
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
                 " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"
                 " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31},"
                 " %32, %33, p, 1, 1, %35, %36;\n}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                   "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                   "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                   "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                   "+f"(d[30]), "+f"(d[31])
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B)
                 : "memory");
#else
    (void)d, (void)desc_a, (void)desc_b, (void)scale_d;
    __trap();
#endif
}

#endif
