/* Chapter 04: CuTe's general Swizzle<B,M,S>.
 *
 * Chapter 03's col ^ row and its fix for 16-word rows are two points of one family: keep the low
 * M bits of an element offset, XOR the B bits that start at bit M + S into the B bits that start
 * at bit M (layout_swizzle in common/model/layout.h, proven equal to cute::Swizzle by
 * test_against_cute and to the Hopper TMA's swizzle modes by test_tma_swizzle). The lesson:
 * worked cases with the model's wavefronts, what a bad B, M or S costs; then on the GPU each
 * worked case's tile through the shared tile kernel (common/tile/tile_transpose.cuh) three ways:
 * plain, padded by one access, and swizzled, with 4-, 8- and 16-byte accesses.
 *
 * File layout: tiles and variants, lesson tables, summary, main. */
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/picture.h"
#include "model/layout.h"
#include "model/smem_model.h"
#include "model/swizzle_tile.h"
#include "tile/tile_main.h"
#include "tile/tile_model.h"
#include "tile/tile_transpose.cuh"

#include <stdio.h>
#include <string.h>

static int draw_pictures(const char* dir);

static const course_cli CLI = {
    "04_cute_general",
    "CuTe's Swizzle<B,M,S>: worked cases from int[32][128] to the TMA's 128-byte mode, each\n"
    "tile plain, padded and swizzled, with 4-, 8- and 16-byte accesses.",
    "column-read loop iterations per thread",
    4000,
    15,
    1000000,
    0, /* no --shape */
    0,
    0,                /* --size from 1 */
    {TILE_BANK_MAPS}, /* the bank maps beside --csv */
    {},               /* no parts */
    draw_pictures};

/* ---------------------------------------------------------------- tiles and variants */

enum { PLAIN, PADDED, SWIZZLED };

/* A ROWS x COLS tile of accesses (units) of UNIT elements each, stored plain, with rows padded
 * by one unit, or swizzled: Swizzle<B,M,S> on the element offset, whose low M bits (the unit)
 * it keeps, so the unit's slot is the swizzled offset / UNIT. */
template <unsigned ROWS_, unsigned COLS_, unsigned UNIT, int B, int M, int S, int KIND>
struct case_tile {
    static constexpr unsigned ROWS = ROWS_, COLS = COLS_;
    constexpr __host__ __device__ unsigned operator()(unsigned r, unsigned c) const {
        return KIND == PLAIN    ? r * COLS + c
               : KIND == PADDED ? r * (COLS + 1) + c
                                : Swizzle<B, M, S>()((r * COLS + c) * UNIT) / UNIT;
    }
};

/* Kernel N of a worked case: its tile in one of the three layouts, measured against the plain
 * one. */
#define CASE_VARIANT(T, NAME, N, KIND, SUFFIX, LAYOUT, ROWS, COLS, UNIT, B, M, S)                  \
    {                                                                                              \
        .v = {.name = NAME SUFFIX, .number = N, .description = LAYOUT}, .against = NAME "_plain",  \
        .tile = tile_kernel_of<T, case_tile<ROWS, COLS, UNIT, B, M, S, KIND>>()                    \
    }

/* The three twins of a worked case, kernels FIRST to FIRST + 2: NAME_plain (the baseline),
 * NAME_pad, NAME_swz. */
#define CASE_VARIANTS(T, NAME, FIRST, ROWS, COLS, UNIT, B, M, S, TILE)                             \
    CASE_VARIANT(T, NAME, FIRST, PLAIN, "_plain", TILE " plain", ROWS, COLS, UNIT, B, M, S),       \
        CASE_VARIANT(T, NAME, FIRST + 1, PADDED, "_pad", TILE " padded", ROWS, COLS, UNIT, B, M,   \
                     S),                                                                           \
        CASE_VARIANT(T, NAME, FIRST + 2, SWIZZLED, "_swz",                                         \
                     TILE " Swizzle<" #B " " #M " " #S ">", /* no commas: a CSV field */           \
                     ROWS, COLS, UNIT, B, M, S)

