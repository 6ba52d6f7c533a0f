/* bankcalc: the bank map and wavefront count of one warp's shared-memory access.
 *
 *   bankcalc [--width 4|8|16] [--op load|store] [--mask HEX] O0 O1 ... O31
 *   bankcalc [--width 4|8|16] [--op load|store] [--mask HEX] --stride S [--base B]
 *
 * The first form takes each lane's byte offset; the second puts lane i at B + i * S * width.
 * The last line is always "wavefronts: N ideal: I excess: E". */
#include "check.h"
#include "smem_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: bankcalc [--width 4|8|16] [--op load|store] [--mask HEX] O0 O1 ... O31\n"
    "       bankcalc [--width 4|8|16] [--op load|store] [--mask HEX] --stride S [--base B]\n"
    "  O0..O31   byte offset of each lane's access (32 numbers, multiples of the width)\n"
    "  --stride  lane i accesses B + i * S * width bytes\n"
    "  --width   bytes per lane (default 4); --op (default load); --mask active lanes (default "
    "ffffffff)\n";

static int fail(const char* fmt, const char* arg) {
    fprintf(stderr, "bankcalc: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return EXIT_USAGE;
}

/* A whole non-negative number in the given base, below 2^32; nothing else. */
static int parse_number(const char* s, int base, unsigned* out) {
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return -1;
    if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    char* end;
    errno = 0;
    unsigned long v = strtoul(s, &end, base);
    if (errno || *end || end == s || v > 0xffffffffUL) return -1;
    *out = (unsigned)v;
    return 0;
}

/* "0-3,8,12-13" */
static void print_lanes(unsigned lanes) {
    int first = 1;
    for (int i = 0; i < SMEM_WARP; ++i) {
        if (!(lanes >> i & 1u)) continue;
        int j = i;
        while (j + 1 < SMEM_WARP && (lanes >> (j + 1) & 1u)) ++j;
        printf(first ? "%d" : ",%d", i);
        if (j > i) printf("-%d", j);
        first = 0;
        i = j;
    }
}

int main(int argc, char** argv) {
    smem_access a;
    memset(&a, 0, sizeof a);
    a.width = 4;
    a.op = SMEM_LOAD;
    a.mask = 0xffffffffu;
    unsigned stride = 0, base = 0;
    int have_stride = 0, have_base = 0, n = 0;
    for (int i = 1; i < argc; ++i) {
        const char* f = argv[i];
        if (!strcmp(f, "--help") || !strcmp(f, "-h")) {
            printf("%s", usage);
            return EXIT_OK;
        }
        if (f[0] == '-' && f[1] == '-') {
            const char* v = i + 1 < argc ? argv[++i] : NULL;
            if (!v) return fail("%s needs a value", f);
            unsigned x;
            if (!strcmp(f, "--width")) {
                if (parse_number(v, 10, &x) || (x != 4 && x != 8 && x != 16))
                    return fail("width must be 4, 8 or 16, got '%s'", v);
                a.width = x;
            } else if (!strcmp(f, "--op")) {
                if (strcmp(v, "load") && strcmp(v, "store"))
                    return fail("op must be load or store, got '%s'", v);
                a.op = strcmp(v, "load") ? SMEM_STORE : SMEM_LOAD;
            } else if (!strcmp(f, "--mask")) {
                if (parse_number(v, 16, &a.mask) || !a.mask)
                    return fail("mask must be a non-zero hex number, got '%s'", v);
            } else if (!strcmp(f, "--stride")) {
                if (parse_number(v, 10, &stride))
                    return fail("stride must be a number, got '%s'", v);
                have_stride = 1;
            } else if (!strcmp(f, "--base")) {
                if (parse_number(v, 10, &base)) return fail("base must be a number, got '%s'", v);
                have_base = 1;
            } else
                return fail("unknown flag '%s'", f);
            continue;
        }
        if (n == SMEM_WARP) return fail("more than 32 offsets (at '%s')", f);
        if (parse_number(f, 10, &a.offset[n])) return fail("not a byte offset: '%s'", f);
        ++n;
    }
    if (have_stride && n) return fail("give either --stride or 32 offsets, not both%s", "");
    if (have_base && !have_stride) return fail("--base goes with --stride%s", "");
    if (have_stride) {
        unsigned mask = a.mask;
        a = smem_strided(a.width, a.op, stride, base);
        a.mask = mask;
    } else if (n != SMEM_WARP) {
        char count[16];
        snprintf(count, sizeof count, "%d", n);
        return fail("need 32 offsets, one per lane; got %s", count);
    }
    const char* invalid = smem_invalid(&a);
    if (invalid) return fail("%s", invalid);

    smem_report r;
    smem_analyze(&a, &r);
    printf("%u-byte %s, active lanes %08x\n", a.width, a.op == SMEM_LOAD ? "load" : "store",
           a.mask);
    printf("lane: offset -> bank%s\n", a.width > 4 ? "s" : "");
    for (int lane = 0; lane < SMEM_WARP; ++lane) {
        if (!(a.mask >> lane & 1u)) continue;
        unsigned first = smem_bank(a.offset[lane]);
        printf("  %2d: %6u -> %2u", lane, a.offset[lane], first);
        if (a.width > 4) printf("-%u", first + a.width / SMEM_BANK_BYTES - 1);
        printf("\n");
    }
    printf("bank  words  lanes\n");
    for (int bank = 0; bank < SMEM_BANKS; ++bank) {
        if (!r.lanes_in_bank[bank]) continue;
        printf("  %2d  %5d  ", bank, r.words_in_bank[bank]);
        print_lanes(r.lanes_in_bank[bank]);
        printf("\n");
    }
    int groups = SMEM_WARP / r.group_lanes;
    if (groups > 1) {
        printf("served in %d groups of %d lanes, wavefronts per group:", groups, r.group_lanes);
        for (int g = 0; g < groups; ++g) printf(" %d", r.group_wavefronts[g]);
        printf("\n");
    }
    printf("wavefronts: %d ideal: %d excess: %d\n", r.wavefronts, r.ideal, r.excess);
    return EXIT_OK;
}
