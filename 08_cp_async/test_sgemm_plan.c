/* Chapter 08, part 4, on the CPU: sgemm_auto's plan (sgemm_plan.c) and the division of work the
 * kernels walk (gemm_work.h). For many shapes and both GPUs' kinds of feed:
 *   - the blocks' ranges cover every iteration once, in order;
 *   - every tile is either one block's whole (it stores into C) or shared by two or more, each
 *     with its own workspace slot, which the fixup finds by the same arithmetic;
 *   - the workspace holds every slot; the packing happens exactly where the rows cannot be read
 *     16 bytes at a time;
 *   - the H200 plans the lesson describes (1024^3 stream-K on every slot, 4097^3 packed, 4096^3
 *     whole waves with the last shared);
 *   - the built-in table parses and covers its grid, the choice scales a row's times by the
 *     plans' busiest SMs, and the parser refuses what it cannot read. */
#include "gemm_work.h"
#include "sgemm_auto.h"
#include "host/test_util.h"

#include <stdlib.h>
#include <string.h>

/* Walks every block as the kernels do and checks the division of the work. */
static void check_division(const sgemm_plan* p, const char* what) {
    const gemm_work* w = &p->work;
    const int blocks = gemm_work_blocks(w);
    long long expect = 0;
    int ok = 1;
    for (int b = 0; b < blocks && ok; ++b) {
        long long lo, hi;
        gemm_work_range(w, b, &lo, &hi);
        ok &= lo == expect && hi >= lo;
        expect = hi;
    }
    EXPECT(ok && expect == (long long)p->tiles * w->slices,
           "%s: the ranges do not tile the %d x %d iterations", what, p->tiles, w->slices);
    if (!w->sk_blocks) {
        EXPECT(w->whole == p->tiles, "%s: data-parallel but %d blocks for %d tiles", what, w->whole,
               p->tiles);
        return;
    }
    EXPECT(w->whole % p->slots == 0, "%s: %d whole tiles are not whole waves of %d", what, w->whole,
           p->slots);
    EXPECT(w->sk_blocks <= p->slots, "%s: %d stream-K blocks on %d slots", what, w->sk_blocks,
           p->slots);
    EXPECT(p->partial_bytes >= (size_t)2 * w->sk_blocks * p->bm * p->bn * 4,
           "%s: the workspace is short of the slots", what);
    char* used = (char*)calloc((size_t)2 * w->sk_blocks, 1);
    for (long long t = w->whole; t < p->tiles && used; ++t) {
        const int first = gemm_work_block_of(w, t * w->slices),
                  last = gemm_work_block_of(w, (t + 1) * w->slices - 1);
        long long lo, hi, covered = 0;
        for (int b = first; b <= last; ++b) {
            gemm_work_range(w, b, &lo, &hi);
            const long long a = lo > t * w->slices ? lo : t * w->slices,
                            z = hi < (t + 1) * w->slices ? hi : (t + 1) * w->slices;
            covered += z > a ? z - a : 0;
            if (first != last) { /* a part: the kernel's slot, which no other part may take */
                const int slot = gemm_work_slot(w, b, t);
                EXPECT(slot >= 0 && slot < 2 * w->sk_blocks && !used[slot],
                       "%s: tile %lld, block %d: slot %d out of range or taken", what, t, b, slot);
                if (slot >= 0 && slot < 2 * w->sk_blocks) used[slot] = 1;
            }
        }
        EXPECT(covered == w->slices, "%s: tile %lld covered %lld of %d slices by blocks %d..%d",
               what, t, covered, w->slices, first, last);
    }
    free(used);
}

static sgemm_gpu h200(void) {
    const sgemm_gpu g = {132, 1, {{2, 1}, {1, 1}, {2, 2}}, 1, {0}};
    return g;
}
static sgemm_gpu a100(void) { /* cp.async, 108 SMs (the occupancy API's blocks: a guess) */
    const sgemm_gpu g = {108, 0, {{3, 2}, {2, 2}, {2, 2}}, 0, {0}};
    return g;
}

/* Packing beside the tiles: only for one data-parallel wave of 128 x 256 TMA tiles with blocks
 * over, the chunks the spare blocks cannot keep ahead of packed first. */
