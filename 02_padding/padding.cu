/* Chapter 02: padding.
 *
 * A 32 x 32 tile of 4-, 8- or 16-byte elements, written by rows and read by columns (the
 * in-shared-memory half of a transpose, common/tile/tile_transpose.cuh), with each row padded by
 * 0, 1, 2, 3, 4, 8 or 16 elements. Without padding every lane of a column read lands in the same
 * bank; a row stride coprime with the number of lanes served together spreads them out. Then
 * 16-bit elements in 64-wide rows, where a pad of one element is not enough; a float tile stored
 * by float4 rows, where no pad is; what padding costs (shared memory, occupancy); and the trap:
 * padding that breaks the 16-byte alignment of vector accesses.
 *
 * File layout: variants, lesson tables, occupancy, alignment trap, summary, main. */
#include "padding.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"
#include "model/layout.h"
#include "model/smem_model.h"
#include "tile/tile_main.h"
#include "tile/tile_model.h"
#include "tile/tile_transpose.cuh"

#include <stdio.h>

static const course_cli CLI = {
    "02_padding",
    "Padding: a 32x32 tile written by rows and read by columns, rows padded by 0..16 elements,\n"
    "at 4, 8 and 16 bytes; 16-bit tiles; float4 rows read as floats; occupancy; alignment.",
    "column-read loop iterations per thread",
    4000,
    15,
    1000000,
    0, /* no --shape */
    0,
    0, /* --size from 1 */
    {TILE_BANK_MAPS} /* the bank maps beside --csv */};

/* ---------------------------------------------------------------- variants */

/* A 32 x COLS tile with rows of COLS + PAD elements. */
template <unsigned COLS_, unsigned PAD>
struct padded_tile {
    static constexpr unsigned ROWS = 32, COLS = COLS_;
    constexpr __host__ __device__ unsigned operator()(unsigned r, unsigned c) const {
        return layout_padded(r, c, COLS, PAD);
    }
};

/* Kernel N: a 32-wide tile of T (W bytes each) with rows padded by PAD elements, measured
 * against the unpadded tile of the same width. */