/* A worked case for the lesson: the tile in elements, the access unit, the swizzle. */
typedef struct {
    const char* name;
    const char* tile; /* as C declares it */
    unsigned elem_bytes, unit_elems, row_elems, rows;
    int b, m, s;
    const char* why;
} worked_case;

static const worked_case CASES[] = {
    {"float_32", "float[32][32]", 4, 1, 32, 32, 5, 0, 5, "chapter 03's c ^ r"},
    {"int_128", "int[32][128]", 4, 1, 128, 32, 5, 0, 7, "row bits start at bit 7"},
    {"int_8", "int[32][8]", 4, 1, 8, 32, 3, 0, 5, "4 rows share a line: skip r1 r0"},
    {"char_128", "char[64][128], 4 at a time", 1, 4, 128, 64, 5, 2, 5, "a unit of 4 chars"},
    {"float2_32", "float2[32][32]", 8, 1, 32, 32, 4, 0, 5, "16 units fill a line"},
    {"float4_64", "float4[32][64]", 16, 1, 64, 32, 3, 0, 6, "8 units fill a line"},
    {"tma128", "bytes[32][128], 16 at a time", 1, 16, 128, 32, 3, 4, 3, "TMA 128B mode"},
    {"tma64", "bytes[64][64], 16 at a time", 1, 16, 64, 64, 2, 4, 3, "TMA 64B mode"},
    {"tma32", "bytes[128][32], 16 at a time", 1, 16, 32, 128, 1, 4, 3, "TMA 32B mode"},
    {"half_ldm", "half[32][64], 8 at a time", 2, 8, 64, 32, 3, 3, 3, "ldmatrix rows, Ampere"}};
enum { N_CASES = sizeof CASES / sizeof CASES[0] };

/* The lesson's kernels, by number (README.md, "Kernels"): the same cases as CASES, in units (the
 * kernel moves one unit per access). */
static tile_variant VARIANTS[] = {
    CASE_VARIANTS(unsigned, "float_32", 1, 32, 32, 1, 5, 0, 5, "float[32][32]"),
    CASE_VARIANTS(unsigned, "int_128", 4, 32, 128, 1, 5, 0, 7, "int[32][128]"),
    CASE_VARIANTS(unsigned, "int_8", 7, 32, 8, 1, 3, 0, 5, "int[32][8]"),
    CASE_VARIANTS(unsigned, "char_128", 10, 64, 32, 4, 5, 2, 5, "char[64][128]"),
    CASE_VARIANTS(uint2, "float2_32", 13, 32, 32, 1, 4, 0, 5, "float2[32][32]"),
    CASE_VARIANTS(uint4, "float4_64", 16, 32, 64, 1, 3, 0, 6, "float4[32][64]"),
    CASE_VARIANTS(uint4, "tma128", 19, 32, 8, 16, 3, 4, 3, "bytes[32][128]"),
    CASE_VARIANTS(uint4, "tma64", 22, 64, 4, 16, 2, 4, 3, "bytes[64][64]"),
    CASE_VARIANTS(uint4, "tma32", 25, 128, 2, 16, 1, 4, 3, "bytes[128][32]"),
    CASE_VARIANTS(uint4, "half_ldm", 28, 32, 8, 8, 3, 3, 3, "half[32][64]")};
enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

/* The lesson's claim, held on every run (and by the .list test): each swizzle makes its column
 * reads and row stores ideal, and its plain twin's column reads are not. */
static void check_swizzle_claims(const tile_variant* all, int n_all) {
    for (int i = 0; i < n_all; ++i) {
        const tile_variant* x = &all[i];
        const tile_model* m = &x->model;
        int swizzled = strstr(x->v.name, "_swz") != NULL, plain = !strcmp(x->against, x->v.name);
        if (swizzled && (m->ld != m->ld_ideal || m->st != m->st_ideal))
            die("%s: %d column, %d row wavefronts, ideal %d and %d", x->v.name, m->ld, m->st,
                m->ld_ideal, m->st_ideal);
        if (plain && m->ld == m->ld_ideal) die("%s is conflict-free without a swizzle", x->v.name);
    }
}