static void test_packing_beside(void) {
    const sgemm_gpu g = h200(), cp = a100();
    sgemm_gpu off = g;
    off.pack_beside = 0;
    const sgemm_choice wide_dp = {SGEMM_TILE_128x256, SGEMM_DATA_PARALLEL};
    sgemm_plan p = sgemm_plan_for(2047, 2047, 2047, 2047, 2047, 0, 0, &g, wide_dp);
    EXPECT(p.tiles == 128 && p.pack_spare == 4 && p.pack_chunks == 8 && p.pack_lead == 2,
           "2047^3: 128 tiles, 4 spare blocks, 2 of 8 chunks first (got %d, %d, %d of %d)", p.tiles,
           p.pack_spare, p.pack_lead, p.pack_chunks);
    p = sgemm_plan_for(2047, 2047, 301, 301, 2047, 0, 0, &g, wide_dp);
    EXPECT(p.pack_spare == 4 && p.pack_chunks == 2 && p.pack_lead == 1,
           "2047 x 2047 x 301: 1 of 2 chunks first (got %d of %d)", p.pack_lead, p.pack_chunks);
    p = sgemm_plan_for(2047, 2047, 256, 256, 2047, 0, 0, &g, wide_dp);
    EXPECT(!p.pack_spare, "K of one chunk: packed first, nothing to pack beside");
    p = sgemm_plan_for(2047, 2047, 2047, 2047, 2047, 0, 0, &off, wide_dp);
    EXPECT(!p.pack_spare, "a GPU without the kernel: packed first");
    p = sgemm_plan_for(2048, 2048, 2048, 2048, 2048, 0, 0, &g, wide_dp);
    EXPECT(!p.pack_spare && !p.pack_a && !p.pack_b, "2048^3: nothing to pack");
    p = sgemm_plan_for(4097, 4097, 4097, 4097, 4097, 0, 0, &g, wide_dp);
    EXPECT(!p.pack_spare, "4097^3: more tiles than slots, no block over");
    p = sgemm_plan_for(2047, 2047, 2047, 2047, 2047, 0, 0, &cp, wide_dp);
    EXPECT(!p.pack_spare, "cp.async: packed first");
    const sgemm_choice wide_sk = {SGEMM_TILE_128x256, SGEMM_STREAM_K};
    p = sgemm_plan_for(1531, 1531, 8191, 8191, 1531, 0, 0, &g, wide_sk);
    EXPECT(!p.pack_spare, "stream-K: its blocks are at different K, packed first");
    /* 13 x 10 tiles: 2 blocks over, which keep up with about a third of the packing */
    p = sgemm_plan_for(1663, 2559, 2047, 2047, 2559, 0, 0, &g, wide_dp);
    EXPECT(!p.pack_spare && p.pack_a && p.pack_b,
           "1663 x 2559 x 2047: 6 of 8 chunks would be packed first: all of them are");
    p = sgemm_plan_for(1000, 4097, 513, 513, 4097, 0, 0, &g, wide_dp);
    EXPECT(!p.pack_spare,
           "1000 x 4097 x 513: 2 of 3 chunks would be packed first: all of them are");
}

/* Packing alongside the walk: where P <= T < 2P, a wave of whole tiles first and the rest shared,
 * the busiest SM's count as stream-K's usual ranges give it; not where the packers would fall
 * behind the wave, nor where the GPU cannot run the packing grid. */
