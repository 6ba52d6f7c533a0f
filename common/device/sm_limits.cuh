/* What an SM of the architecture being compiled holds, for __launch_bounds__: a kernel asks for
 * as many resident blocks as fit on every architecture and no more (ptxas ignores, with a
 * warning, a minimum that does not fit). The threads an SM holds, as ptxas enforces them for
 * every architecture nvcc 13.0 knows:
 *
 *   1024 (32 warps)  sm_75
 *   2048 (64 warps)  sm_80, sm_90, sm_100, sm_103
 *   1536 (48 warps)  sm_86, sm_87, sm_88, sm_89, sm_110, sm_120, sm_121
 *
 * The host pass ignores launch bounds: it takes 2048. At run time, the device's own figure
 * (course_device.max_threads_per_sm) is the one to use. */
#ifndef COURSE_SM_LIMITS_CUH
#define COURSE_SM_LIMITS_CUH

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 ||                     \
    __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030
#define COURSE_SM_THREADS 2048
#elif __CUDA_ARCH__ == 750
#define COURSE_SM_THREADS 1024
#else
#define COURSE_SM_THREADS 1536
#endif

/* The minimum resident blocks for __launch_bounds__(threads, ...): `want` where that many blocks
 * of `threads` fit in an SM of this architecture, else as many as fit. */
#define COURSE_MIN_BLOCKS(threads, want)                                                           \
    ((threads) * (want) <= COURSE_SM_THREADS ? (want) : COURSE_SM_THREADS / (threads))

#endif
