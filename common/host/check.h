/* Error checking shared by every program: die() with file:line, CUDA_CHECK around every CUDA
 * call, CUDA_CHECK_LAUNCH after every kernel launch, and the exit codes of the course. */
#ifndef COURSE_CHECK_H
#define COURSE_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Exit codes every program keeps (CONTRIBUTING.md, section 3). */
enum {
    EXIT_OK = 0,
    EXIT_CHECK_FAILED = 1, /* a correctness check failed, or a hard error */
    EXIT_USAGE = 2,        /* unknown flag, bad number, unknown variant */
    EXIT_SKIPPED = 77      /* no CUDA device, or a GPU too old for the chapter */
};

static inline void die_at(const char* file, int line, const char* fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s:%d: error: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_CHECK_FAILED);
}
#define die(...) die_at(__FILE__, __LINE__, __VA_ARGS__)

#if defined(__CUDACC__) || defined(CUDART_VERSION)
#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess)                                                                   \
            die_at(__FILE__, __LINE__, "%s: %s (%s)", #call, cudaGetErrorString(err_),             \
                   cudaGetErrorName(err_));                                                        \
    } while (0)

/* A launch reports configuration errors at once and faults at the next synchronisation:
 * check both, so that a failing kernel is named where it was launched. */
#define CUDA_CHECK_LAUNCH()                                                                        \
    do {                                                                                           \
        CUDA_CHECK(cudaGetLastError());                                                            \
        CUDA_CHECK(cudaDeviceSynchronize());                                                       \
    } while (0)
#endif

#endif