static void test_packing_along(void) {
    const sgemm_gpu without = h200();
    sgemm_gpu g = without;
    g.pack_along[SGEMM_TILE_128x128] = 132;
    const sgemm_choice sk = {SGEMM_TILE_128x128, SGEMM_STREAM_K};
    sgemm_plan p = sgemm_plan_for(1531, 1531, 8191, 8191, 1531, 0, 0, &g, sk);
    const sgemm_plan usual = sgemm_plan_for(1531, 1531, 8191, 8191, 1531, 0, 0, &without, sk);
    EXPECT(p.pack_along == 132 && p.pack_a && p.pack_b && p.tiles == 144 && p.work.whole == 132 &&
               p.work.sk_blocks == 132 && p.sk_tiles == 12 && p.pack_chunks == 32 &&
               !p.pack_spare && p.busiest <= usual.busiest + 1,
           "1531 x 1531 x 8191: 132 whole tiles, 12 shared, packed alongside (along %d, whole %d, "
           "sk %d, busiest %lld against %lld)",
           p.pack_along, p.work.whole, p.work.sk_blocks, p.busiest, usual.busiest);
    check_division(&p, "1531 x 1531 x 8191 along");
    EXPECT(!usual.pack_along && usual.work.whole == 0, "a GPU without the grid: packed first");
    p = sgemm_plan_for(2047, 2047, 301, 301, 2047, 0, 0, &g, sk);
    EXPECT(p.pack_along && p.work.whole == 132, "2047^2 x 301 (the sanitizers' shape): along");
    check_division(&p, "2047^2 x 301 along");
    p = sgemm_plan_for(3001, 3001, 3001, 3001, 3001, 0, 0, &g, sk);
    EXPECT(!p.pack_along, "3001^3: the packers would need 0.65 of their pace, packed first");
    p = sgemm_plan_for(1536, 1536, 8192, 8192, 1536, 0, 0, &g, sk);
    EXPECT(!p.pack_along, "1536 x 1536 x 8192: nothing to pack");
    p = sgemm_plan_for(1031, 1031, 1031, 1031, 1031, 0, 0, &g, sk);
    EXPECT(!p.pack_along, "1031^3: 64 tiles (edges peeled), fewer than the slots: no first wave");
    p = sgemm_plan_for(1531, 1531, 301, 301, 1531, 0, 0, &g, sk);
    EXPECT(!p.pack_along, "1531 x 1531 x 301: a share under SK_MIN_K");
    const sgemm_choice dp = {SGEMM_TILE_128x128, SGEMM_DATA_PARALLEL};
    p = sgemm_plan_for(1531, 1531, 8191, 8191, 1531, 0, 0, &g, dp);
    EXPECT(!p.pack_along, "data-parallel: no walk");
    const sgemm_choice wide_sk = {SGEMM_TILE_128x256, SGEMM_STREAM_K};
    p = sgemm_plan_for(4001, 4001, 4001, 4001, 4001, 0, 0, &g, wide_sk);
    EXPECT(
        !p.pack_along && p.pack_a,
        "4001^3 on 128 x 256 stream-K: no room for a packing block beside its walk, packed first");
}

static void test_divisions(void) {
    const sgemm_gpu gpus[] = {h200(), a100()};
    const int sides[] = {1, 7, 100, 128, 129, 1000, 1024, 1031, 2047, 3001, 4096, 4097, 8192};
    const int n = sizeof sides / sizeof sides[0];
    for (int gi = 0; gi < 2; ++gi)
        for (int c = 0; c < 2 * SGEMM_TILES; ++c) {
            const sgemm_choice choice = {(sgemm_tile)(c / 2), (sgemm_split)(c % 2)};
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; j += 3)
                    for (int k = 0; k < n; k += 2) {
                        const int M = sides[i], N = sides[j], K = sides[k];
                        const sgemm_plan p = sgemm_plan_for(M, N, K, K, N, 0, 0, &gpus[gi], choice);
                        char what[96];
                        snprintf(what, sizeof what, "%s %dx%dx%d %s %s", gi ? "A100" : "H200", M, N,
                                 K, sgemm_tile_name(choice.tile), sgemm_split_name(choice.split));
                        check_division(&p, what);
                        EXPECT(p.fill > 0 && p.fill <= 1.0 + 1e-9, "%s: fill %.3f", what, p.fill);
                        EXPECT(p.choice.split == SGEMM_STREAM_K || !p.work.sk_blocks,
                               "%s: stream-K blocks in a data-parallel plan", what);
                    }
        }
}

