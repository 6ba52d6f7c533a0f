/* Chapter 03: the XOR swizzle.
 *
 * The same 32 x 32 tile of 4-byte words as chapter 02, stored three ways through one index
 * function, layout_index(row, col, layout) (common/model/layout.h): PLAIN, PADDED (row stride 33)
 * and XOR (row * 32 + (col ^ row)). One kernel (common/tile/tile_transpose.cuh) writes it by rows
 * and reads it by columns in each layout; the outputs must be identical. Then shapes beyond 32 x
 * 32: 64 x 32, 32 x 64, a 16-word-wide tile where the textbook col ^ row still conflicts (and its
 * fix), 16-bit elements accessed in pairs, and a tile stored by float4 rows and read by float
 * columns, which padding cannot serve.
 *
 * File layout: variants, lesson tables, summary, main. */
#include "xor_swizzle.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/rng.h"
#include "model/layout.h"
#include "model/smem_model.h"
#include "tile/tile_main.h"
#include "tile/tile_model.h"
#include "host/picture.h"
#include "tile/tile_transpose.cuh"

#include <stdio.h>

static int draw_pictures(const char* dir);

static const course_cli CLI = {
    "03_xor_swizzle",
    "XOR swizzle: one 32x32 tile in the plain, padded and XOR layouts through one index\n"
    "function, then 64x32, 32x64, a 16-word-wide tile, 16-bit pairs and float4 rows.",
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

/* ---------------------------------------------------------------- variants */

template <layout_kind K>
struct tile32 {
    static constexpr unsigned ROWS = 32, COLS = 32;
    constexpr __host__ __device__ unsigned operator()(unsigned r, unsigned c) const {
        return layout_index(r, c, K);
    }
};

/* 64 rows: row r uses r % 32 for the XOR (layout_xor masks it). */
struct xor_64x32 {
    static constexpr unsigned ROWS = 64, COLS = 32;
    constexpr __host__ __device__ unsigned operator()(unsigned r, unsigned c) const {
        return layout_xor(r, c, 32);
    }
};

/* 64 columns: two 32-word halves; c ^ r (r < 32) permutes within each half. */
struct xor_32x64 {
    static constexpr unsigned ROWS = 32, COLS = 64;
    constexpr __host__ __device__ unsigned operator()(unsigned r, unsigned c) const {
        return layout_xor(r, c, 64);
    }
};

/* 16 words per row: the textbook c ^ (r % 16), and the fix that XORs with r / 2. */
struct narrow_textbook {
    static constexpr unsigned ROWS = 32, COLS = 16;
    constexpr __host__ __device__ unsigned operator()(unsigned r, unsigned c) const {
        return layout_xor(r, c, 16);
    }
};
struct narrow_fixed {
    static constexpr unsigned ROWS = 32, COLS = 16;
    constexpr __host__ __device__ unsigned operator()(unsigned r, unsigned c) const {
        return layout_xor_narrow(r, c, 16);
    }
};

/* The lesson's kernels, by number (README.md, "Kernels"), each measured against the plain tile. */
static tile_variant VARIANTS[] = {
    {.v = {.name = "plain", .number = 1, .description = "32x32 plain"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, tile32<LAYOUT_PLAIN>>()},
    {.v = {.name = "padded", .number = 2, .description = "32x32 row stride 33"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, tile32<LAYOUT_PADDED>>()},
    {.v = {.name = "xor", .number = 3, .description = "32x32 col^row"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, tile32<LAYOUT_XOR>>()},
    {.v = {.name = "xor_64x32", .number = 4, .description = "64x32 col^(row%32)"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, xor_64x32>()},
    {.v = {.name = "xor_32x64", .number = 5, .description = "32x64 col^row"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, xor_32x64>()},
    {.v = {.name = "narrow_textbook", .number = 6, .description = "32x16 col^(row%16)"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, narrow_textbook>()},
    {.v = {.name = "narrow_fixed", .number = 7, .description = "32x16 col^(row/2%16)"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, narrow_fixed>()},
    /* Rows stored as float4: each thread permutes its 4 floats (c ^ row keeps them in one
     * 16-byte chunk), and the float columns stay conflict-free. Padding cannot (ch. 02). */
    {.v = {.name = "xor_f4rows", .number = 8, .description = "float4 rows col^row"},
     .against = "plain",
     .tile = tile_kernel_of<unsigned, tile32<LAYOUT_XOR>, 4>()}};
enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

/* ---------------------------------------------------------------- lesson tables */

/* Slots of row 0 that a layout leaves empty, and slots it fills twice. */
static void count_row_slots(const unsigned* slot_of_col, int* empty, int* doubled) {
    int hits[32] = {0};
    for (int c = 0; c < 32; ++c) ++hits[slot_of_col[c]];
    *empty = *doubled = 0;
    for (int s = 0; s < 32; ++s) *empty += hits[s] == 0, *doubled += hits[s] > 1;
}

static void print_bijection(void) {
    printf("Why XOR: for a fixed row r, c -> c ^ r undoes itself ((c ^ r) ^ r = c), so it is a\n"
           "permutation of the row's 32 slots; and for a fixed column c, the 32 rows go to 32\n"
           "different slots c ^ r, hence 32 different banks. A random slot per element is not a\n"
           "permutation: ");
    unsigned xor_slot[32], random_slot[32];
    unsigned long long s = 20261130; /* a fixed draw, so the lesson's numbers stay put */
    for (int c = 0; c < 32; ++c) {
        xor_slot[c] = (unsigned)c ^ 5u;
        random_slot[c] = rng_below(&s, 32);
    }
    int empty, doubled;
    count_row_slots(random_slot, &empty, &doubled);
    printf("one draw leaves %d of row 5's slots empty and fills %d twice or more;\n", empty,
           doubled);
    count_row_slots(xor_slot, &empty, &doubled);
    printf("c ^ 5 leaves %d empty, %d doubled.\n", empty, doubled);
}

/* Lane i reads column 0 of row i in the textbook 16-wide layout: what bankcalc shows. */
static void print_narrow_conflict(void) {
    smem_access a = smem_strided(4, SMEM_LOAD, 1, 0);
    for (unsigned i = 0; i < 32; ++i) a.offset[i] = 4 * layout_xor(i, 0, 16);
    smem_report rep;
    smem_analyze(&a, &rep);
    printf("\nA 16-word-wide tile: rows r and r+1 share one 128-byte line of banks, so r %% 2 "
           "already\n"
           "picks the bank half and the textbook col ^ (row %% 16) repeats itself at row 16. "
           "Column 0,\n"
           "lane = row, bank of each lane:");
    for (unsigned i = 0; i < 32; ++i) printf(" %u", smem_bank(a.offset[i]));
    printf("\n-> %d wavefronts (lanes 0 and 16 both in bank 0). Found with:\n  bankcalc",
           rep.wavefronts);
    for (unsigned i = 0; i < 32; ++i) printf(" %u", a.offset[i]);
    for (unsigned i = 0; i < 32; ++i) a.offset[i] = 4 * layout_xor_narrow(i, 0, 16);
    printf("\nThe fix XORs with the row bits the bank does not see yet, (row / 2) %% 16: %d "
           "wavefront%s.\n",
           smem_wavefronts(&a), smem_wavefronts(&a) == 1 ? "" : "s");
}

/* 16-bit elements, two at a time: a 32 x 64 tile of halves in 32 x 32 words. */
static void print_half2(void) {
    smem_access element = smem_strided(4, SMEM_LOAD, 1, 0);
    for (unsigned r = 0; r < 32; ++r) {
        unsigned p = 3; /* pair column 3: elements 6 and 7 */
        element.offset[r] = 4 * (r * 32 + ((2 * p) ^ r) / 2);
    }
    printf(
        "\n16-bit elements read two at a time (one 4-byte word per pair). XOR the element index,\n"
        "e ^ row, and a pair's word is (2p ^ row) / 2 = p ^ (row / 2): only row / 2 reaches the\n"
        "bank, so a pair column costs %d wavefronts, and for odd rows the pair's halves are\n"
        "stored swapped (element 2p lands at 2p + 1). Where should pairs go instead? That is\n"
        "the exercise.\n",
        smem_wavefronts(&element));
}

/* Why swizzle rather than pad: a float4 row store and a float column read in one tile. */
static void print_mixed_widths(const tile_variant* all, int n) {
    const tile_variant* x = tile_find(all, n, "xor_f4rows");
    printf(
        "\nMixed widths. Rows stored as float4 need 16-byte-aligned rows, so chapter 02 could\n"
        "pad only by multiples of 4 floats, and a float column then stays 4-way or worse.\n"
        "c ^ row moves whole groups of 4 columns (c ^ (row & ~3) picks the 16-byte chunk) and\n"
        "permutes the 4 floats inside it (c ^ (row & 3)): the writing thread reorders its\n"
        "float4 in registers and still makes one 16-byte store. Model: row store %d (ideal %d),\n"
        "column read %d (ideal %d).\n",
        x->model.st, x->model.st_ideal, x->model.ld, x->model.ld_ideal);
}

/* ---------------------------------------------------------------- summary */

static void print_summary(const course_device* dev, const tile_variant* r, int n) {
    course_summary_header(dev, CLI.program);
    printf("| variant | smem bytes | column read wavefronts | speedup vs plain | model | measured "
           "/ model |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < n; ++i)
        printf("| %s | %u | %d | %.1fx | %.0fx | %.3f |\n", r[i].v.name,
               r[i].tile.slots * r[i].tile.elem_bytes, r[i].model.ld, r[i].speedup,
               r[i].model_speedup, r[i].speedup / r[i].model_speedup);
    const tile_variant *t = tile_find(r, n, "narrow_textbook"),
                       *f = tile_find(r, n, "narrow_fixed");
    if (t && f)
        printf("\n16-word rows: the fixed XOR runs %.2fx faster than the textbook one (model "
               "%.0fx).\n",
               t->m.t.median_ms / f->m.t.median_ms, (double)t->model.ld / f->model.ld);
}

/* ---------------------------------------------------------------- main */

/* The bank of every element, for plot.gp's pictures. */
static void bank_maps(FILE* f, const tile_variant* all, int n_all) {
    static const char* const pictures[] = {"plain", "padded", "xor", "narrow_textbook",
                                           "narrow_fixed"};
    for (size_t i = 0; i < sizeof pictures / sizeof pictures[0]; ++i)
        tile_write_bank_map(f, tile_find(all, n_all, pictures[i]), pictures[i]);
}

static void lesson(const tile_variant* all, int n_all) {
    print_bijection();
    tile_model_table(all, n_all);
    print_narrow_conflict();
    print_half2();
    print_mixed_widths(all, n_all);
}

/* ---------------------------------------------------------------- pictures */

/* xor_f4rows (README, "Mixed widths"): the float tile as kernel 8's row phase stores it, from
 * the kernel's own index functions: each thread's row group (tile_row_group) and the slot of each
 * of its four floats (at(r, c + j): tile_pack's order). */
static int draw_pictures(const char* dir) {
    typedef tile32<LAYOUT_XOR> Index;
    enum { VEC = 4 };
    const Index at;
    static course_cell cells[Index::ROWS * Index::COLS];
    size_t n = 0;
    for (unsigned t = 0; t < TILE_THREADS; ++t)
        for (unsigned k = 0; k < tile_row_share<Index>() / VEC; ++k) {
            unsigned r, c;
            tile_row_group<Index, VEC>(t, k, &r, &c);
            for (unsigned j = 0; j < VEC; ++j) {
                const unsigned slot = at(r, c + j);
                cells[n++] = course_cell_at(slot % 32, slot / 32, (int)(t % 32), "%u", c + j);
            }
        }
    static const course_picture pic = {
        .name = "03_float4_xor",
        .title = "xor_f4rows: a 32x32 float tile, c ^ r, rows stored as float4",
        .key = "a box is a 4-byte word at its bank (x) and row (y), labelled with the column it "
               "holds, coloured by the thread whose one 16-byte store wrote it",
        .xlabel = "bank",
        .ylabel = "row",
        .columns = 32,
        .rows = 32,
        .xtics = 4,
        .ytics = 4,
        .width = 1300,
        .height = 1400};
    return course_picture_draw(dir, &pic, cells, n);
}

int main(int argc, char** argv) {
    const tile_chapter chapter = {.cli = &CLI,
                                  .what = "the XOR swizzle benchmark",
                                  .lesson = lesson,
                                  .bank_maps = bank_maps,
                                  .summary = print_summary};
    return tile_main(&chapter, VARIANTS, N_VARIANTS, argc, argv);
}
