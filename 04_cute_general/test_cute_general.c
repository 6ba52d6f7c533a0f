/* Chapter 04 exercise test: the Swizzle<B,M,S> that exercise_choose_swizzle picks for tiles of
 * 1- to 16-byte elements, vectors of up to 16 bytes and rows of 1 to 512 groups, held to its
 * properties (bijection, contiguous groups, conflict-free column and row reads in the calibrated
 * model), not to one fixed answer; the same for exercise_ldmatrix_layout on int8, half and tf32
 * tiles of 16- to 1024-byte rows read by ldmatrix.x4, written by the kernel (any swizzle) or by
 * the TMA (its modes, the widest box they allow); and bad input gives -1. Part 3:
 * exercise_wgmma_descriptor's fields against the model's (--cpu), and (--gpu, on an sm_90 GPU)
 * wgmma's product through its descriptors on tiles the TMA wrote in each mode (wgmma_tile.h). */
#include "cute_general.h"
#include "wgmma_tile.h"
#include "host/device.h"
#include "host/test_util.h"
#include "model/layout.h"
#include "model/swizzle_tile.h"
#include "model/wgmma_desc.h"

enum { ROWS = 64 };

/* The worst excess over the ideal of any column or row read of vec-element groups; 99 if a
 * group is misaligned. */
static int worst_excess(const swizzle_tile* t, int along_column) {
    int ideal, worst = swizzle_tile_worst(t, along_column, &ideal);
    return worst < 0 ? 99 : worst - ideal;
}

/* The TMA's modes on a box of elem_bytes-byte elements: none (B = 0), or Swizzle<B,4,3> on bytes
 * (B = 1, 2, 3: 32B, 64B, 128B), which is Swizzle<B, 4 - log2(elem_bytes), 3> on elements, for a
 * box row of at most 2^B * 16 bytes. Why a swizzle is not one, or NULL. */
static const char* not_a_tma_mode(int elem_bytes, int box_bytes, int b, int m, int s) {
    if (b == 0) return NULL; /* no swizzle: any M, S */
    if (b > 3 || s != 3 || (1 << m) * elem_bytes != 16) return "is none of the TMA's modes";
    return box_bytes > (16 << b) ? "is a TMA mode for narrower boxes" : NULL;
}

/* Part 2: tiles of int8, half and tf32 with rows of 16 to 1024 bytes, every ldmatrix.x4 over a
 * box of them (A from a K-major tile; B from [k][n] through .trans reads the same rows), the
 * kernel or the TMA writing it. */
