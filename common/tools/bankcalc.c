/* bankcalc: the bank map and wavefront count of one warp's shared-memory access.
 *
 *   bankcalc [--width 1|2|4|8|16] [--op load|store] [--mask HEX] O0 O1 ... O31
 *   bankcalc [--width 1|2|4|8|16] [--op load|store] [--mask HEX] --stride S [--base B]
 *   bankcalc --op ldmatrix|stmatrix [--matrices 1|2|4] [--trans] R0 ... R(8N-1)
 *   bankcalc --op ldmatrix|stmatrix [--matrices 1|2|4] [--trans] --stride S [--base B]
 *
 * The first form takes each lane's byte offset; the second puts lane i at B + i * S * width.
 * ldmatrix and stmatrix (m8n8, 16-bit) take the byte offset of each 16-byte row, 8 per matrix:
 * lane l gives row l % 8 of matrix l / 8 (--stride: row i at B + i * S * 16); the model's rule 4,
 * calibrated on the H200 (calibration/h200_matrix.csv).
 * Every active lane's access must end within the 227 KiB a block can address on sm_90: an
 * offset past it is a usage error, never a wrapped answer. The last line of a good run is always
 * "wavefronts: N ideal: I excess: E". --plot FILE.png draws the same bank map with gnuplot, after
 * the text: x the bank, y the wavefront, each word labelled by its lanes (exit 77 without gnuplot).
 */
#include "host/check.h"
#include "host/cli.h"
#include "model/smem_model.h"
#include "host/plot.h"

#include <stdio.h>
#include <string.h>

/* The most shared memory one block can address (sm_90, the course's reference GPU). */
enum { BLOCK_SMEM_BYTES = 227 * 1024 };

static const char usage[] =
    "usage: bankcalc [--width 1|2|4|8|16] [--op load|store] [--mask HEX] O0 O1 ... O31\n"
    "       bankcalc [--width 1|2|4|8|16] [--op load|store] [--mask HEX] --stride S [--base B]\n"
    "       bankcalc --op ldmatrix|stmatrix [--matrices 1|2|4] [--trans] R0 ... R(8N-1)\n"
    "       bankcalc --op ldmatrix|stmatrix [--matrices 1|2|4] [--trans] --stride S [--base B]\n"
    "  O0..O31   byte offset of each lane's access (32 numbers, multiples of the width)\n"
    "  --stride  lane i accesses B + i * S * width bytes\n"
    "  --width   bytes per lane (default 4); --op (default load)\n"
    "  --mask    active lanes, hex, bit i = lane i (default ffffffff)\n"
    "  --plot FILE.png  also draw the bank map with gnuplot, after the text: x the bank, y the\n"
    "            wavefront, each word labelled by its lanes (exit 77 without gnuplot)\n"
    "  ldmatrix, stmatrix: R0.. the byte offset of each 16-byte row, 8 per matrix (lane l: row\n"
    "            l % 8 of matrix l / 8); --matrices N (default 4: .x4); --trans (the same rows)\n"
    "every active lane's offset + width must be at most 232448 bytes (227 KiB, the most shared\n"
    "memory a block can address on sm_90)\n";

#define fail(...) course_tool_usage_error("bankcalc", usage, __VA_ARGS__)

/* "0-3,8,12-13" */
static void print_lanes(FILE* f, unsigned lanes) {
    int first = 1;
    for (int i = 0; i < SMEM_WARP; ++i) {
        if (!(lanes >> i & 1u)) continue;
        int j = i;
        while (j + 1 < SMEM_WARP && (lanes >> (j + 1) & 1u)) ++j;
        fprintf(f, first ? "%d" : ",%d", i);
        if (j > i) fprintf(f, "-%d", j);
        first = 0;
        i = j;
    }
}

/* --plot: each group's words stacked in its banks in the order the lanes ask for them (rule 2: a
 * bank delivers one distinct word a wavefront), group after group, so that the column of the
 * busiest bank is as tall as the wavefronts. Labels: the lanes that share each word. */
