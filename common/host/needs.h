/* What a variant needs of the GPU and of the build, and the one decision every chapter makes
 * with it: does this variant run here, and if not, why not.
 *
 * A variant states its needs (course_needs); the GPU is described by the properties that decide
 * (course_gpu: read from the device by course_gpu_of_device, or taken from the table of real
 * GPUs below, for `--list --gpu NAME` and the CPU test); the build is what cudaFuncGetAttributes
 * says of the variant's kernel (course_build: whether the binary has code for this GPU, and the
 * architecture that code was compiled for). A kernel whose feature is compiled out for its
 * target (an sm_80 instruction in a build for 75-virtual, JIT-compiled on a newer GPU) runs on a
 * capable GPU all the same, as a trap: only the kernel's own ptxVersion tells. */
#ifndef COURSE_NEEDS_H
#define COURSE_NEEDS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The oldest GPU the course builds for: Turing (CUDA 13 builds nothing older). */
enum { COURSE_MIN_ARCH = 75 };

typedef struct {
    int arch;            /* compute capability x 10, of the GPU and of the kernel's code: 75 (any
                          * GPU the course builds for), 80 (cp.async, mma.sync.m16n8k16), 90 (TMA) */
    const char* feature; /* what needs arch, for the message: "cp.async"; NULL for arch 75 */
    size_t dynamic_smem; /* bytes of dynamic shared memory a block asks for */
    int threads;         /* a block's threads */
    int arch_specific;   /* 1: code for exactly `arch` (sm_90a's wgmma), which no other GPU runs */
} course_needs;

/* The GPU's properties that decide (cudaDeviceProp's names in brackets). */
typedef struct {
    const char* key;             /* the name --gpu takes: "t4", "a100", ... ; NULL for a device */
    const char* name;            /* "NVIDIA A100-SXM4-40GB" */
    int arch;                    /* compute capability x 10 [major, minor] */
    int sm_count;                /* [multiProcessorCount] */
    size_t smem_per_block_optin; /* [sharedMemPerBlockOptin] */
    size_t smem_per_sm;          /* [sharedMemPerMultiprocessor] */
    int max_threads_per_sm;      /* [maxThreadsPerMultiProcessor] */
    int max_threads_per_block;   /* [maxThreadsPerBlock] */
    size_t l2_bytes;             /* [l2CacheSize] */
} course_gpu;

/* A kernel as this build carries it, for the GPU at hand (cudaFuncGetAttributes). */
typedef struct {
    int has_code;       /* 0: the binary has no code this GPU can load */
    int ptx_arch;       /* the virtual architecture the code was compiled for, x 10 */
    size_t static_smem; /* bytes */
    int max_threads;    /* the most threads a block of it may have (launch bounds, registers) */
} course_build;

/* The compute capability x 10 the needs come to: need->arch, and the course's minimum at least. */
int course_needs_arch(const course_needs* need);

/* 1 if a variant with these needs runs on gpu with this build of its kernel, else 0 with the
 * reason in why (one line: "needs compute capability 8.0 (cp.async); the T4 has 7.5"). build
 * NULL: a build for the GPU's own architecture, registers unknown (the table's GPUs). */
int course_variant_runs(const course_gpu* gpu, const course_build* build, const course_needs* need,
                        char* why, size_t len);

/* The table of real GPUs: one of each kind a learner studies on, from NVIDIA's published
 * properties (what cudaGetDeviceProperties reports on each). course_known_gpu finds one by key
 * (case as given), NULL if it is not in the table. */
extern const course_gpu course_known_gpus[];
extern const int course_known_gpu_count;
const course_gpu* course_known_gpu(const char* key);

/* "t4, a10, ..." for a usage message. */
void course_known_gpu_keys(char* buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
