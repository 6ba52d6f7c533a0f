/* Chapter 01 exercise test: exercise_bank_of and exercise_wavefronts_4byte against the course's
 * calibrated model (common/model/smem_model) on strides, broadcasts, partial masks and random
 * warps. */
#include "bank_basics.h"
#include "host/rng.h"
#include "host/test_util.h"
#include "model/smem_model.h"

static int wrong_banks, wrong_wavefronts;

static void check_bank(unsigned offset) {
    unsigned got = exercise_bank_of(offset);
    EXPECT(got == smem_bank(offset), "exercise_bank_of(%u) = %u, want %u", offset, got,
           smem_bank(offset));
    wrong_banks += got != smem_bank(offset);
}

static void check_access(const smem_access* a, const char* what) {
    int want = smem_wavefronts(a), got = exercise_wavefronts_4byte(a->offset, a->mask);
    EXPECT(got == want,
           "%s: exercise_wavefronts_4byte = %d, want %d (offsets %u %u %u ..., mask %08x)", what,
           got, want, a->offset[0], a->offset[1], a->offset[2], a->mask);
    wrong_wavefronts += got != want;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    for (unsigned o = 0; o < 4096; o += 4) check_bank(o);
    check_bank(0xfffffffcu);
    unsigned long long seed = 7;
    for (int i = 0; i < 1000; ++i) check_bank(rng_u32(&seed) & ~3u);

    for (unsigned s = 0; s <= 64; ++s) {
        smem_access a = smem_strided(4, SMEM_LOAD, s, 4 * s);
        check_access(&a, "stride");
        a.mask = 0x0000ffffu;
        check_access(&a, "stride, half the lanes");
        a.mask = 0x80000001u;
        check_access(&a, "stride, lanes 0 and 31");
    }
    for (int i = 0; i < 3000; ++i) {
        smem_access a = smem_strided(4, SMEM_LOAD, 0, 0);
        unsigned words = 1u << (3 + i % 8); /* 8 .. 1024 words: from many repeats to few */
        for (int lane = 0; lane < 32; ++lane) a.offset[lane] = 4u * rng_below(&seed, words);
        a.mask = i % 3 ? 0xffffffffu : rng_u32(&seed) | 1u;
        check_access(&a, "random");
    }
    if (wrong_banks || wrong_wavefronts)
        printf("\n%d bank answers and %d wavefront answers differ from the model.\n"
               "Read README.md's \"The idea\" again: how wide is a bank, how many are there, and\n"
               "what does one bank deliver per wavefront? Try the failing accesses in bankcalc.\n",
               wrong_banks, wrong_wavefronts);
    return test_finish("test_bank_basics");
}