#define PADDED_VARIANT(T, W, N, PAD, STRIDE)                                                       \
    {                                                                                              \
        .v = {.name = "w" #W "_pad" #PAD, .number = N, .description = "row stride " #STRIDE},      \
        .against = "w" #W "_pad0", .tile = tile_kernel_of<T, padded_tile<32, PAD>>()               \
    }

/* The seven pads of one width, kernels FIRST to FIRST + 6. */
#define PADDED_VARIANTS(T, W, FIRST)                                                               \
    PADDED_VARIANT(T, W, FIRST, 0, 32), PADDED_VARIANT(T, W, FIRST + 1, 1, 33),                    \
        PADDED_VARIANT(T, W, FIRST + 2, 2, 34), PADDED_VARIANT(T, W, FIRST + 3, 3, 35),            \
        PADDED_VARIANT(T, W, FIRST + 4, 4, 36), PADDED_VARIANT(T, W, FIRST + 5, 8, 40),            \
        PADDED_VARIANT(T, W, FIRST + 6, 16, 48)

/* The lesson's kernels, by number (README.md, "Kernels"). */
static tile_variant VARIANTS[] = {
    PADDED_VARIANTS(unsigned, 4, 1),
    PADDED_VARIANTS(uint2, 8, 8),
    PADDED_VARIANTS(uint4, 16, 15),
    /* 16-bit elements (half, bf16) in 64-wide rows: one element of padding is half a bank. */
    {.v = {.name = "w2_64_pad0", .number = 22, .description = "32x64 row stride 64"},
     .against = "w2_64_pad0",
     .tile = tile_kernel_of<unsigned short, padded_tile<64, 0>>()},
    {.v = {.name = "w2_64_pad1", .number = 23, .description = "32x64 row stride 65"},
     .against = "w2_64_pad0",
     .tile = tile_kernel_of<unsigned short, padded_tile<64, 1>>()},
    {.v = {.name = "w2_64_pad2", .number = 24, .description = "32x64 row stride 66"},
     .against = "w2_64_pad0",
     .tile = tile_kernel_of<unsigned short, padded_tile<64, 2>>()},
    /* The transpose's mix: rows stored as float4, columns read as float. */
    {.v = {.name = "f4rows_pad0", .number = 25, .description = "float4 rows stride 32"},
     .against = "f4rows_pad0",
     .tile = tile_kernel_of<unsigned, padded_tile<32, 0>, 4>()},
    {.v = {.name = "f4rows_pad4", .number = 26, .description = "float4 rows stride 36"},
     .against = "f4rows_pad0",
     .tile = tile_kernel_of<unsigned, padded_tile<32, 4>, 4>()},
    {.v = {.name = "f4rows_pad8", .number = 27, .description = "float4 rows stride 40"},
     .against = "f4rows_pad0",
     .tile = tile_kernel_of<unsigned, padded_tile<32, 8>, 4>()}};
enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

/* ---------------------------------------------------------------- lesson tables */

static void print_stride_table(void) {
    printf("A warp reads one column of a 32-column tile of 4-byte words: lane i reads row i,\n"
           "byte 4 * (i * stride + col), bank (i * stride + col) %% 32.\n\n");
    printf("%8s %12s %s\n", "stride", "wavefronts", "");
    for (unsigned s = 32; s <= 48; ++s) {
        smem_access a = smem_strided(4, SMEM_LOAD, s, 0);
        int wf = smem_wavefronts(&a);
        printf("%8u %12d   %s\n", s, wf,
               wf == 1   ? "conflict-free: odd, so i * stride hits all 32 banks"
               : s == 32 ? "every lane in one bank: 32-way"
                         : "");
    }
    printf("Any stride coprime with 32 (any odd stride) works; an even one shares banks:\n"
           "34 = 2 x 17 gives a 2-way conflict, 40 = 8 x 5 an 8-way one.\n");
}

static void print_model_table(const tile_variant* all, int n_all) {
    tile_model_table(all, n_all);
    printf("At 8 and 16 bytes a column is served 16 or 8 lanes at a time, so one element of\n"
           "padding (8 or 16 bytes) is again enough, and an even pad again is not.\n");
}

/* 16-bit elements: lanes are served all 32 together and share words, so what counts is the
 * row stride in 4-byte words, not in elements; and the pattern can differ between columns. */
static void print_half_columns(void) {
    printf("\n16-bit elements (half, bf16), a warp reading one column of half tile[32][S]: lane i\n"
           "reads byte 2 * (S * i + c), word (S * i + c) / 2 (rounded down). Lanes that land in\n"
           "one word share it; lanes in one bank but different words wait.\n");
    printf("%8s %16s %14s %14s\n", "S", "words per row", "even columns", "odd columns");
    static const unsigned strides[] = {32, 33, 34, 64, 65, 66};
    for (size_t k = 0; k < sizeof strides / sizeof strides[0]; ++k) {
        int worst[2] = {0, 0};
        for (unsigned c = 0; c < strides[k]; ++c) {
            smem_access a = smem_strided(2, SMEM_LOAD, strides[k], 2 * c);
            int wf = smem_wavefronts(&a);
            if (wf > worst[c % 2]) worst[c % 2] = wf;
        }
        printf("%8u %16.1f %14d %14d\n", strides[k], strides[k] / 2.0, worst[0], worst[1]);
    }
    printf("Padding a 64-wide half tile by one element (65) leaves a 2-way conflict at every\n"
           "column; padding by two (66: 33 words) removes it. [32][33] is conflict-free only on\n"
           "even columns. Which strides are safe at every column is the exercise.\n");
}

/* The transpose's own mix: rows stored 16 bytes at a time need rows aligned to 16 bytes, so
 * the pad is a multiple of 4 floats, and then a float column can never be conflict-free. */
static void print_mixed_widths(const tile_variant* all, int n_all) {
    const tile_variant *p4 = tile_find(all, n_all, "f4rows_pad4"),
                       *p8 = tile_find(all, n_all, "f4rows_pad8");
    printf("\nMixed widths: rows stored as float4 (16 bytes) and columns read as float (4 bytes),\n"
           "as a transpose does. A float4 store needs a 16-byte-aligned row, so the pad must be\n"
           "a multiple of 4 floats; then the row stride is a multiple of 4 words and a column\n"
           "touches only 8 of the 32 banks: (4 * i * k + c) %% 32 for stride 4k.\n"
           "  stride 36: column read %d wavefronts, stride 40: %d (ideal 1). Padding cannot fix\n"
           "  this; chapter 03's XOR swizzle can (variant xor_f4rows there).\n",
           p4->model.ld, p8->model.ld);
}

/* ---------------------------------------------------------------- occupancy */

/* A realistic tile loader: two stages of an A tile [BK][BM + pad] and a B tile [BK][BN + pad]
 * in dynamic shared memory, as a tiled SGEMM keeps them. Copies in -> tiles -> out. */
__global__ void staged_tiles(const float* in, float* out, int bm, int bn, int bk, int pad) {
    extern __shared__ float tiles[];
    const int a_row = bm + pad, b_row = bn + pad, stage = bk * (a_row + b_row);
    for (int s = 0; s < 2; ++s)
        for (int i = threadIdx.x; i < bk * (bm + bn); i += blockDim.x) {
            int k = i / (bm + bn), j = i % (bm + bn);
            int slot = s * stage + (j < bm ? k * a_row + j : bk * a_row + k * b_row + (j - bm));
            tiles[slot] = in[(size_t)blockIdx.x * 2 * bk * (bm + bn) + s * bk * (bm + bn) + i];
        }
    __syncthreads();
    for (int s = 0; s < 2; ++s)
        for (int i = threadIdx.x; i < bk * (bm + bn); i += blockDim.x) {
            int k = i / (bm + bn), j = i % (bm + bn);
            int slot = s * stage + (j < bm ? k * a_row + j : bk * a_row + k * b_row + (j - bm));
            out[(size_t)blockIdx.x * 2 * bk * (bm + bn) + s * bk * (bm + bn) + i] = tiles[slot];
        }
}

static size_t staged_bytes(int bm, int bn, int bk, int pad) {
    return 2 * (size_t)bk * (size_t)(bm + pad + bn + pad) * sizeof(float);
}

/* Blocks per SM for one tile configuration, after one real launch that must copy correctly. */
static int staged_blocks_per_sm(const course_device* dev, int bm, int bn, int bk, int pad) {
    size_t smem = staged_bytes(bm, bn, bk, pad), n = 2 * (size_t)bk * (bm + bn);
    if (smem > dev->smem_per_block_optin) return 0; /* not one block: a smaller GPU's answer */
    CUDA_CHECK(cudaFuncSetAttribute(staged_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)dev->smem_per_block_optin));
    course_buffer in = course_buffer_alloc(n * sizeof(float)),
                  out = course_buffer_alloc(n * sizeof(float));
    float* h = (float*)in.host;
    for (size_t i = 0; i < n; ++i) h[i] = (float)i;
    course_buffer_upload(&in);
    course_buffer_poison(&out);
    staged_tiles<<<1, 256, smem>>>((const float*)in.dev, (float*)out.dev, bm, bn, bk, pad);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&out);
    long long wrong = course_first_difference(out.host, in.host, n, sizeof(float));
    if (wrong >= 0) die("staged_tiles copied element %lld wrong", wrong);
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, staged_tiles, 256, smem));
    course_buffer_free(&in);
    course_buffer_free(&out);
    return blocks;
}

