/* Chapter 05's variants, one record each: cudaMemcpy, kernels 1-6, kernel 7 and the two variants
 * that take one of its ideas away, and the sweep of kernel 7's tile and block size. The builders
 * below make a record's tile, threads, launches, kernels and model from the kernel's own
 * template arguments, so that none of them can disagree with another. */
#include "transpose.h"
#include "transpose_kernels.cuh"
#include "transpose_program.h"
#include "host/check.h"
#include "model/layout.h"

#include <type_traits>

const element_type ELEMENT_TYPES[N_TYPES] = {{"float", 4}, {"double", 8}};

template <typename T>
static void launch_memcpy(const void* in, void* out, int rows, int cols) {
    CUDA_CHECK(cudaMemcpyAsync(out, in, (size_t)rows * cols * sizeof(T), cudaMemcpyDeviceToDevice));
}

template <typename T, void (*K)(const T*, T*, int, int)>
static void launch_scalar(const void* in, void* out, int rows, int cols) {
    K<<<tile_grid(READ_ORDER, rows, cols, SCALAR_TILE, SCALAR_TILE),
        dim3(SCALAR_TILE, SCALAR_TILE_ROWS_PER_PASS)>>>((const T*)in, (T*)out, rows, cols);
}

template <typename T, int TR, int TC, int NT, typename Slot, block_order ORDER>
static void launch_vec(const void* in, void* out, int rows, int cols) {
    transpose_vec<T, TR, TC, NT, Slot, ORDER>
        <<<tile_grid(ORDER, rows, cols, TR, TC), NT>>>((const T*)in, (T*)out, rows, cols);
}

template <typename T, int TR, int TC, int NT>
static void launch_copy(const void* in, void* out, int rows, int cols) {
    copy_tile_vec<T, TR, TC, NT>
        <<<tile_grid(READ_ORDER, rows, cols, TR, TC), NT>>>((const T*)in, (T*)out, rows, cols);
}

/* Where the kernels keep element (row, col) of their shared tile, as the model asks for it. */
template <layout_kind L>
static unsigned scalar_tile_slot(unsigned row, unsigned col) {
    return layout_index(row, col, L);
}

template <typename Slot>
static unsigned vec_slot(unsigned row, unsigned col) {
    return Slot()(row, col);
}

/* Whether kernel 7 builds for T at this tile: whole micro-blocks per thread, 48 KiB. */
template <typename T, int TR, int TC, int NT>
constexpr bool vec_fits() {
    constexpr int V = 16 / sizeof(T);
    return TR / V >= 8 && (TR / V) * (TC / V) % NT == 0 && (TR / V) * (TC / V) >= NT &&
           TR * TC * sizeof(T) <= 48 * 1024;
}

/* How a kernel-7 record is built: COPY is kernel 1 at the same tile; UNSWIZZLED drops the
 * swizzle; READ_ORDERED runs the blocks in read order (tile_grid); SWEEP makes it one of the
 * sweep's tiles. */
enum { COPY = 1, UNSWIZZLED = 2, READ_ORDERED = 4, SWEEP = 8 };

/* Kernel 7 (or 1) for T, if the tile fits; else nothing. */
template <typename T, int TR, int TC, int NT, int FLAGS>
static transpose_build vec_build(const char* name) {
    transpose_build b = {};
    if constexpr (vec_fits<T, TR, TC, NT>()) {
        typedef typename std::conditional<FLAGS & UNSWIZZLED, vec_unswizzled<TR>,
                                          vec_swizzle<T, TR>>::type Slot;
        constexpr block_order order = FLAGS & READ_ORDERED ? READ_ORDER : WRITE_ORDER;
        if constexpr (FLAGS & COPY) {
            b.launch = launch_copy<T, TR, TC, NT>;
            b.kernel = (const void*)copy_tile_vec<T, TR, TC, NT>;
        } else {
            b.launch = launch_vec<T, TR, TC, NT, Slot, order>;
            b.kernel = (const void*)transpose_vec<T, TR, TC, NT, Slot, order>;
            const vec_geometry g = {(unsigned)sizeof(T), TR, TC, NT};
            if (vec_model(&g, vec_slot<Slot>, &b.model)) die("%s: misaligned", name);
            b.modelled = 1;
        }
    }
    return b;
}

template <int TR, int TC, int NT, int FLAGS = 0>
static transpose_variant vec_variant(course_variant head) {
    transpose_variant x = {
        .v = head,
        .transposes = !(FLAGS & COPY),
        .sweep = (FLAGS & SWEEP) != 0,
        .tile_rows = TR,
        .tile_cols = TC,
        .of_type = {vec_build<float, TR, TC, NT, FLAGS>(head.name),
                    vec_build<double, TR, TC, NT, FLAGS>(head.name)},
    };
    x.v.kernel = x.of_type[FLOAT].kernel;
    x.v.needs.threads = NT;
    return x;
}

/* Kernels 2-6 for T; slot: where the tile keeps an element (NULL: no shared tile). */
template <typename T, void (*K)(const T*, T*, int, int)>
static transpose_build scalar_build(const char* name, tile32_slot_fn slot) {
    transpose_build b = {.launch = launch_scalar<T, K>, .kernel = (const void*)K};
    if (slot) {
        if (tile32_model((unsigned)sizeof(T), slot, &b.model)) die("%s: misaligned", name);
        b.modelled = 1;
    }
    return b;
}

