/* Functions that host C, CPU tests and kernels share, written once.
 *
 *   COURSE_HD         a function declared in a header and defined once (a solution.cu, a model):
 *                     __host__ __device__ under nvcc, plain under a C compiler
 *   COURSE_HD_INLINE  a small function defined in a header: static constexpr __host__ __device__
 *                     under nvcc, so that a kernel's tile sizes and index arithmetic fold to
 *                     constants; static inline under a C compiler */
#ifndef COURSE_HD_H
#define COURSE_HD_H

#if defined(__CUDACC__)
#define COURSE_HD        __host__ __device__
#define COURSE_HD_INLINE static constexpr __host__ __device__
#else
#define COURSE_HD
#define COURSE_HD_INLINE static inline
#endif

/* log2 of a power of two up to 2^12, without recursion or loops (either stops constant folding
 * inside a kernel's unrolled loops). */
COURSE_HD_INLINE int course_log2(int x) {
    return (x >= 2) + (x >= 4) + (x >= 8) + (x >= 16) + (x >= 32) + (x >= 64) + (x >= 128) +
           (x >= 256) + (x >= 512) + (x >= 1024) + (x >= 2048) + (x >= 4096);
}

#endif