static void test_packing(void) {
    const sgemm_gpu g = h200(), cp = a100();
    const sgemm_choice c = {SGEMM_TILE_128x128, SGEMM_STREAM_K};
    sgemm_plan p = sgemm_plan_for(4096, 4096, 4096, 4096, 4096, 0, 0, &g, c);
    EXPECT(!p.pack_a && !p.pack_b, "4096^3 dense: nothing to pack");
    p = sgemm_plan_for(4097, 4097, 4097, 4097, 4097, 0, 0, &g, c);
    EXPECT(p.pack_a && p.pack_b && p.lda == 4100 && p.ldb == 4096,
           "4097^3 dense: both packed, A's rows to 4100, B's to the tiles' 4096 columns (got %d "
           "%d, lda %d, ldb %d)",
           p.pack_a, p.pack_b, p.lda, p.ldb);
    EXPECT(p.pack_a_bytes == (size_t)4096 * 4100 * 4 && p.pack_b_bytes == (size_t)4097 * 4096 * 4,
           "4097^3: the packed sizes, the tiles' rows and columns only");
    p = sgemm_plan_for(7, 1000, 50, 50, 1000, 4, 4, &g, c);
    EXPECT(!p.pack_a && !p.pack_b && p.tiles == 0, "7 rows: no tile, so nothing packed");
    p = sgemm_plan_for(1000, 1000, 1001, 1004, 1000, 0, 16, &g, c);
    EXPECT(!p.pack_a && !p.pack_b, "the TMA reads past K itself: lda 1004 needs no packing");
    p = sgemm_plan_for(1000, 1000, 1001, 1004, 1000, 0, 16, &cp, c);
    EXPECT(p.pack_a && !p.pack_b, "cp.async's 16-byte copies need K a multiple of 4: A packed");
    p = sgemm_plan_for(512, 512, 512, 512, 512, 4, 0, &g, c);
    EXPECT(p.pack_a && !p.pack_b, "A's base 4 bytes off: packed");
    const sgemm_gpu small_smem = {
        170, 1, {{1, 1}, {0, 0}, {2, 2}}, 0, {0}}; /* 128 x 256 on the TMA: no fit */
    const sgemm_choice wide = {SGEMM_TILE_128x256, SGEMM_DATA_PARALLEL};
    p = sgemm_plan_for(4096, 4096, 4096, 4096, 4096, 0, 0, &small_smem, wide);
    EXPECT(p.choice.tile == SGEMM_TILE_128x128 && p.bn == 128 && p.slots == 170,
           "a tile that does not fit: the other one (tile %d, slots %d)", (int)p.choice.tile,
           p.slots);
    const sgemm_choice narrow = {SGEMM_TILE_128x128_128T, SGEMM_DATA_PARALLEL};
    const sgemm_gpu three = {
        132, 1, {{2, 1}, {1, 1}, {3, 3}}, 1, {0}}; /* the third tile's own count */
    p = sgemm_plan_for(1100, 1100, 1031, 1031, 1100, 0, 0, &three, narrow);
    EXPECT(p.choice.tile == SGEMM_TILE_128x128_128T && p.bm == 128 && p.bn == 128 &&
               p.tiles == 81 && p.slots == 3 * 132,
           "1100^2 x 1031 on 128 x 128, 128 threads: 81 tiles on its own 3 blocks an SM (tile %d, "
           "%d tiles, %d slots)",
           (int)p.choice.tile, p.tiles, p.slots);
    p = sgemm_plan_for(0, 5, 5, 5, 5, 0, 0, &g, c);
    EXPECT(p.nothing && !p.scale_only, "M = 0: nothing");
    p = sgemm_plan_for(5, 5, 0, 1, 5, 0, 0, &g, c);
    EXPECT(p.scale_only && !p.nothing, "K = 0: C = beta C");
}

