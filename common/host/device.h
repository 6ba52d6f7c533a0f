/* Finding the GPU: a chapter asks for the compute capability it needs and gets either the
 * device's properties or EXIT_SKIPPED with a message that says what was missing. */
#ifndef COURSE_DEVICE_H
#define COURSE_DEVICE_H

#include "host/needs.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int id;
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    int clock_khz;          /* maximum SM clock */
    int max_threads_per_sm; /* resident threads per SM: 32 warps (sm_75), 48, or 64 */
    int max_threads_per_block;
    int regs_per_sm, regs_per_block; /* 32-bit registers */
    size_t smem_per_sm;              /* shared memory per multiprocessor */
    size_t smem_per_block_optin;     /* the most one block may ask for */
    size_t l2_bytes;                 /* L2 cache: what a DRAM benchmark must outgrow */
    size_t global_mem_bytes;         /* device memory in all */
    int runtime_version;             /* the CUDA runtime's version, e.g. 13000 */
    char driver[64]; /* the kernel driver's release, e.g. "580.159.04", or "unknown" */
} course_device;

/* Opens device 0 and checks that it has compute capability >= min_major.min_minor and that this
 * build carries code for it. Returns EXIT_OK, or prints a "skipped: " line saying what is missing
 * and returns EXIT_SKIPPED (no NVIDIA driver, a driver too old for this CUDA runtime, no GPU, a GPU
 * too old for `what`). A build without code for the GPU is a hard error (exit 1). */
int course_device_open(course_device* d, int min_major, int min_minor, const char* what);

/* "NVIDIA H200, compute capability 9.0, CUDA runtime 13.0, driver 580.159.04" */
void course_device_describe(const course_device* d, char* buf, size_t len);

/* The line "## program summary" and the device: how every lesson's summary begins (the course
 * run copies from that line into SUMMARY.md). */
void course_summary_header(const course_device* d, const char* program);

/* Exits 2 with "program: <what> needs X GiB; the GPU has Y GiB free" if `bytes` exceed 90% of the
 * GPU's free memory: a shape too large for the device is a usage error, not a crash. */
void course_require_device_memory(const char* program, double bytes, const char* what);

/* Prints the description and the SM count on a line of its own: what every run starts with. */
void course_device_print(const course_device* d);

/* Where a chapter's variants are judged (needs.h): the GPU it opened, or with --list --gpu NAME
 * a GPU of the table, no device opened and every kernel taken as built for that GPU. */
typedef struct {
    course_gpu gpu;
    int from_table; /* 1: --gpu NAME */
} course_target;

void course_target_of_device(const course_device* d, course_target* t);
/* With --gpu NAME: fills t from the table, prints what the plan below is for, returns 1; else 0. */
int course_target_of_table(const char* key, course_target* t);

/* course_variant_runs for a variant whose kernel is `kernel` (NULL: none of the course's, such
 * as a cuBLAS call: its needs alone), on t; on the device, with cudaFuncGetAttributes' account
 * of the kernel as this build carries it. */
int course_runs_on(const course_target* t, const void* kernel, const course_needs* need, char* why,
                   size_t len);

/* A function of the driver API (e.g. "cuTensorMapEncodeTiled", as of CUDA 12.0), through the
 * runtime so that nothing links libcuda; NULL if the driver has none. */
void* course_driver_function(const char* name);

/* For a test of one kernel on the open device: EXIT_OK if it runs there (course_runs_on), else a
 * "skipped: what: why" line and EXIT_SKIPPED. */
int course_require_kernel(const course_device* d, const void* kernel, const course_needs* need,
                          const char* what);

#ifdef __cplusplus
}
#endif

#endif