template <void (*KF)(const float*, float*, int, int), void (*KD)(const double*, double*, int, int)>
static transpose_variant scalar_variant(course_variant head, tile32_slot_fn slot) {
    transpose_variant x = {
        .v = head,
        .transposes = 1,
        .tile_rows = SCALAR_TILE,
        .tile_cols = SCALAR_TILE,
        .of_type = {scalar_build<float, KF>(head.name, slot),
                    scalar_build<double, KD>(head.name, slot)},
    };
    x.v.kernel = (const void*)KF;
    x.v.needs.threads = SCALAR_TILE * SCALAR_TILE_ROWS_PER_PASS;
    return x;
}

static const char SWEPT_TILE[] = "the sweep: kernel 7 at another tile and block size";

course_variants transpose_variants(void) {
    static transpose_variant table[] = {
        {.v = {.name = "memcpy",
               .description =
                   "cudaMemcpy device to device: the ceiling the chapter is measured against",
               .baseline = 1},
         .transposes = 0,
         .of_type = {{.launch = launch_memcpy<float>}, {.launch = launch_memcpy<double>}}},
        vec_variant<VEC_TILE_ROWS, VEC_TILE_COLS, VEC_THREADS, COPY>(
            {.name = "copy",
             .number = 1,
             .description = "kernel 1: vec's tiles, threads and 16-byte accesses, no transpose"}),
        scalar_variant<transpose_naive_rows<float>, transpose_naive_rows<double>>(
            {.name = "naive_rows",
             .number = 2,
             .description = "kernel 2: reads along rows (coalesced), writes down columns"},
            NULL),
        scalar_variant<transpose_naive_cols<float>, transpose_naive_cols<double>>(
            {.name = "naive_cols",
             .number = 3,
             .description = "kernel 3: writes along rows (coalesced), reads down columns"},
            NULL),
        scalar_variant<transpose_tile<float, LAYOUT_PLAIN>, transpose_tile<double, LAYOUT_PLAIN>>(
            {.name = "tile_plain",
             .number = 4,
             .description =
                 "kernel 4: a 32x32 shared tile, both sides coalesced; column read-back"},
            scalar_tile_slot<LAYOUT_PLAIN>),
        scalar_variant<transpose_tile<float, LAYOUT_PADDED>, transpose_tile<double, LAYOUT_PADDED>>(
            {.name = "tile_padded",
             .number = 5,
             .description = "kernel 5: rows padded to 33 elements (chapter 02)"},
            scalar_tile_slot<LAYOUT_PADDED>),
        scalar_variant<transpose_tile<float, LAYOUT_XOR>, transpose_tile<double, LAYOUT_XOR>>(
            {.name = "tile_xor",
             .number = 6,
             .description = "kernel 6: col ^ row, no padding (chapter 03)"},
            scalar_tile_slot<LAYOUT_XOR>),
        vec_variant<VEC_TILE_ROWS, VEC_TILE_COLS, VEC_THREADS, UNSWIZZLED>(
            {.name = "vec_unswizzled",
             .number = 7,
             .description = "kernel 7 without its swizzle: what the conflicts cost here"}),
        vec_variant<VEC_TILE_ROWS, VEC_TILE_COLS, VEC_THREADS, READ_ORDERED>(
            {.name = "vec_read_order",
             .number = 7,
             .description = "kernel 7 with its blocks in read order: what the order costs"}),
        vec_variant<VEC_TILE_ROWS, VEC_TILE_COLS, VEC_THREADS>(
            {.name = "vec",
             .number = 7,
             .description =
                 "kernel 7: 16-byte accesses, register transposes, Swizzle<3,log2 V,log2 TR>"}),
        /* The sweep: kernel 7 at the other tiles and block sizes (vec is its tenth). */
        vec_variant<32, 32, 64, SWEEP>(
            {.name = "vec_32x32_t64", .number = 7, .description = SWEPT_TILE}),
        vec_variant<32, 64, 128, SWEEP>(
            {.name = "vec_32x64_t128", .number = 7, .description = SWEPT_TILE}),
        vec_variant<64, 32, 128, SWEEP>(
            {.name = "vec_64x32_t128", .number = 7, .description = SWEPT_TILE}),
        vec_variant<64, 64, 128, SWEEP>(
            {.name = "vec_64x64_t128", .number = 7, .description = SWEPT_TILE}),
        vec_variant<32, 128, 256, SWEEP>(
            {.name = "vec_32x128_t256", .number = 7, .description = SWEPT_TILE}),
        vec_variant<128, 32, 256, SWEEP>(
            {.name = "vec_128x32_t256", .number = 7, .description = SWEPT_TILE}),
        vec_variant<64, 128, 256, SWEEP>(
            {.name = "vec_64x128_t256", .number = 7, .description = SWEPT_TILE}),
        vec_variant<128, 64, 256, SWEEP>(
            {.name = "vec_128x64_t256", .number = 7, .description = SWEPT_TILE}),
        vec_variant<64, 128, 512, SWEEP>(
            {.name = "vec_64x128_t512", .number = 7, .description = SWEPT_TILE}),
    };
    return course_variants_of(table, sizeof table[0], (int)(sizeof table / sizeof table[0]));
}