/* The plans the lesson walks through, on an H200. */
static void test_h200_plans(void) {
    const sgemm_gpu g = h200();
    const sgemm_choice sk = {SGEMM_TILE_128x128, SGEMM_STREAM_K},
                       dp = {SGEMM_TILE_128x128, SGEMM_DATA_PARALLEL};
    sgemm_plan p = sgemm_plan_for(1024, 1024, 1024, 1024, 1024, 0, 0, &g, dp);
    EXPECT(p.tiles == 64 && p.slots == 264 && p.work.sk_blocks == 0 && p.fill < 0.49 &&
               p.busiest == 32,
           "1024^3 data-parallel: 64 tiles on 132 SMs, half of them idle (fill %.3f)", p.fill);
    p = sgemm_plan_for(1024, 1024, 1024, 1024, 1024, 0, 0, &g, sk);
    EXPECT(p.work.whole == 0 && p.work.sk_blocks == 132 && p.fill > 0.95 && p.busiest == 16,
           "1024^3 stream-K: every SM a block (%d blocks, fill %.3f)", p.work.sk_blocks, p.fill);
    p = sgemm_plan_for(4096, 4096, 4096, 4096, 4096, 0, 0, &g, sk);
    EXPECT(p.tiles == 1024 && p.work.whole == 792 && p.sk_tiles == 232 && p.work.sk_blocks == 132,
           "4096^3 stream-K: 6 whole waves, 232 tiles shared (%d, %d, %d)", p.work.whole,
           p.sk_tiles, p.work.sk_blocks);
    p = sgemm_plan_for(4200, 4200, 4097, 4097, 4200, 0, 0, &g, dp);
    EXPECT(p.tiles == 1089 && p.fill < 0.92 && p.busiest == 9 * 129,
           "4200^2 x 4097 data-parallel: 9 tiles on the busiest SM for 8.25 on the average (fill "
           "%.3f)",
           p.fill);
    p = sgemm_plan_for(4097, 4097, 4097, 4097, 4097, 0, 0, &g, dp);
    EXPECT(p.tiles == 1024 && p.edge_rows == 1 && p.edge_cols == 1 && p.busiest == 8 * 129,
           "4097^3: the 65th row and column of tiles peeled, 1024 tiles (%d, edges %d, %d)",
           p.tiles, p.edge_rows, p.edge_cols);
    /* the last wave of 159 blocks on 132 SMs: 4 tiles on 27 of them, against 3 for 120 blocks */
    p = sgemm_plan_for(6007, 1100, 2003, 2004, 1100, 0, 0, &g, dp);
    const long long busiest_159 = p.busiest;
    p = sgemm_plan_for(6144, 1024, 2048, 2048, 1024, 0, 0, &g, dp);
    EXPECT(busiest_159 == 4 * 63 && p.busiest == 3 * 64,
           "the busiest SM counts blocks by the SM: %lld and %lld", busiest_159, p.busiest);
    p = sgemm_plan_for(8192, 8192, 512, 8192, 8192, 0, 0, &g, sk);
    EXPECT(p.work.sk_blocks > 0, "8192 x 8192 x 512: the last waves shared");
    p = sgemm_plan_for(700, 900, 40, 40, 900, 0, 0, &g, sk);
    EXPECT(p.work.sk_blocks == 0, "700 x 900 x 40: too little K to share: data-parallel");
}

/* The edges: the rows and columns peeled off the tiles (up to SGEMM_EDGE_MAX past whole tiles, or
 * all of a side that short), the strips' patches as the edge kernel numbers them, and every
 * element of C written by exactly one of the tiles and the two strips. */