typedef struct {
    int bm, bn, bk;
    int blocks[3]; /* pad 0, 1, 4 floats */
} occupancy_row;

static void occupancy_demo(const course_device* dev, occupancy_row* rows) {
    static const int pads[3] = {0, 1, 4};
    printf("\nWhat padding costs: shared memory, and sometimes occupancy. Two stages of an A tile\n"
           "[BK][BM+pad] and a B tile [BK][BN+pad] of floats, 256 threads per block, %zu KiB of\n"
           "shared memory per SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor):\n",
           dev->smem_per_sm / 1024);
    printf("%-18s | %-17s | %-17s | %-17s\n", "tiles", "pad 0", "pad 1", "pad 4");
    for (int i = 0; i < 2; ++i) {
        char name[32];
        snprintf(name, sizeof name, "BM%d BN%d BK%d", rows[i].bm, rows[i].bn, rows[i].bk);
        printf("%-18s |", name);
        for (int p = 0; p < 3; ++p) {
            rows[i].blocks[p] =
                staged_blocks_per_sm(dev, rows[i].bm, rows[i].bn, rows[i].bk, pads[p]);
            printf(" %6.2f KiB: %d/SM |",
                   staged_bytes(rows[i].bm, rows[i].bn, rows[i].bk, pads[p]) / 1024.0,
                   rows[i].blocks[p]);
        }
        printf("\n");
    }
}

