/* course_variant_runs (common/host/needs.h), the one decision of which variants run where: each
 * rule on the table's real GPUs and on builds a learner can make (no code for the GPU, PTX of an
 * older target JIT-compiled, registers that cap a block), and the reason it gives. */
#include "host/needs.h"
#include "host/test_util.h"

static int runs(const char* key, const course_build* b, int arch, size_t smem, int threads,
                char* why) {
    const course_needs need = {arch, arch >= 90 ? "the TMA" : "cp.async", smem, threads, 0};
    const course_gpu* gpu = course_known_gpu(key);
    if (!gpu) die("no GPU '%s' in the table", key);
    return course_variant_runs(gpu, b, &need, why, 256);
}

int main(int argc, char** argv) {
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: test_needs (no arguments)\n");
        return EXIT_USAGE;
    }
    char why[256];
    EXPECT(course_known_gpu_count >= 7, "%d GPUs in the table", course_known_gpu_count);
    for (int i = 0; i < course_known_gpu_count; ++i) {
        const course_gpu* g = &course_known_gpus[i];
        EXPECT(course_known_gpu(g->key) == g, "%s found by its key", g->key);
        EXPECT(g->arch >= COURSE_MIN_ARCH && g->smem_per_block_optin <= g->smem_per_sm &&
                   g->max_threads_per_block <= g->max_threads_per_sm && g->sm_count > 0 &&
                   g->l2_bytes > 0,
               "%s: consistent figures", g->key);
    }
    EXPECT(!course_known_gpu("v100"), "no sm_70 in the table: CUDA 13 builds none");

    /* Capability: the GPU's, then the code's. */
    EXPECT(runs("t4", NULL, 0, 0, 256, why), "anything of the course's on a T4");
    EXPECT(!runs("t4", NULL, 80, 0, 256, why) && strstr(why, "8.0 (cp.async)") &&
               strstr(why, "has 7.5"),
           "cp.async on a T4: %s", why);
    EXPECT(!runs("a100", NULL, 90, 0, 256, why) && strstr(why, "9.0 (the TMA)"), "TMA on an A100");
    EXPECT(runs("b200", NULL, 90, 0, 256, why) && runs("rtx5090", NULL, 90, 0, 256, why),
           "the TMA on Blackwell");
    {
        const course_needs wgmma = {90, "wgmma", 0, 384, 1};
        EXPECT(course_variant_runs(course_known_gpu("h100"), NULL, &wgmma, why, 256),
               "wgmma on an H100: %s", why);
        EXPECT(!course_variant_runs(course_known_gpu("b200"), NULL, &wgmma, why, 256) &&
                   strstr(why, "9.0 exactly (wgmma: sm_90a code"),
               "wgmma on a B200: %s", why);
        EXPECT(!course_variant_runs(course_known_gpu("a100"), NULL, &wgmma, why, 256) &&
                   strstr(why, "9.0 (wgmma)"),
               "wgmma on an A100: %s", why);
    }
    course_build jit = {1, 75, 0, 1024}, none = {0, 0, 0, 0}, own = {1, 90, 0, 1024};
    EXPECT(!runs("h200", &jit, 80, 0, 256, why) && strstr(why, "compute_75") &&
               strstr(why, "ARCHITECTURES=90"),
           "cp.async from 75-virtual PTX on an H200: %s", why);
    EXPECT(runs("h200", &jit, 0, 0, 256, why), "plain code from 75-virtual PTX on an H200");
    EXPECT(!runs("h200", &none, 0, 0, 256, why) && strstr(why, "no code"), "no code: %s", why);
    EXPECT(runs("h200", &own, 90, 0, 256, why), "the TMA built for sm_90 on an H200");

    /* Shared memory a block: the opt-in limit, static included, bound exact. */
    EXPECT(runs("rtx4090", NULL, 80, 101376, 256, why), "99 KiB on an RTX 4090");
    EXPECT(!runs("rtx4090", NULL, 80, 101377, 256, why) && strstr(why, "101377 bytes") &&
               strstr(why, "allows 101376"),
           "a byte more: %s", why);
    EXPECT(runs("a100", NULL, 80, 166912, 256, why) && !runs("a100", NULL, 80, 214016, 256, why),
           "A100: 163 KiB, not 209 KiB");
    EXPECT(runs("t4", NULL, 0, 65536, 256, why), "64 KiB on a T4");
    course_build statics = {1, 90, 2048, 1024};
    EXPECT(!runs("h200", &statics, 90, 232448 - 1024, 256, why), "static shared memory counts: %s",
           why);

    /* Threads: the GPU's limit, and the kernel's at its registers. */
    EXPECT(!runs("h200", NULL, 0, 0, 2048, why) && strstr(why, "allows 1024"), "%s", why);
    course_build heavy = {1, 90, 0, 256}; /* 255 registers a thread */
    EXPECT(runs("h200", &heavy, 80, 0, 256, why), "255 registers, 256 threads");
    EXPECT(!runs("h200", &heavy, 80, 0, 512, why) && strstr(why, "allows 256 for this kernel"),
           "%s", why);
    return test_finish("test_needs");
}