static void test_edges(void) {
    const sgemm_gpu g = h200(), cp = a100();
    const sgemm_choice sk = {SGEMM_TILE_128x128, SGEMM_STREAM_K},
                       wide = {SGEMM_TILE_128x256, SGEMM_DATA_PARALLEL};
    sgemm_plan p = sgemm_plan_for(1031, 1031, 1031, 1031, 1031, 0, 0, &g, sk);
    EXPECT(p.m0 == 1024 && p.n0 == 1024 && p.edge_rows == 7 && p.edge_cols == 7 && p.tiles == 64 &&
               p.edge_patches == 33 + 32 && p.edge_chunks == 5 &&
               p.edge_bytes == (size_t)65 * 5 * SGEMM_EDGE_ROWS * SGEMM_EDGE_COLS * 4,
           "1031^3: 64 tiles, 7 rows and 7 columns of edges in 65 patches of 5 chunks (m0 %d, "
           "tiles %d, patches %d, chunks %d)",
           p.m0, p.tiles, p.edge_patches, p.edge_chunks);
    p = sgemm_plan_for(1100, 4100, 300, 300, 4100, 0, 0, &g, wide);
    EXPECT(p.m0 == 1100 && p.n0 == 4096 && p.edge_rows == 0 && p.edge_cols == 4,
           "1100 x 4100 on 128 x 256: 4 columns peeled, 76 rows kept in the tiles");
    p = sgemm_plan_for(129, 129, 1, 1, 129, 0, 0, &g, sk);
    EXPECT(p.tiles == 1 && p.edge_rows == 1 && p.edge_cols == 1 && p.edge_chunks == 1 &&
               !p.edge_bytes,
           "129 x 129 x 1: one tile, one chunk, no sums kept");
    p = sgemm_plan_for(1000, 20, 300, 300, 20, 0, 0, &g, sk);
    EXPECT(p.tiles == 0 && p.edge_rows == 0 && p.edge_cols == 20 && p.n0 == 0,
           "20 columns: all of them the columns strip");
    const int sides[] = {1, 7, 31, 32, 33, 100, 127, 128, 129, 160, 161, 200, 257, 289};
    const int n = sizeof sides / sizeof sides[0];
    static unsigned char hits[289 * 289];
    for (int gi = 0; gi < 2; ++gi)
        for (int t = 0; t < SGEMM_TILES; ++t)
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    const int M = sides[i], N = sides[j];
                    const sgemm_choice c = {(sgemm_tile)t, SGEMM_STREAM_K};
                    p = sgemm_plan_for(M, N, 600, 600, N, 0, 0, gi ? &cp : &g, c);
                    memset(hits, 0, sizeof hits);
                    for (int r = 0; r < p.m0; ++r) /* the tiles */
                        for (int col = 0; col < p.n0; ++col) ++hits[r * N + col];
                    int patches = 0;
                    for (int strip = 0; strip < 2; ++strip) {
                        const int rows = strip ? p.edge_cols : p.edge_rows, cols = strip ? p.m0 : N;
                        const int np = sgemm_edge_patches_of(rows, cols);
                        const int across = (cols + SGEMM_EDGE_COLS - 1) / SGEMM_EDGE_COLS;
                        for (int q = 0; q < np; ++q)
                            for (int e = 0; e < SGEMM_EDGE_ROWS * SGEMM_EDGE_COLS; ++e) {
                                const int oi = q / across * SGEMM_EDGE_ROWS + e / SGEMM_EDGE_COLS,
                                          oc = q % across * SGEMM_EDGE_COLS + e % SGEMM_EDGE_COLS;
                                if (oi >= rows || oc >= cols) continue;
                                if (strip)
                                    ++hits[oc * N + p.n0 + oi];
                                else
                                    ++hits[(p.m0 + oi) * N + oc];
                            }
                        patches += np;
                    }
                    int once = patches == p.edge_patches;
                    for (int e = 0; e < M * N; ++e) once &= hits[e] == 1;
                    EXPECT(once && M - p.m0 <= SGEMM_EDGE_MAX && N - p.n0 <= SGEMM_EDGE_MAX,
                           "%s %dx%d %s: every element once, by the tiles or one strip",
                           gi ? "A100" : "H200", M, N, sgemm_tile_name(c.tile));
                }
}

/* A table of one shape's five choices (ms, busiest) and a second shape's one. */
static const char TWO[] = "# gpu: x\nM,N,K,tile,split,busiest,median_ms,chosen\n"
                          "1024,1024,1024,128x128,dp,32,0.100,0\n"
                          "1024,1024,1024,128x128,sk,16,0.060,1\n"
                          "1024,1024,1024,128x256,dp,32,0.190,0\n"
                          "1024,1024,1024,128x256,sk,8,0.080,0\n"
                          "1024,1024,1024,128x128_128t,sk,16,0.070,0\n"
                          "8192,8192,8192,128x256,sk,3968,20.0,1\n";