/* ---------------------------------------------------------------- alignment trap */

/* Every thread reads 4 consecutive floats of row r: as one 16-byte load (VECTOR) or as 4 loads
 * the compiler may merge if it can prove the alignment. Row r starts at byte 4 * r * (32 + PAD):
 * a multiple of 16 for every row only if 32 + PAD is a multiple of 4. */
template <int PAD, bool VECTOR>
__global__ void float4_from_rows(float* out) {
    __shared__ __align__(16) float tile[32][32 + PAD];
    for (int i = threadIdx.x; i < 32 * (32 + PAD); i += blockDim.x) (&tile[0][0])[i] = (float)i;
    __syncthreads();
    const int r = threadIdx.x / 8, k = threadIdx.x % 8;
    float4 v;
    if (VECTOR)
        v = *reinterpret_cast<const float4*>(&tile[r][4 * k]);
    else
        v = make_float4(tile[r][4 * k], tile[r][4 * k + 1], tile[r][4 * k + 2], tile[r][4 * k + 3]);
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

/* Runs one instance into out (poisoned first); returns the launch's error (the check of the
 * sums is separate). */
static cudaError_t run_float4(void (*kernel)(float*), int pad, const course_buffer* out) {
    course_buffer_poison(out);
    kernel<<<1, 256>>>((float*)out->dev);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) return err;
    course_buffer_download(out);
    const float* h = (const float*)out->host;
    for (int t = 0; t < 256; ++t) {
        float first = (float)((t / 8) * (32 + pad) + 4 * (t % 8));
        if (h[t] != 4 * first + 6) die("float4_from_rows: thread %d read %g", t, h[t]);
    }
    return cudaSuccess;
}

/* Last in the lesson: the misaligned launch leaves the CUDA context unusable (so out is not
 * freed: the process ends with the context). */
static void alignment_trap(void) {
    course_buffer out = course_buffer_alloc(256 * sizeof(float));
    printf("\nThe trap: padding that breaks 16-byte alignment. Each thread reads 4 floats of one\n"
           "row as a float4. Row r starts at byte 4 * r * (32 + pad):\n");
    CUDA_CHECK(run_float4(float4_from_rows<4, false>, 4, &out));
    CUDA_CHECK(run_float4(float4_from_rows<1, false>, 1, &out));
    printf("  pad 1 or 4, four float loads: correct either way; the compiler merges them into one\n"
           "  16-byte load only where it can prove alignment (pad 4), else issues four (see\n"
           "  README.md for the SASS).\n");
    CUDA_CHECK(run_float4(float4_from_rows<4, true>, 4, &out));
    printf("  pad 4 (row stride 144 bytes), one float4 load: correct.\n");
    cudaError_t err = run_float4(float4_from_rows<1, true>, 1, &out);
    printf("  pad 1 (row stride 132 bytes), one float4 load: %s (%s)%s\n",
           err == cudaSuccess ? "no error" : cudaGetErrorName(err), cudaGetErrorString(err),
           err == cudaErrorMisalignedAddress
               ? ", as expected:\n  row r starts 4 * (r % 4) bytes past a 16-byte boundary. Pad "
                 "vector tiles by whole vectors (4 floats)."
               : "");
}

