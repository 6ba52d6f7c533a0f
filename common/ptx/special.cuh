/* The special registers the course reads, in PTX: which SM a block runs on (chapter 01 spreads
 * its measurement over every SM) and the GPU's nanosecond clock (the benchmark's gate kernel
 * gives up after a while under a profiler). */
#ifndef COURSE_PTX_SPECIAL_CUH
#define COURSE_PTX_SPECIAL_CUH

static __device__ __forceinline__ unsigned ptx_smid(void) {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

static __device__ __forceinline__ unsigned long long ptx_globaltimer(void) {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

#endif