static int plot_banks(const char* png, const char* command, const char* what, const smem_access* a,
                      const smem_report* r) {
    /* A lane touches a bank at most once (16 bytes at most), so a group of n lanes needs at most
     * n rows, and the warp 32. */
    static unsigned lanes[SMEM_WARP][SMEM_BANKS], word[SMEM_WARP][SMEM_BANKS];
    course_plot p;
    int rc = course_plot_begin(&p, "bankcalc", "--plot"), row0 = 0,
        groups = SMEM_WARP / r->group_lanes;
    if (rc) return rc;
    for (int g = 0; g < groups; ++g) {
        int used[SMEM_BANKS] = {0};
        for (int lane = g * r->group_lanes; lane < (g + 1) * r->group_lanes; ++lane) {
            if (!(a->mask >> lane & 1u)) continue;
            for (unsigned w = a->offset[lane] / SMEM_BANK_BYTES;
                 w * SMEM_BANK_BYTES < a->offset[lane] + a->width; ++w) {
                unsigned bank = w % SMEM_BANKS;
                int k = 0;
                while (k < used[bank] && word[row0 + k][bank] != w) ++k;
                if (k == used[bank]) {
                    word[row0 + k][bank] = w;
                    lanes[row0 + k][bank] = 0;
                    ++used[bank];
                }
                lanes[row0 + k][bank] |= 1u << lane;
            }
        }
        for (int bank = 0; bank < SMEM_BANKS; ++bank)
            for (int k = 0; k < used[bank]; ++k) {
                fprintf(p.data, "%d %d %d ", bank, row0 + k + 1, g + 1);
                print_lanes(p.data, lanes[row0 + k][bank]);
                fprintf(p.data, "\n");
            }
        row0 += r->group_wavefronts[g];
    }
    FILE* gp = course_plot_script(&p, png, 1200, 200 + 26 * (row0 > 4 ? row0 : 4));
    if (gp) {
        fprintf(gp, "set title ");
        course_plot_string(gp, command);
        fprintf(gp, ".\"\\n\".");
        course_plot_string(gp, what);
        fprintf(gp, ".\"\\nwavefronts: %d ideal: %d excess: %d", r->wavefronts, r->ideal,
                r->excess);
        if (groups > 1) fprintf(gp, " (served %d lanes at a time, a colour each)", r->group_lanes);
        fprintf(gp,
                "\"\n"
                "set xlabel 'bank'\nset ylabel 'wavefront'\nunset key\n"
                "set xrange [-0.5:31.5]\nset yrange [%d.5:0.5]\nset xtics 0,1,31\n"
                "set ytics 1,1\nset grid front\nset style fill solid 0.4 border\n",
                row0);
        for (int g = 0, y = 0; g + 1 < groups; ++g)
            if ((y += r->group_wavefronts[g]) < row0)
                fprintf(gp, "set arrow from -0.5,%d.5 to 31.5,%d.5 nohead lw 2\n", y, y);
        fprintf(gp, "plot DATA using 1:2:(0.5):(0.5):3 with boxxyerror lc variable, \\\n"
                    "     DATA using 1:2:4 with labels font ',8'\n");
    }
    return course_plot_end(&p);
}

