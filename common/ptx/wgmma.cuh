/* Hopper's warpgroup matrix instructions in PTX, one line each (sm_90a: code built for sm_90
 * without the "a" has none of them). A warpgroup is 4 consecutive warps, 128 threads, that issue
 * each instruction together.
 *
 *   wgmma.fence.sync.aligned          orders this thread's accesses to the accumulators'
 *                                     registers before the wgmma that follow use them (shared
 *                                     memory written by plain stores needs
 *                                     fence.proxy.async: wgmma reads it as the async proxy)
 *   wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
 *                                     d (64 x 64, fp32, in the threads' registers) = a (64 x 16)
 *                                     b (16 x 64) + d, a and b read from shared memory through
 *                                     their matrix descriptors (model/wgmma_desc.h); TRANS_A /
 *                                     TRANS_B: the operand is MN-major; scale_d 0: d = a b
 *                                     (m64n256k16 alike: d 64 x 256, b 16 x 256)
 *   wgmma.commit_group.sync.aligned   closes the group of wgmma issued so far
 *   wgmma.wait_group.sync.aligned N   waits until at most N groups are pending: their d written
 *   setmaxnreg.dec / .inc             a warpgroup's registers a thread, given back or taken
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

/* The same at n = 256: d is 64 x 256 (128 floats a thread), b 16 x 256: the tile a consumer
 * warpgroup of chapter 08's wgmma GEMM computes. */
template <int TRANS_A, int TRANS_B>
static __device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], unsigned long long desc_a,
                                                        unsigned long long desc_b, int scale_d) {
#if COURSE_WGMMA
    asm volatile(
        "{\n .reg .pred p;\n setp.ne.b32 p, %130, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
        " %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11,"
        " %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23,"
        " %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35,"
        " %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        " %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59,"
        " %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71,"
        " %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83,"
        " %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
        " %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107,"
        " %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119,"
        " %120, %121, %122, %123, %124, %125, %126, %127"
        "}, %128, %129, p, 1, 1, %131, %132;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
          "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
          "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
          "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
          "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
          "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
          "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
          "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
          "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
          "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
          "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
          "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B)
        : "memory");
#else
    (void)d, (void)desc_a, (void)desc_b, (void)scale_d;
    __trap();
#endif
}

/* A warpgroup's registers a thread, changed while the block runs: a producer warpgroup that only
 * issues copies gives registers back (dec) so that the consumers, whose accumulators need them,
 * can take them (inc). N: a multiple of 8 in 24..256. */
template <int N>
static __device__ __forceinline__ void setmaxnreg_dec(void) {
#if COURSE_WGMMA
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
#else
    __trap();
#endif
}

template <int N>
static __device__ __forceinline__ void setmaxnreg_inc(void) {
#if COURSE_WGMMA
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
#else
    __trap();
#endif
}

#endif