/* ---------------------------------------------------------------- lesson tables */

static swizzle_tile tile_of(const worked_case* c, int b, int m, int s) {
    swizzle_tile t = {c->elem_bytes, c->unit_elems, c->row_elems, c->rows, b, m, s};
    return t;
}

static void print_from_xor(void) {
    printf("Chapter 03 stored (r, c) of a 32x32 word tile at r * 32 + (c ^ r). Write the offset\n"
           "o = r * 32 + c in bits: r4..r0 c4..c0. c ^ r XORs bits 9..5 into bits 4..0:\n"
           "  Swizzle<5,0,5>(o) = o ^ ((o >> 5) & 31)     bits YYYYYZZZZZ\n"
           "The 16-word fix c ^ (r / 2 %% 16): o = r * 16 + c = r4..r1 r0 c3..c0; XOR bits 8..5\n"
           "(r4..r1) into bits 3..0: Swizzle<4,0,5>. In general Swizzle<B,M,S> keeps the low M\n"
           "bits (a unit of 2^M elements moves as one) and XORs the B bits at bit M + S into the\n"
           "B bits at bit M. Checked here on the first rows:");
    int same = 1;
    for (unsigned r = 0; r < 32; ++r)
        for (unsigned c = 0; c < 32; ++c) {
            same &= layout_swizzle(r * 32 + c, 5, 0, 5) == layout_xor(r, c, 32);
            if (c < 16) same &= layout_swizzle(r * 16 + c, 4, 0, 5) == layout_xor_narrow(r, c, 16);
        }
    printf(" %s.\n", same ? "equal at every (r, c)" : "NOT EQUAL");
}

static void print_cases(void) {
    printf(
        "\nWorked cases (model, worst over every column read, lane = row; and every row read):\n");
    printf("%-30s %-15s %-12s %6s %12s %12s %9s\n", "tile", "swizzle", "bits", "access",
           "column plain", "column swz", "row swz");
    for (int i = 0; i < N_CASES; ++i) {
        const worked_case* c = &CASES[i];
        swizzle_tile plain = tile_of(c, 0, 0, 0), swz = tile_of(c, c->b, c->m, c->s);
        int ideal, row_ideal, p = swizzle_tile_worst(&plain, 1, &ideal);
        int s = swizzle_tile_worst(&swz, 1, &ideal), row = swizzle_tile_worst(&swz, 0, &row_ideal);
        char bits[40], sw[24];
        swizzle_bit_picture(c->b, c->m, c->s, bits, sizeof bits);
        snprintf(sw, sizeof sw, "<%d,%d,%d>", c->b, c->m, c->s);
        printf("%-30s %-15s %-12s %4u B %6d (%2d) %6d (%2d) %5d (%d)  %s\n", c->tile, sw, bits,
               c->elem_bytes * c->unit_elems, p, ideal, s, ideal, row, row_ideal, c->why);
    }
    printf("Every swizzled tile is exactly its own size and, under the model, reads its columns\n"
           "and rows at the ideal; the plain tiles read columns up to 32 times slower.\n");
}

