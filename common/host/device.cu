#include "host/device.h"

#include "host/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kernel that does nothing: asking for its attributes tells whether this build carries code
 * that the GPU can run. */
static __global__ void course_build_probe() {}

/* Where the NVIDIA kernel driver announces itself on Linux. */
static const char driver_version_file[] = "/proc/driver/nvidia/version";

/* The driver's release as nvidia-smi shows it, or "unknown"; returns -1 if the driver has not
 * published its version file (no driver loaded). */
static int read_driver_release(char* buf, size_t len) {
    snprintf(buf, len, "unknown");
    FILE* f = fopen(driver_version_file, "r");
    if (!f) return -1;
    char line[512];
    if (fgets(line, sizeof line, f)) {
        /* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release ..." */
        for (char* tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
            unsigned major, minor;
            if (sscanf(tok, "%u.%u", &major, &minor) == 2 && major >= 100) {
                snprintf(buf, len, "%s", tok);
                break;
            }
        }
    }
    fclose(f);
    return 0;
}

/* What is missing when cudaGetDeviceCount finds no device: a learner must be sent after the
 * right problem (CUDA reports a missing driver as "driver version is insufficient"). */
static void describe_missing_gpu(cudaError_t err, char* buf, size_t len) {
    char release[64];
    if (read_driver_release(release, sizeof release)) {
        snprintf(buf, len, "no NVIDIA GPU driver found (no %s)", driver_version_file);
    } else if (err == cudaErrorInsufficientDriver) {
        int runtime = 0;
        cudaRuntimeGetVersion(&runtime);
        snprintf(buf, len,
                 "the NVIDIA driver (release %s) is older than this build's CUDA runtime %d.%d "
                 "needs; update the driver",
                 release, runtime / 1000, runtime % 1000 / 10);
    } else if (err == cudaSuccess || err == cudaErrorNoDevice) {
        snprintf(buf, len, "no CUDA-capable GPU found");
    } else {
        snprintf(buf, len, "no usable NVIDIA GPU (CUDA: %s)", cudaGetErrorString(err));
    }
}

int course_device_open(course_device* d, int min_major, int min_minor, const char* what) {
    memset(d, 0, sizeof *d);
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        char why[256];
        describe_missing_gpu(err, why, sizeof why);
        printf("skipped: %s: %s: an NVIDIA GPU of compute capability %d.%d or newer is needed\n",
               why, what, min_major, min_minor);
        return EXIT_SKIPPED;
    }
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    d->id = 0;
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    if (p.major * 10 + p.minor < min_major * 10 + min_minor) {
        printf("skipped: %s has compute capability %d.%d; %s: %d.%d or newer is needed\n", p.name,
               p.major, p.minor, what, min_major, min_minor);
        return EXIT_SKIPPED;
    }
    CUDA_CHECK(cudaSetDevice(0));
    d->sm_count = p.multiProcessorCount;
    CUDA_CHECK(cudaDeviceGetAttribute(&d->clock_khz, cudaDevAttrClockRate, 0));
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->max_threads_per_block = p.maxThreadsPerBlock;
    d->regs_per_sm = p.regsPerMultiprocessor;
    d->regs_per_block = p.regsPerBlock;
    d->smem_per_sm = p.sharedMemPerMultiprocessor;
    d->smem_per_block_optin = p.sharedMemPerBlockOptin;
    d->l2_bytes = (size_t)p.l2CacheSize;
    d->global_mem_bytes = p.totalGlobalMem;
    CUDA_CHECK(cudaRuntimeGetVersion(&d->runtime_version));
    read_driver_release(d->driver, sizeof d->driver);

    struct cudaFuncAttributes attr;
    err = cudaFuncGetAttributes(&attr, course_build_probe);
    if (err != cudaSuccess)
        die("this build has no code for %s (compute capability %d.%d): %s. Reconfigure with "
            "-DCMAKE_CUDA_ARCHITECTURES=%d%d and rebuild",
            p.name, p.major, p.minor, cudaGetErrorString(err), p.major, p.minor);
    return EXIT_OK;
}

