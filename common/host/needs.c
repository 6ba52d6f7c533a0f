#include "host/needs.h"

#include <stdio.h>
#include <string.h>

/* NVIDIA's published figures for one board of each kind: SMs, shared memory a block may opt in
 * to and an SM holds, resident threads, L2. A board of the same chip with fewer SMs or less L2
 * decides alike: only the architecture, shared memory and threads decide whether a variant runs. */
const course_gpu course_known_gpus[] = {
    {"t4", "Tesla T4", 75, 40, 65536, 65536, 1024, 1024, 4u << 20},
    {"a10", "NVIDIA A10", 86, 72, 101376, 102400, 1536, 1024, 6u << 20},
    {"rtx3090", "NVIDIA GeForce RTX 3090", 86, 82, 101376, 102400, 1536, 1024, 6u << 20},
    {"l4", "NVIDIA L4", 89, 58, 101376, 102400, 1536, 1024, 48u << 20},
    {"rtx4090", "NVIDIA GeForce RTX 4090", 89, 128, 101376, 102400, 1536, 1024, 72u << 20},
    {"a100", "NVIDIA A100-SXM4-40GB", 80, 108, 166912, 167936, 2048, 1024, 40u << 20},
    {"h100", "NVIDIA H100 80GB HBM3", 90, 132, 232448, 233472, 2048, 1024, 50u << 20},
    {"h200", "NVIDIA H200", 90, 132, 232448, 233472, 2048, 1024, 60u << 20},
    {"b200", "NVIDIA B200", 100, 148, 232448, 233472, 2048, 1024, 126u << 20},
    {"rtx5090", "NVIDIA GeForce RTX 5090", 120, 170, 101376, 102400, 1536, 1024, 96u << 20},
};
const int course_known_gpu_count = sizeof course_known_gpus / sizeof course_known_gpus[0];

const course_gpu* course_known_gpu(const char* key) {
    for (int i = 0; i < course_known_gpu_count; ++i)
        if (!strcmp(course_known_gpus[i].key, key)) return &course_known_gpus[i];
    return NULL;
}

void course_known_gpu_keys(char* buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < course_known_gpu_count && used < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 course_known_gpus[i].key);
}

int course_needs_arch(const course_needs* need) {
    return need->arch > COURSE_MIN_ARCH ? need->arch : COURSE_MIN_ARCH;
}

int course_variant_runs(const course_gpu* gpu, const course_build* build, const course_needs* need,
                        char* why, size_t len) {
    const int arch = course_needs_arch(need);
    const char* feature = need->feature ? need->feature : "the course";
    const size_t smem = need->dynamic_smem + (build ? build->static_smem : 0);
    if (gpu->arch < arch) {
        snprintf(why, len, "needs compute capability %d.%d (%s); the %s has %d.%d", arch / 10,
                 arch % 10, feature, gpu->name, gpu->arch / 10, gpu->arch % 10);
        return 0;
    }
    if (need->arch_specific && gpu->arch != arch) {
        snprintf(why, len,
                 "needs compute capability %d.%d exactly (%s: sm_%da code, which runs on "
                 "no other GPU); the %s has %d.%d",
                 arch / 10, arch % 10, feature, arch, gpu->name, gpu->arch / 10, gpu->arch % 10);
        return 0;
    }
    if (build && !build->has_code) {
        snprintf(why, len,
                 "this build has no code for compute capability %d.%d: rebuild with "
                 "-DCMAKE_CUDA_ARCHITECTURES=%d",
                 gpu->arch / 10, gpu->arch % 10, gpu->arch);
        return 0;
    }
    if (build && build->ptx_arch < arch) {
        snprintf(why, len,
                 "its code was compiled for compute_%d, without %s (compute_%d or newer): "
                 "rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d",
                 build->ptx_arch, feature, arch, gpu->arch);
        return 0;
    }
    if (need->threads > gpu->max_threads_per_block ||
        (build && need->threads > build->max_threads)) {
        snprintf(why, len, "a block of %d threads; the %s allows %d%s", need->threads, gpu->name,
                 build && build->max_threads < gpu->max_threads_per_block
                     ? build->max_threads
                     : gpu->max_threads_per_block,
                 build && build->max_threads < gpu->max_threads_per_block
                     ? " for this kernel (its registers or launch bounds)"
                     : "");
        return 0;
    }
    if (smem > gpu->smem_per_block_optin) {
        snprintf(why, len,
                 "needs %zu bytes (%.1f KiB) of shared memory a block; the %s allows %zu "
                 "(%.1f KiB)",
                 smem, smem / 1024.0, gpu->name, gpu->smem_per_block_optin,
                 gpu->smem_per_block_optin / 1024.0);
        return 0;
    }
    why[0] = '\0';
    return 1;
}