/* ---------------------------------------------------------------- summary */

/* One line of the summary: a variant against its baseline. */
static void summary_row(const tile_variant* r, int n, const char* name, const char* what) {
    const tile_variant* x = tile_find(r, n, name);
    if (x)
        printf("| %s | %s | %.1fx faster | %.0fx | %.3f | %.3f |\n", what, x->v.description,
               x->speedup, x->model_speedup, x->speedup / x->model_speedup, x->m.ns_per_load);
}

static void print_summary(const course_device* dev, const tile_variant* r, int n,
                          const occupancy_row* occ) {
    course_summary_header(dev, CLI.program);
    printf("| column read | padded layout | against no padding | model | measured / model | ns per "
           "load |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
    summary_row(r, n, "w4_pad1", "4 B");
    summary_row(r, n, "w8_pad1", "8 B");
    summary_row(r, n, "w16_pad1", "16 B");
    summary_row(r, n, "w2_64_pad1", "2 B, pad 1");
    summary_row(r, n, "w2_64_pad2", "2 B, pad 2");
    summary_row(r, n, "f4rows_pad4", "4 B, float4 rows");
    printf("\nOccupancy (blocks/SM, pad 0 / 1 / 4 floats): BM%d BN%d BK%d %d/%d/%d; "
           "BM%d BN%d BK%d %d/%d/%d.\n",
           occ[0].bm, occ[0].bn, occ[0].bk, occ[0].blocks[0], occ[0].blocks[1], occ[0].blocks[2],
           occ[1].bm, occ[1].bn, occ[1].bk, occ[1].blocks[0], occ[1].blocks[1], occ[1].blocks[2]);
}

/* ---------------------------------------------------------------- main */

/* The bank of every element, for plot.gp's pictures. */
static void bank_maps(FILE* f, const tile_variant* all, int n_all) {
    static const char* const pictures[][2] = {{"w4_pad0", "stride 32"},
                                              {"w4_pad1", "stride 33"},
                                              {"w4_pad2", "stride 34"},
                                              {"w2_64_pad1", "half stride 65"},
                                              {"w2_64_pad2", "half stride 66"}};
    for (size_t i = 0; i < sizeof pictures / sizeof pictures[0]; ++i)
        tile_write_bank_map(f, tile_find(all, n_all, pictures[i][0]), pictures[i][1]);
}

static void lesson(const tile_variant* all, int n_all) {
    print_stride_table();
    print_model_table(all, n_all);
    print_half_columns();
    print_mixed_widths(all, n_all);
}

/* After the benchmark: what padding costs, the trap, and the summary. */
static void summary(const course_device* dev, const tile_variant* sel, int n) {
    occupancy_row occ[2] = {{128, 96, 32, {0, 0, 0}}, {128, 128, 16, {0, 0, 0}}};
    occupancy_demo(dev, occ);
    alignment_trap();
    print_summary(dev, sel, n, occ);
}

int main(int argc, char** argv) {
    const tile_chapter chapter = {.cli = &CLI,
                                  .what = "the padding benchmark",
                                  .lesson = lesson,
                                  .bank_maps = bank_maps,
                                  .summary = summary};
    return tile_main(&chapter, VARIANTS, N_VARIANTS, argc, argv);
}