void course_device_describe(const course_device* d, char* buf, size_t len) {
    snprintf(buf, len, "%s, compute capability %d.%d, CUDA runtime %d.%d, driver %s", d->name,
             d->cc_major, d->cc_minor, d->runtime_version / 1000, d->runtime_version % 1000 / 10,
             d->driver);
}

void course_summary_header(const course_device* d, const char* program) {
    char desc[512];
    course_device_describe(d, desc, sizeof desc);
    printf("\n## %s summary\n\n%s.\n\n", program, desc);
}

void course_require_device_memory(const char* program, double bytes, const char* what) {
    size_t free_b, total_b;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (bytes > 0.9 * (double)free_b) {
        fprintf(stderr, "%s: %s needs %.1f GiB; the GPU has %.1f GiB free\n", program, what,
                bytes / (1 << 30), free_b / (double)(1 << 30));
        exit(EXIT_USAGE);
    }
}

void course_device_print(const course_device* d) {
    char desc[512];
    course_device_describe(d, desc, sizeof desc);
    printf("\n%s, %d SMs\n", desc, d->sm_count);
}

void course_target_of_device(const course_device* d, course_target* t) {
    memset(t, 0, sizeof *t);
    t->gpu.name = d->name;
    t->gpu.arch = d->cc_major * 10 + d->cc_minor;
    t->gpu.sm_count = d->sm_count;
    t->gpu.smem_per_block_optin = d->smem_per_block_optin;
    t->gpu.smem_per_sm = d->smem_per_sm;
    t->gpu.max_threads_per_sm = d->max_threads_per_sm;
    t->gpu.max_threads_per_block = d->max_threads_per_block;
    t->gpu.l2_bytes = d->l2_bytes;
}

int course_target_of_table(const char* key, course_target* t) {
    const course_gpu* g = key ? course_known_gpu(key) : NULL;
    if (!g) return 0;
    t->gpu = *g;
    t->from_table = 1;
    printf("\nOn the %s (compute capability %d.%d, %d SMs, %zu bytes of shared memory a block, "
           "%d threads a block, %d an SM), with a build for it:\n",
           g->name, g->arch / 10, g->arch % 10, g->sm_count, g->smem_per_block_optin,
           g->max_threads_per_block, g->max_threads_per_sm);
    return 1;
}

int course_runs_on(const course_target* t, const void* kernel, const course_needs* need, char* why,
                   size_t len) {
    if (t->from_table || !kernel) return course_variant_runs(&t->gpu, NULL, need, why, len);
    course_build b;
    memset(&b, 0, sizeof b);
    struct cudaFuncAttributes a;
    const cudaError_t err = cudaFuncGetAttributes(&a, kernel);
    if (err == cudaErrorInvalidDeviceFunction || err == cudaErrorNoKernelImageForDevice) {
        cudaGetLastError(); /* not sticky: the context stays usable */
    } else {
        CUDA_CHECK(err);
        b.has_code = 1;
        b.ptx_arch = a.ptxVersion;
        b.static_smem = a.sharedSizeBytes;
        b.max_threads = a.maxThreadsPerBlock;
    }
    return course_variant_runs(&t->gpu, &b, need, why, len);
}

int course_require_kernel(const course_device* d, const void* kernel, const course_needs* need,
                          const char* what) {
    course_target t;
    course_target_of_device(d, &t);
    char why[256];
    if (course_runs_on(&t, kernel, need, why, sizeof why)) return EXIT_OK;
    printf("skipped: %s: %s\n", what, why);
    return EXIT_SKIPPED;
}

/* CUDA 12.5 gave the lookup a version argument (and deprecated the call without); before it, the
 * unversioned call finds the same function. */
void* course_driver_function(const char* name) {
    void* fn = NULL;
    cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
    CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found));
#else
    CUDA_CHECK(cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found));
#endif
    return found == cudaDriverEntryPointSuccess ? fn : NULL;
}