int main(int argc, char** argv) {
    static const char* const flags[] = {"--width", "--op",       "--mask",  "--stride",
                                        "--base",  "--matrices", "--trans", "--plot"};
    enum { WIDTH, OP, MASK, STRIDE, BASE, MATRICES, TRANS, PLOT, NFLAGS };
    unsigned long long width = 4, mask = 0xffffffffu, stride = 0, base = 0, matrices = 4;
    unsigned long long offset[SMEM_WARP]; /* 64-bit: a far offset must not wrap to a near one */
    smem_op op = SMEM_LOAD;
    const char* png = NULL;
    char command[160] = "bankcalc"; /* for the picture's title: the command without --plot */
    unsigned seen = 0;
    int help = 0, n = 0;
    /* Every argument is read before --help is honoured: a bad one wins, as in the chapters. */
    for (int i = 1; i < argc; ++i) {
        const char* f = argv[i];
        if (!strcmp(f, "--help") || !strcmp(f, "-h")) {
            help = 1;
            continue;
        }
        if (f[0] == '-' && f[1] == '-') {
            int k = 0;
            while (k < NFLAGS && strcmp(f, flags[k])) ++k;
            if (k == NFLAGS) return fail("unknown flag '%s'", f);
            if (seen >> k & 1u) return fail("%s given twice", f);
            seen |= 1u << k;
            if (k == TRANS) continue; /* the one flag without a value */
            const char* v = i + 1 < argc ? argv[++i] : NULL;
            if (!v) return fail("%s needs a value", f);
            if (k == PLOT) {
                const char* why = course_unwritable(v);
                if (why) return fail("--plot %s: the file %s", v, why);
                png = v;
                continue;
            }
            if (k == WIDTH) {
                if (course_parse_unsigned(v, 10, 16, &width) || (width & (width - 1)) || !width)
                    return fail("width must be 1, 2, 4, 8 or 16, got '%s'", v);
            } else if (k == OP) {
                static const char* const ops[] = {"load", "store", "ldmatrix", "stmatrix"};
                int o = 0;
                while (o < 4 && strcmp(v, ops[o])) ++o;
                if (o == 4)
                    return fail("op must be load, store, ldmatrix or stmatrix, got '%s'", v);
                op = (smem_op)o; /* SMEM_LOAD, SMEM_STORE, SMEM_LDMATRIX, SMEM_STMATRIX */
            } else if (k == MATRICES) {
                if (course_parse_unsigned(v, 10, 4, &matrices) || matrices == 0 || matrices == 3)
                    return fail("matrices must be 1, 2 or 4, got '%s'", v);
            } else if (k == MASK) {
                if (course_parse_unsigned(v, 16, 0xffffffffu, &mask) || !mask)
                    return fail("mask must be a non-zero hex number of at most 32 bits, got '%s'",
                                v);
            } else if (course_parse_unsigned(v, 10, 0xffffffffu, k == STRIDE ? &stride : &base))
                return fail("%s must be a whole number below 2^32, got '%s'",
                            k == STRIDE ? "stride" : "base", v);
            continue;
        }
        if (n == SMEM_WARP) return fail("more than 32 offsets (at '%s')", f);
        if (course_parse_unsigned(f, 10, ~0ull, &offset[n]))
            return fail("not a byte offset: '%s'", f);
        ++n;
    }
    if (help) {
        printf("%s", usage);
        return EXIT_OK;
    }
    const int matrix = smem_is_matrix_op(op), have_stride = seen >> STRIDE & 1u;
    if (matrix) {
        if ((seen >> WIDTH & 1u) && width != 16)
            return fail("ldmatrix and stmatrix move 16-byte rows (no --width %llu)", width);
        if (seen >> MASK & 1u) return fail("--mask is --matrices' with ldmatrix and stmatrix");
        width = 16;
        mask = matrices == 4 ? 0xffffffffu : (1u << 8 * matrices) - 1;
    } else if (seen >> (MATRICES)&1u || seen >> TRANS & 1u) {
        return fail("--matrices and --trans go with --op ldmatrix or stmatrix");
    }
    const int want = matrix ? 8 * (int)matrices : SMEM_WARP;
    if (have_stride && n) return fail("give either --stride or the offsets, not both");
    if ((seen >> BASE & 1u) && !have_stride) return fail("--base goes with --stride");
    if (!have_stride && n != want)
        return fail(matrix ? "need %d row offsets, 8 per matrix; got %d"
                           : "need %d offsets, one per lane; got %d",
                    want, n);

    smem_access a;
    memset(&a, 0, sizeof a);
    a.width = (unsigned)width;
    a.op = op;
    a.mask = (unsigned)mask;
    for (int lane = 0; lane < SMEM_WARP; ++lane) {
        if (!(a.mask >> lane & 1u)) continue;
        /* Below 2^32 each, so base + 31 * stride * 16 fits in 64 bits. */
        unsigned long long off =
            have_stride ? base + (unsigned long long)lane * stride * width : offset[lane];
        if (off > BLOCK_SMEM_BYTES - width)
            return fail("lane %d's offset %llu + width %llu is past the %d bytes (227 KiB) of "
                        "shared memory a block can address on sm_90",
                        lane, off, width, BLOCK_SMEM_BYTES);
        a.offset[lane] = (unsigned)off;
    }
    const char* invalid = smem_invalid(&a);
    if (invalid) return fail("%s", invalid);

    smem_report r;
    smem_analyze(&a, &r);
    char what[96];
    if (matrix)
        snprintf(what, sizeof what,
                 "%s.x%llu%s: 16-byte rows from lanes %08x (rule 4: a matrix at a time)",
                 op == SMEM_LDMATRIX ? "ldmatrix" : "stmatrix", matrices,
                 seen >> TRANS & 1u ? ".trans" : "", a.mask);
    else
        snprintf(what, sizeof what, "%u-byte %s, active lanes %08x", a.width,
                 a.op == SMEM_LOAD ? "load" : "store", a.mask);
    printf("%s\n", what);
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
        print_lanes(stdout, r.lanes_in_bank[bank]);
        printf("\n");
    }
    int groups = matrix ? (int)matrices : SMEM_WARP / r.group_lanes;
    if (matrix) {
        printf("served a matrix at a time, wavefronts per matrix:");
        for (int g = 0; g < groups; ++g) printf(" %d", r.group_wavefronts[g]);
        printf("\n");
    } else if (groups > 1) {
        printf("served in %d groups of %d lanes, wavefronts per group:", groups, r.group_lanes);
        for (int g = 0; g < groups; ++g) printf(" %d", r.group_wavefronts[g]);
        printf("\n");
    }
    printf("wavefronts: %d ideal: %d excess: %d\n", r.wavefronts, r.ideal, r.excess);
    if (!png) return EXIT_OK;
    for (int i = 1; i < argc; ++i) {
        size_t used = strlen(command);
        if (!strcmp(argv[i], "--plot"))
            ++i;
        else if (used + strlen(argv[i]) + 5 < sizeof command)
            snprintf(command + used, sizeof command - used, " %s", argv[i]);
        else {
            snprintf(command + used, sizeof command - used, " ...");
            break;
        }
    }
    return plot_banks(png, command, what, &a, &r);
}
