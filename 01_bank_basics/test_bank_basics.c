/* Chapter 01 exercise test: exercise_bank_of and exercise_wavefronts_4byte against the course's
 * calibrated model (common/model/smem_model) on strides, broadcasts, partial masks and random
 * warps. */
#include "bank_basics.h"
#include "host/rng.h"
#include "host/test_util.h"
#include "model/smem_model.h"

#include <string.h>

static int wrong_banks, wrong_wavefronts, commands_shown;

/* bankcalc beside this test (both in the build's bin/), as the learner's shell would run it. */
static char bankcalc[4096] = "build/bin/bankcalc";

static void find_bankcalc(const char* argv0) {
    const char* slash = strrchr(argv0, '/');
    size_t dir = slash ? (size_t)(slash - argv0) + 1 : 0;
    if (!slash || dir + sizeof "bankcalc" + 2 > sizeof bankcalc || strchr(argv0, '\'')) return;
    int plain = 1; /* can it go on a command line unquoted? */
    for (size_t i = 0; i < dir; ++i)
        plain &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._+-",
                          argv0[i]);
    snprintf(bankcalc, sizeof bankcalc, "%s%.*sbankcalc%s", plain ? "" : "'", (int)dir, argv0,
             plain ? "" : "'");
}

/* The whole warp as a command to paste: its bank map and wavefronts under the model. Printed
 * with the failures EXPECT prints (the first 20), not for every one. */
static void print_bankcalc(const smem_access* a) {
    if (test_failures > 20) return;
    printf("  its bank map: %s --width %u", bankcalc, a->width);
    if (a->mask != 0xffffffffu) printf(" --mask %08x", a->mask);
    for (int lane = 0; lane < 32; ++lane) printf(" %u", a->offset[lane]);
    printf("\n");
    ++commands_shown;
}

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
    if (got != want) print_bankcalc(a);
    wrong_wavefronts += got != want;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    find_bankcalc(argv[0]);
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
    if (commands_shown)
        printf("Each wavefront failure shown above ends with its bankcalc command: paste it.\n");
    return test_finish("test_bank_basics");
}