static void ldmatrix_part(void) {
    int tiles = 0, wrong = 0;
    for (int tma = 0; tma <= 1; ++tma)
        for (int e = 1; e <= 4; e *= 2)
            for (int n = 16 / e; n * e <= 1024; n *= 2) {
                int box = -1;
                swizzle_tile t = {(unsigned)e, 16u / (unsigned)e, 0, ROWS, -1, -1, -1};
                int rc = exercise_ldmatrix_layout(e, n, tma, &box, &t.b, &t.m, &t.s);
                /* The widest box: the whole row, or for the TMA at most 128 bytes. */
                const int widest = tma && n * e > 128 ? 128 / e : n;
                const char* invalid = rc              ? "returned -1"
                                      : box != widest ? "has not the widest box"
                                                      : layout_swizzle_invalid(t.b, t.m, t.s);
                if (!invalid && tma) invalid = not_a_tma_mode(e, box * e, t.b, t.m, t.s);
                t.row_elems = box > 0 ? (unsigned)box : 1u;
                int bijective = !invalid && swizzle_tile_bijective(&t);
                int contiguous = bijective && swizzle_tile_units_contiguous(&t);
                int ideal = 0, worst = contiguous ? swizzle_tile_worst_ldmatrix(&t, &ideal) : -1;
                int ok = contiguous && worst == ideal;
                EXPECT(ok,
                       "ldmatrix, %s, %d-byte elements, rows of %d (%d bytes): box of %d, "
                       "Swizzle<%d,%d,%d> %s, worst ldmatrix.x4 %d wavefronts (ideal 4)",
                       tma ? "the TMA writing" : "the kernel writing", e, n, n * e, box, t.b, t.m,
                       t.s,
                       invalid       ? invalid
                       : !bijective  ? "is not a bijection on the box"
                       : !contiguous ? "splits a 16-byte row"
                                     : "keeps its rows",
                       worst);
                ++tiles;
                wrong += !ok;
            }
    static const int bad[][3] = {{8, 64, 0}, {3, 64, 0}, {0, 64, 1}, {2, 4, 0},  {2, 48, 1},
                                 {1, 0, 0},  {4, 2, 1},  {2, 64, 2}, {2, 64, -1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        int box = 7, b = 7, m = 7, s = 7;
        EXPECT(exercise_ldmatrix_layout(bad[i][0], bad[i][1], bad[i][2], &box, &b, &m, &s) == -1 &&
                   box == 7 && b == 7 && m == 7 && s == 7,
               "ldmatrix (%d, %d, tma %d) must give -1 and store nothing", bad[i][0], bad[i][1],
               bad[i][2]);
    }
    if (wrong)
        printf("\n%d of %d ldmatrix tiles are not conflict-free under your layout. Print the\n"
               "rows of one matrix with bankcalc --op ldmatrix, and read README.md's \"ldmatrix\"\n"
               "and \"The plausible choice that fails\".\n",
               wrong, tiles);
}

/* Part 3 on the CPU: for each mode, major-ness and box depth, the descriptors of four slices of a
 * tile at three boundaries, field by field against the model (the solution's answer). */
static void descriptor_part(void) {
    /* boxes at least a slice's 64 rows (K-major) or 4 slices of 16 (MN-major) deep */
    static const unsigned rows[] = {64, 128, 256}, tiles[] = {0, 2048, 16384};
    int cases = 0, wrong = 0;
    for (int mode = 0; mode < 4; ++mode)
        for (int k_major = 0; k_major < 2; ++k_major)
            for (int r = 0; r < 3; ++r)
                for (int t = 0; t < 3; ++t)
                    for (unsigned sl = 0; sl < 4; ++sl) {
                        const wgmma_mode m = (wgmma_mode)mode;
                        const unsigned span = wgmma_span(m);
                        const unsigned start =
                            tiles[t] + (k_major ? 32 * sl / span * (rows[r] * span) + 32 * sl % span
                                                : 16 * sl * span);
                        unsigned lbo, sbo;
                        wgmma_tma_strides(m, k_major, rows[r], &lbo, &sbo);
                        const wgmma_fields want =
                            wgmma_desc_fields(wgmma_desc(m, start, start & ~1023u, lbo, sbo));
                        const unsigned long long d =
                            exercise_wgmma_descriptor(mode, k_major, rows[r], start);
                        const wgmma_fields got = wgmma_desc_fields(d);
                        /* K-major in a swizzled mode has no LBO (the ISA: "assumed 1") */
                        const int lbo_used = !k_major || m == WGMMA_NONE;
                        const unsigned long long unused =
                            d & ~(0x3FFFull | 0x3FFFull << 16 | 0x3FFFull << 32 | 7ull << 49 |
                                  3ull << 62);
                        const char* field = got.mode != want.mode                 ? "mode"
                                            : got.start != want.start             ? "start"
                                            : got.sbo != want.sbo                 ? "SBO"
                                            : lbo_used && got.lbo != want.lbo     ? "LBO"
                                            : got.base_offset != want.base_offset ? "base offset"
                                            : unused ? "bits that must be 0"
                                                     : 0;
                        ++cases;
                        if (field && ++wrong <= 8)
                            printf("  %s, %s-major, boxes of %u rows, slice at %u: %s is wrong "
                                   "(descriptor 0x%016llx; want start %u, LBO %u, SBO %u, mode "
                                   "%d)\n",
                                   wgmma_mode_name((wgmma_mode)mode), k_major ? "K" : "MN", rows[r],
                                   start, field, d, want.start, want.lbo, want.sbo, (int)want.mode);
                    }
    EXPECT(wrong == 0, "%d of %d wgmma descriptors have a wrong field", wrong, cases);
    if (wrong)
        printf("\nThe strides come from how the TMA lays the boxes: part2_wgmma.md, \"LBO and "
               "SBO\".\n");
}

/* Part 3 on the GPU: wgmma multiplies tiles the TMA wrote in each mode, K-major and MN-major,
 * through the exercise's descriptors (boxes 64 rows deep); the product must be exact. */
static int test_gpu(void) {
    course_device dev;
    const char* what = "the exercise's wgmma test (part 3)";
    int rc = course_device_open(&dev, 9, 0, what);
    if (rc != EXIT_OK) return rc;
    rc = wgmma_tile_open(&dev, what);
    if (rc != EXIT_OK) return rc;
    for (int mode = 0; mode < 4; ++mode)
        for (int mn = 0; mn < 2; ++mn) {
            wgmma_tile_read r = {mn, (wgmma_mode)mode, 0, {{0}}};
            for (int sl = 0; sl < 4; ++sl)
                for (int op = 0; op < 2; ++op)
                    r.desc[sl][op] = exercise_wgmma_descriptor(
                        mode, !mn, 64, wgmma_tile_slice_start(mn, (wgmma_mode)mode, op, sl));
            const int off = wgmma_tile_elements_off(&r);
            EXPECT(off == 0, "%s, %s-major: %d of 4096 elements of the product wrong",
                   wgmma_mode_name((wgmma_mode)mode), mn ? "MN" : "K", off);
        }
    wgmma_tile_close();
    return EXIT_OK;
}

static void test_cpu(void) {
    int tiles = 0, wrong = 0;
    for (int e = 1; e <= 16; e *= 2)
        for (int v = 1; v * e <= 16; v *= 2)
            for (int n = v; n <= 512 * v && n * e <= 8192; n *= 2) {
                swizzle_tile t = {(unsigned)e, (unsigned)v, (unsigned)n, ROWS, -1, -1, -1};
                int rc = exercise_choose_swizzle(e, v, n, &t.b, &t.m, &t.s);
                const char* invalid = rc ? "returned -1" : layout_swizzle_invalid(t.b, t.m, t.s);
                int bijective = !invalid && swizzle_tile_bijective(&t);
                int contiguous = bijective && swizzle_tile_units_contiguous(&t);
                int ok = bijective && contiguous;
                int col = ok ? worst_excess(&t, 1) : -1, row = ok ? worst_excess(&t, 0) : -1;
                EXPECT(ok && col == 0 && row == 0,
                       "%d-byte elements, groups of %d, rows of %d: Swizzle<%d,%d,%d> %s, column "
                       "reads %d and row reads %d wavefronts over the ideal",
                       e, v, n, t.b, t.m, t.s,
                       invalid       ? invalid
                       : !bijective  ? "is not a bijection on the tile"
                       : !contiguous ? "splits a group"
                                     : "keeps its groups",
                       col, row);
                ++tiles;
                wrong += !(ok && col == 0 && row == 0);
            }
    static const int bad[][3] = {{3, 1, 32}, {4, 8, 32}, {32, 1, 32}, {4, 3, 32},
                                 {4, 4, 2},  {4, 1, 24}, {0, 1, 32},  {4, 1, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        int b = 7, m = 7, s = 7;
        EXPECT(exercise_choose_swizzle(bad[i][0], bad[i][1], bad[i][2], &b, &m, &s) == -1 &&
                   b == 7 && m == 7 && s == 7,
               "(%d, %d, %d) must give -1 and store nothing", bad[i][0], bad[i][1], bad[i][2]);
    }
    if (wrong)
        printf("\n%d of %d tiles are not conflict-free under your swizzle. Draw one with\n"
               "  ./build/bin/swizzlecalc B M S --elem-bytes E --row-elems N\n"
               "and work through README.md's \"How to choose B, M, S\".\n",
               wrong, tiles);
    ldmatrix_part();
    descriptor_part();
}

int main(int argc, char** argv) {
    return test_main_cpu_gpu(argc, argv, "test_cute_general", test_cpu, test_gpu);
}