static void test_table(void) {
    static sgemm_table t;
    char why[256];
    const sgemm_gpu g = h200();
    EXPECT(!sgemm_table_parse(sgemm_table_h200, &t, why, sizeof why), "the built-in table: %s",
           why);
    /* the tuner's choices at every shape of the grid: 4, from a tuner before the third tile (whose
     * rows are then missing, and which the choice then never takes), or all of them */
    const int per_shape = t.n / 343;
    EXPECT(t.n % 343 == 0 && (per_shape == 4 || per_shape == 2 * SGEMM_TILES),
           "the built-in table has %d rows, not the grid's 343 x 4 or x %d", t.n, 2 * SGEMM_TILES);
    int third = 0;
    for (int i = 0; i < t.n; ++i) third += t.row[i].choice.tile == SGEMM_TILE_128x128_128T;
    if (!third)
        for (int side = 1000; side <= 9000; side += 1000) {
            const sgemm_choice c = sgemm_table_choice(&t, &g, side, side + 7, side / 2 + 1);
            EXPECT(c.tile != SGEMM_TILE_128x128_128T, "%d: a tile the table has no rows for", side);
        }
    int on_grid = 1;
    for (int i = 0; i < t.n; ++i) {
        const int s[3] = {t.row[i].M, t.row[i].N, t.row[i].K};
        for (int d = 0; d < 3; ++d) {
            int hit = 0;
            for (int side = 1024; side <= 8192; side *= 2)
                hit |= s[d] == side || s[d] == side / 2 * 3;
            on_grid &= hit && s[d] <= 8192;
        }
    }
    EXPECT(on_grid, "every row on the grid 1024, 1536, ..., 8192");

    EXPECT(!sgemm_table_parse(TWO, &t, why, sizeof why) && t.n == 6, "a six-row table: %s", why);
    sgemm_choice c = sgemm_table_choice(&t, &g, 1024, 1024, 1024);
    EXPECT(c.tile == SGEMM_TILE_128x128 && c.split == SGEMM_STREAM_K, "at a row: its fastest");
    /* 1031^3, nearest 1024^3: 81 tiles of 128 x 128 (33 slices), busiest 33 data-parallel and 21
     * stream-K; 45 of 128 x 256, busiest 33 and 12. Predicted: 0.103, 0.079, 0.196, 0.120 ms, and
     * 0.096 for 128 x 128 on 128 threads stream-K (0.070 at a busiest of 16, 22 here). */
    c = sgemm_table_choice(&t, &g, 1031, 1031, 1031);
    EXPECT(c.tile == SGEMM_TILE_128x128 && c.split == SGEMM_STREAM_K, "1031^3: scaled, 128 sk");
    const sgemm_gpu no_wide = {132, 1, {{2, 1}, {0, 0}, {2, 2}}, 0, {0}};
    c = sgemm_table_choice(&t, &no_wide, 1000, 1100, 900);
    EXPECT(c.tile == SGEMM_TILE_128x128, "a tile that does not fit is not chosen");
    /* the third tile where its row is the fastest: data-parallel at 0.050, stream-K within 1% */
    static const char THIRD[] = "M,N,K,tile,split,busiest,median_ms\n"
                                "1024,1024,1024,128x128,sk,16,0.060\n"
                                "1024,1024,1024,128x128_128t,dp,32,0.050\n"
                                "1024,1024,1024,128x128_128t,sk,16,0.0504\n";
    static sgemm_table third_t;
    EXPECT(!sgemm_table_parse(THIRD, &third_t, why, sizeof why), "the third tile's table: %s", why);
    c = sgemm_table_choice(&third_t, &g, 1024, 1024, 1024);
    EXPECT(c.tile == SGEMM_TILE_128x128_128T && c.split == SGEMM_STREAM_K,
           "the third tile's row the fastest: taken, stream-K within 1%% (tile %d, split %d)",
           (int)c.tile, (int)c.split);
    c = sgemm_table_choice(&t, &g, 7001, 6000, 9000);
    EXPECT(c.tile == SGEMM_TILE_128x256 && c.split == SGEMM_STREAM_K, "nearest: 8192^3's only row");
    EXPECT(sgemm_table_parse("M,N,K,tile,busiest,median_ms\n", &t, why, sizeof why),
           "no split column");
    EXPECT(sgemm_table_parse("M,N,K,tile,split,busiest,median_ms\n1,1,1,64x64,dp,1,1\n", &t, why,
                             sizeof why),
           "an unknown tile");
    EXPECT(sgemm_table_parse("M,N,K,tile,split,busiest,median_ms\n1,1,1,128x128,dp,0,1\n", &t, why,
                             sizeof why),
           "a busiest SM of no iterations");
    EXPECT(sgemm_table_parse("M,N,K,tile,split,busiest,median_ms\n", &t, why, sizeof why),
           "no row");
    EXPECT(sgemm_table_parse("M,N,K,tile,split,busiest,median_ms\n1,1\n", &t, why, sizeof why),
           "a short line");
}

int main(int argc, char** argv) {
    const int rc = test_no_arguments(argc, argv);
    if (rc) return rc;
    test_divisions();
    test_packing();
    test_packing_beside();
    test_packing_along();
    test_h200_plans();
    test_edges();
    test_table();
    return test_finish("test_sgemm_plan");
}