/* What a wrong B, M or S costs: a bijection still, but not conflict-free, or units torn. */
static void print_bad_choices(void) {
    static const struct {
        int c, b, m, s;
        const char* what;
    } tries[] = {{1, 5, 0, 7, "right"},
                 {1, 5, 0, 5, "S too small: bits 9..5 hold 3 row bits, 8 values"},
                 {1, 3, 0, 7, "B too small: only 8 bank positions per column"},
                 {1, 5, 0, 9, "S too large: rows 0..3 share their XOR bits"},
                 {3, 5, 2, 5, "right"},
                 {3, 5, 0, 5, "M too small: tears the 4-char units apart"},
                 {5, 3, 0, 6, "right"},
                 {5, 2, 0, 6, "B too small: quarter-warps 2-way"}};
    printf("\nChoosing badly (worst column read, wavefronts):\n");
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; ++i) {
        const worked_case* c = &CASES[tries[i].c];
        swizzle_tile t = tile_of(c, tries[i].b, tries[i].m, tries[i].s);
        int ideal, wf = swizzle_tile_worst(&t, 1, &ideal);
        char verdict[64];
        if (!swizzle_tile_units_contiguous(&t))
            snprintf(verdict, sizeof verdict, "no single access reads a unit");
        else
            snprintf(verdict, sizeof verdict, "%d wavefronts (ideal %d)", wf, ideal);
        printf("  %-30s Swizzle<%d,%d,%d>: %-31s %s\n", c->tile, tries[i].b, tries[i].m, tries[i].s,
               verdict, tries[i].what);
    }
}

/* ldmatrix (rule 4): each 8x8 matrix is 8 lanes' 16-byte rows, served alone, as a quarter-warp
 * of 16-byte loads is. An x4 of mma's A operand (K-major [m][k]) gives rows m0..m0+15 at two
 * unit columns; B stored [k][n] through .x4.trans gives the same kind of rows. So a matrix is 8
 * consecutive tile rows at one 16-byte column: the column read of chapter 04's 16-byte cases.
 * Half tiles (Swizzle<B,3,S> on halves = Swizzle<B,4,S> on bytes), 64 rows. */
static const struct {
    unsigned row_elems;
    int b, s; /* the right choice, M = 3 */
} LDM_TILES[] = {{32, 2, 3}, {64, 3, 3}, {128, 3, 4}};
static const struct { int b, s; } LDM_TRIES[] = {{1, 3}, {2, 3}, {3, 3}, {3, 4}};
enum { LDM_ROWS = 64, LDM_PAD = 8, N_LDM_TILES = 3, N_LDM_TRIES = 4 };

/* A half tile of LDM_ROWS rows of row_elems (+ pad) halves, read 8 halves (16 bytes) at a time,
 * under Swizzle<b,3,s> (b = 0: plain). */
static swizzle_tile ldmatrix_tile(unsigned row_elems, unsigned pad, int b, int s) {
    swizzle_tile t = {2, 8, row_elems + pad, LDM_ROWS, b, b ? 3 : 0, b ? s : 0};
    return t;
}

/* The model's worst ldmatrix.x4 over a half tile of row_elems (+ pad) halves a row. */
static int ldmatrix_worst(unsigned row_elems, unsigned pad, int b, int s) {
    swizzle_tile t = ldmatrix_tile(row_elems, pad, b, s);
    int ideal, wf = swizzle_tile_worst_ldmatrix(&t, &ideal);
    if (wf < 0 || ideal != 4) die("ldmatrix on half[%d][%u]: no model", LDM_ROWS, row_elems);
    return wf;
}

/* The lesson's claims, held on every run (and by the .list test): each right choice is ideal,
 * and Swizzle<3,3,3>, the 128-byte pattern, is not on 256-byte rows. */
static void check_ldmatrix_claims(void) {
    for (int i = 0; i < N_LDM_TILES; ++i)
        if (ldmatrix_worst(LDM_TILES[i].row_elems, 0, LDM_TILES[i].b, LDM_TILES[i].s) != 4)
            die("ldmatrix: half[%d][%u] under its swizzle is not conflict-free", LDM_ROWS,
                LDM_TILES[i].row_elems);
    if (ldmatrix_worst(128, 0, 3, 3) == 4) die("ldmatrix: <3,3,3> on 256-byte rows is ideal");
}

static void print_ldmatrix(void) {
    printf("\nldmatrix.x4 (mma's A operand from a K-major [m][k] half tile; B from [k][n] through\n"
           ".x4.trans gives the same rows), wavefronts by the model, worst over a %d-row tile\n"
           "(ideal 4). Swizzle<B,3,S> on halves is Swizzle<B,4,S> on bytes:\n",
           LDM_ROWS);
    printf("%-15s %6s %9s", "tile", "plain", "pad 8");
    for (int j = 0; j < N_LDM_TRIES; ++j) printf("   <%d,3,%d>", LDM_TRIES[j].b, LDM_TRIES[j].s);
    printf("   right\n");
    for (int i = 0; i < N_LDM_TILES; ++i) {
        char tile[24];
        snprintf(tile, sizeof tile, "half[%d][%u]", LDM_ROWS, LDM_TILES[i].row_elems);
        printf("%-15s %6d %9d", tile, ldmatrix_worst(LDM_TILES[i].row_elems, 0, 0, 0),
               ldmatrix_worst(LDM_TILES[i].row_elems, LDM_PAD, 0, 0));
        for (int j = 0; j < N_LDM_TRIES; ++j)
            printf(" %9d",
                   ldmatrix_worst(LDM_TILES[i].row_elems, 0, LDM_TRIES[j].b, LDM_TRIES[j].s));
        printf("   <%d,3,%d>\n", LDM_TILES[i].b, LDM_TILES[i].s);
    }
    printf("A matrix is 8 consecutive rows at one 16-byte column: a 16-byte column read. B = 3\n"
           "when a row holds 8 or more units, S where the row bits start (3 at 128 bytes a row,\n"
           "4 at 256). <3,3,3>, right for 128-byte rows, is 2-way on 256-byte rows. The H200\n"
           "measured these rows (common/calibration/h200_matrix.csv, rows h*_A_x4_k0).\n");
}

static void lesson(const tile_variant* all, int n_all) {
    print_from_xor();
    print_cases();
    print_bad_choices();
    print_ldmatrix();
    tile_model_table(all, n_all);
}

/* ---------------------------------------------------------------- summary */

static void print_summary(const course_device* dev, const tile_variant* r, int n) {
    course_summary_header(dev, CLI.program);
    printf("| tile | swizzled: column read vs plain | model | padded | extra bytes of padding "
           "|\n| --- | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < N_CASES; ++i) {
        char name[32];
        snprintf(name, sizeof name, "%s_swz", CASES[i].name);
        const tile_variant* s = tile_find(r, n, name);
        snprintf(name, sizeof name, "%s_pad", CASES[i].name);
        const tile_variant* p = tile_find(r, n, name);
        if (!s || !p) continue;
        printf("| %s | %.1fx faster | %.0fx | %.1fx | %u |\n", CASES[i].tile, s->speedup,
               s->model_speedup, p->speedup,
               p->tile.slots * p->tile.elem_bytes - s->tile.slots * s->tile.elem_bytes);
    }
}

/* ---------------------------------------------------------------- pictures */

/* One ldmatrix.x4 at (0, 0) of a half tile (README, "ldmatrix"), from the model's own access
 * (swizzle_tile_ldmatrix_access: the rows swizzle_tile_worst_ldmatrix judges): each lane's
 * 16-byte row at its four banks, coloured by its matrix, and beside each matrix the wavefronts
 * the model gives it. */
static int draw_ldmatrix(const char* dir, const char* name, unsigned row_elems, int b, int s,
                         const char* why) {
    enum { NOTE = 8 }; /* the width of the column of notes, right of the banks */
    const swizzle_tile t = ldmatrix_tile(row_elems, 0, b, s);
    const smem_access a = swizzle_tile_ldmatrix_access(&t, 0, 0);
    smem_report rep;
    if (smem_analyze(&a, &rep) || rep.group_lanes != 8) {
        fprintf(stderr, "%s: no model for the access\n", name);
        return EXIT_CHECK_FAILED;
    }
    course_cell cells[SMEM_WARP + 2 * (SMEM_WARP / 8)];
    size_t n = 0;
    for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
        unsigned r, u;
        swizzle_tile_ldmatrix_row(&t, 0, 0, lane, &r, &u);
        course_cell* c = &cells[n++];
        *c = course_cell_at(smem_bank(a.offset[lane]), lane, (int)(lane / 8 * 8),
                            "lane %u: r%u c%u", lane, r, u * t.unit_elems);
        c->w = 16 / SMEM_BANK_BYTES;
    }
    for (unsigned m = 0; m < SMEM_WARP / 8; ++m) {
        course_cell* c = &cells[n++];
        *c = course_cell_at(SMEM_BANKS, 8 * m, (int)(8 * m), "matrix %u", m);
        c->w = NOTE;
        c->h = 3;
        c = &cells[n++];
        *c = course_cell_at(SMEM_BANKS, 8 * m + 3, (int)(8 * m), "%d wavefront%s",
                            rep.group_wavefronts[m], rep.group_wavefronts[m] == 1 ? "" : "s");
        c->w = NOTE;
        c->h = 5;
    }
    char layout[24], title[160];
    if (b)
        snprintf(layout, sizeof layout, "Swizzle<%d,3,%d>", b, s);
    else
        snprintf(layout, sizeof layout, "plain");
    snprintf(title, sizeof title,
             "ldmatrix.x4 at (0, 0) of half[%d][%u] (%u-byte rows), %s: %d wavefronts (ideal "
             "%d)%s",
             LDM_ROWS, row_elems, row_elems * t.elem_bytes, layout, rep.wavefronts, rep.ideal, why);
    const course_picture pic = {
        .name = name,
        .title = title,
        .key = "a box is the 16-byte row (8 halves, tile row r, columns c..c+7) a lane gives, at "
               "its 4 banks, coloured by its matrix; a matrix's 8 lanes are served together "
               "(right: the model's wavefronts)",
        .xlabel = "bank",
        .ylabel = "lane",
        .columns = SMEM_BANKS + NOTE,
        .rows = SMEM_WARP,
        .xtics = 4,
        .ytics = 8,
        .width = 1400,
        .height = 1250};
    return course_picture_draw(dir, &pic, cells, n);
}

/* The lesson's ldmatrix tiles: 128-byte rows plain (each matrix's 8 rows in one 4-bank group)
 * and under their swizzle (over all 32 banks), and <3,3,3> on 256-byte rows (2-way). */
static int draw_pictures(const char* dir) {
    int rc = draw_ldmatrix(dir, "04_ldmatrix_plain", 64, 0, 0, "");
    rc = course_picture_join(rc, draw_ldmatrix(dir, "04_ldmatrix_swizzled", 64, 3, 3, ""));
    return course_picture_join(
        rc, draw_ldmatrix(dir, "04_ldmatrix_333_256B", 128, 3, 3, ", 2-way: S too small"));
}

/* ---------------------------------------------------------------- main */

/* The bank of every unit, plain beside swizzled, for plot.gp's pictures. */
static void bank_maps(FILE* f, const tile_variant* all, int n_all) {
    static const char* const pictures[] = {"int_8_plain",    "int_8_swz",    "float4_64_plain",
                                           "float4_64_swz",  "tma128_plain", "tma128_swz",
                                           "char_128_plain", "char_128_swz"};
    for (size_t i = 0; i < sizeof pictures / sizeof pictures[0]; ++i)
        tile_write_bank_map(f, tile_find(all, n_all, pictures[i]), pictures[i]);
}

/* The lesson's claims on the model, held on every run. */
static void claims(const tile_variant* all, int n_all) {
    check_swizzle_claims(all, n_all);
    check_ldmatrix_claims();
}

int main(int argc, char** argv) {
    const tile_chapter chapter = {.cli = &CLI,
                                  .what = "the swizzle benchmark",
                                  .claims = claims,
                                  .lesson = lesson,
                                  .bank_maps = bank_maps,
                                  .summary = print_summary};
    return tile_main(&chapter, VARIANTS, N_VARIANTS, argc, argv);
}
