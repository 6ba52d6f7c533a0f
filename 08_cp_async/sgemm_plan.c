/* Chapter 08, part 4: sgemm_auto's plan and table (sgemm_auto.h), on the host. */
#include "sgemm_auto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char* sgemm_tile_name(sgemm_tile t) {
    return t == SGEMM_TILE_128x256        ? "128x256"
           : t == SGEMM_TILE_128x128_128T ? "128x128_128t"
                                          : "128x128";
}
const char* sgemm_split_name(sgemm_split s) {
    return s == SGEMM_STREAM_K ? "sk" : "dp";
}

/* ---------------------------------------------------------------- the table */

/* The index of `name` among the comma-separated fields of a header line, or -1. */
static int column_of(const char* header, const char* name) {
    int i = 0;
    const size_t n = strlen(name);
    for (const char* f = header; f; ++i) {
        if (!strncmp(f, name, n) && (f[n] == ',' || f[n] == '\n' || f[n] == '\r' || !f[n]))
            return i;
        f = strchr(f, ',');
        if (f) ++f;
    }
    return -1;
}

/* Field i of a line, copied into out. Returns 0, or -1 if the line has fewer. */
static int field(const char* line, int i, char* out, size_t len) {
    for (; i > 0; --i) {
        line = strchr(line, ',');
        if (!line) return -1;
        ++line;
    }
    size_t n = strcspn(line, ",\r\n");
    if (n >= len) n = len - 1;
    memcpy(out, line, n);
    out[n] = 0;
    return 0;
}

int sgemm_table_parse(const char* text, sgemm_table* t, char* why, size_t why_len) {
    static const char* NAMES[] = {"M", "N", "K", "tile", "split", "median_ms", "busiest"};
    enum { COLUMNS = sizeof NAMES / sizeof NAMES[0] };
    int col[COLUMNS], have_header = 0, line_no = 0;
    t->n = 0;
    for (const char* line = text; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        ++line_no;
        if (*line == '#' || *line == '\n' || *line == '\r') continue;
        if (!have_header) {
            for (int c = 0; c < COLUMNS; ++c)
                if ((col[c] = column_of(line, NAMES[c])) < 0) {
                    snprintf(why, why_len, "no column '%s' in the header", NAMES[c]);
                    return -1;
                }
            have_header = 1;
            continue;
        }
        char f[COLUMNS][32];
        for (int c = 0; c < COLUMNS; ++c)
            if (field(line, col[c], f[c], sizeof f[c])) {
                snprintf(why, why_len, "line %d has too few fields", line_no);
                return -1;
            }
        sgemm_table_row r;
        r.M = atoi(f[0]), r.N = atoi(f[1]), r.K = atoi(f[2]);
        int tile = -1;
        for (int k = 0; k < SGEMM_TILES; ++k)
            if (!strcmp(f[3], sgemm_tile_name((sgemm_tile)k))) tile = k;
        const int split = !strcmp(f[4], "dp") ? 0 : !strcmp(f[4], "sk") ? 1 : -1;
        r.ms = atof(f[5]);
        r.busiest = atoll(f[6]);
        if (r.M < 1 || r.N < 1 || r.K < 1 || tile < 0 || split < 0 || !(r.ms > 0) ||
            r.busiest < 1) {
            snprintf(why, why_len, "line %d: a shape, choice, time or count it cannot read",
                     line_no);
            return -1;
        }
        if (t->n == SGEMM_TABLE_MAX) {
            snprintf(why, why_len, "more than %d rows", SGEMM_TABLE_MAX);
            return -1;
        }
        r.choice.tile = (sgemm_tile)tile, r.choice.split = (sgemm_split)split;
        t->row[t->n++] = r;
    }
    if (!t->n) {
        snprintf(why, why_len, "no row");
        return -1;
    }
    return 0;
}

static double log2_distance(int a, int b) {
    return fabs(log2((double)(a > 0 ? a : 1)) - log2((double)(b > 0 ? b : 1)));
}

sgemm_choice sgemm_table_choice(const sgemm_table* t, const sgemm_gpu* g, int M, int N, int K) {
    int nearest = 0;
    double best_d = INFINITY;
    for (int i = 0; i < t->n; ++i) {
        const sgemm_table_row* r = &t->row[i];
        const double d = log2_distance(M, r->M) + log2_distance(N, r->N) + log2_distance(K, r->K);
        if (d < best_d - 1e-12) nearest = i, best_d = d;
    }
    const sgemm_table_row* at = &t->row[nearest];
    /* the predicted time of each choice there, by tile and split; INFINITY: not measured, or its
     * tile does not fit on g */
    double ms[SGEMM_TILES][2];
    for (int tile = 0; tile < SGEMM_TILES; ++tile) ms[tile][0] = ms[tile][1] = INFINITY;
    for (int i = 0; i < t->n; ++i) {
        const sgemm_table_row* r = &t->row[i];
        if (r->M != at->M || r->N != at->N || r->K != at->K ||
            g->blocks_per_sm[r->choice.tile][r->choice.split] < 1)
            continue;
        const sgemm_plan p = sgemm_plan_for(M, N, K, K, N, 0, 0, g, r->choice);
        ms[r->choice.tile][r->choice.split] = r->ms * (double)p.busiest / (double)r->busiest;
    }
    sgemm_choice best = at->choice;
    double best_ms = INFINITY;
    for (int tile = 0; tile < SGEMM_TILES; ++tile)
        for (int split = 0; split < 2; ++split)
            if (ms[tile][split] < best_ms) {
                best_ms = ms[tile][split];
                best.tile = (sgemm_tile)tile, best.split = (sgemm_split)split;
            }
    if (isfinite(best_ms) && best.split == SGEMM_DATA_PARALLEL &&
        ms[best.tile][SGEMM_STREAM_K] <= 1.01 * best_ms)
        best.split = SGEMM_STREAM_K;
    return best;
}

/* ---------------------------------------------------------------- the plan */

/* A stream-K block below this many K elements spends more on its pipeline's start and its part's
 * store than it saves. */
enum { SK_MIN_K = 128 };

/* Packing beside the tiles: what a spare SM packs against what an SM of tiles computes (bytes a
 * FLOP, results/NOTES.md), and the share of it counted on, for the chunks' steps and the spare
 * blocks' start. */
#define SPARE_BYTES_PER_FLOP 0.112
#define SPARE_MARGIN         0.85

/* Packing alongside the walk: what the packing grid moves (bytes, read and written) for each FLOP
 * the tiles do, alone on the GPU with two warps an SM (it runs four, so at least this; H100, 1531
 * x 1531 x 8191: 200 MB in 257 us against 38.4 GFLOP in 842 us), and the share of it a plan may
 * need: at 0.33 the call gained 4%, at 0.65 it broke even (results/h100_pack_along.txt). */
#define ALONG_BYTES_PER_FLOP 0.0171
#define ALONG_SHARE          0.5

/* Blocks resident at once of a tile's kernel for a split. */
static int slots_of(const sgemm_gpu* g, sgemm_tile tile, sgemm_split split) {
    const int n = g->sms * g->blocks_per_sm[tile][split];
    return n > 0 ? n : 1;
}

static int round_up4(int n) {
    return (n + 3) / 4 * 4;
}

/* The busiest SM's iterations, for blocks of w on `sms` SMs: the data-parallel blocks dealt out
 * evenly (an SM takes its next block as one of its own ends), then the stream-K ranges, as many a
 * SM as there are blocks for each. Counted by the SM, not by the slot: two blocks resident on
 * one SM share its issue slots, so an SM's time follows the sum of its blocks' iterations. (By
 * the slot, a last wave of 159 blocks on 132 SMs of 2 slots looked as short as one of 120; it
 * takes a third longer, as 4 tiles on an SM do against 3. Predicting each of the table's shapes
 * from its nearest neighbour, the slot count missed by 5.8% rms, this by 1.7%.) */
static long long busiest_of(const gemm_work* w, int sms) {
    if (!w->sk_blocks) return (w->whole + sms - 1) / sms * (long long)w->slices;
    /* whole is a number of full waves of slots here, so it falls evenly on the SMs */
    return (long long)(w->whole / sms) * w->slices +
           (long long)((w->sk_blocks + sms - 1) / sms) *
               ((w->sk_iters + w->sk_blocks - 1) / w->sk_blocks);
}

sgemm_plan sgemm_plan_for(int M, int N, int K, int lda, int ldb, uintptr_t a, uintptr_t b,
                          const sgemm_gpu* g, sgemm_choice choice) {
    sgemm_plan p;
    memset(&p, 0, sizeof p);
    /* A tile whose kernel does not fit on this GPU (128 x 256 on the TMA takes 145 KiB of shared
     * memory, more than sm_86, sm_89 and sm_120 give a block): the first that does. */
    for (int t = 0; t < SGEMM_TILES && g->blocks_per_sm[choice.tile][choice.split] < 1; ++t)
        if (g->blocks_per_sm[t][choice.split] >= 1) choice.tile = (sgemm_tile)t;
    p.choice = choice;
    p.nothing = M == 0 || N == 0;
    p.scale_only = !p.nothing && K == 0;
    p.tma = g->tma;
    p.bm = 128;
    p.bn = sgemm_tile_bn(choice.tile);
    p.bk = p.tma ? 32 : 8;
    p.lda = lda, p.ldb = ldb;
    p.vec = 1;
    if (p.nothing || p.scale_only) return p;

    /* The edges: a last row of tiles with 7 rows of 128 in use costs what a whole row of tiles
     * does; peeled off, its 7 rows cost the edge kernel a pass over B (the columns strip: over A),
     * at the memory's speed. Where M or N is at most SGEMM_EDGE_MAX, no tile is left. */
    const int rm = M % p.bm, rn = N % p.bn;
    p.m0 = rm > 0 && rm <= SGEMM_EDGE_MAX ? M - rm : M;
    p.n0 = rn > 0 && rn <= SGEMM_EDGE_MAX ? N - rn : N;
    p.edge_rows = M - p.m0;
    p.edge_cols = p.m0 ? N - p.n0 : 0;
    p.edge_patches =
        sgemm_edge_patches_of(p.edge_rows, N) + sgemm_edge_patches_of(p.edge_cols, p.m0);
    p.edge_chunks = (K + SGEMM_EDGE_KC - 1) / SGEMM_EDGE_KC;
    if (p.edge_patches && p.edge_chunks > 1)
        p.edge_bytes =
            (size_t)p.edge_patches * p.edge_chunks * SGEMM_EDGE_ROWS * SGEMM_EDGE_COLS * 4;

    /* The TMA maps rows whose stride is a multiple of 16 bytes from a 16-byte aligned base, and
     * fills zeros past K and N itself. cp.async's 16-byte copies need the same of the rows and
     * whole chunks inside them (K, N multiples of 4), or a zero-padded copy to read past them.
     * The tiles read A's first m0 rows and B's first n0 columns, and only they are packed. */
    const int tiled = p.m0 > 0 && p.n0 > 0;
    const int a_ok = sgemm_rows_aligned(a, lda) && (p.tma || K % 4 == 0);
    const int b_ok = sgemm_rows_aligned(b, ldb) && (p.tma || p.n0 % 4 == 0);
    if (tiled && !a_ok)
        p.pack_a = 1, p.lda = round_up4(K), p.pack_a_bytes = (size_t)p.m0 * p.lda * 4;
    if (tiled && !b_ok)
        p.pack_b = 1, p.ldb = round_up4(p.n0), p.pack_b_bytes = (size_t)K * p.ldb * 4;

    p.tiles_m = (p.m0 + p.bm - 1) / p.bm;
    p.tiles_n = (p.n0 + p.bn - 1) / p.bn;
    p.tiles = p.tiles_m * p.tiles_n;
    p.slots = slots_of(g, choice.tile, choice.split);
    const int slices = (K + p.bk - 1) / p.bk;
    p.work = gemm_work_tiles(p.tiles_m, p.tiles_n, slices);

    if (choice.split == SGEMM_STREAM_K) {
        /* Whole waves of tiles stay data-parallel but the last one; the rest (one to two waves'
         * worth, or every tile when there is less than a wave) is shared by one block a slot,
         * none of them with fewer than SK_MIN_K of K. */
        const int P = p.slots, T = p.tiles;
        const int whole = T >= 2 * P ? (T / P - 1) * P : 0, rest = T - whole;
        const long long iters = (long long)rest * slices;
        const int min_iters = (SK_MIN_K + p.bk - 1) / p.bk;
        long long blocks = iters / min_iters;
        if (blocks > P) blocks = P;
        /* Worth it only where the blocks fill every slot or outnumber the tiles, and where the
         * ranges do not fall on tile boundaries anyway (data-parallel by another name). */
        const int dp_anyway = blocks > 0 && iters % blocks == 0 && iters / blocks % slices == 0;
        if (blocks >= (P < rest + 1 ? P : rest + 1) && !dp_anyway) {
            p.work.whole = whole;
            p.work.sk_blocks = (int)blocks;
            p.work.sk_iters = iters;
            p.sk_tiles = rest;
            p.partial_bytes = (size_t)2 * blocks * p.bm * p.bn * 4;
        }
    }
    /* Packing alongside the walk: where a first wave of whole tiles starts every slot at k = 0,
     * their K fronts move together, and a packing grid running beside them (pack_beside.cuh)
     * need only keep a chunk ahead; stream-K's usual ranges, which start anywhere in K, would
     * need every chunk at once. With P <= T < 2P tiles the walk then takes P whole tiles and
     * shares the T - P left among P blocks, its busiest SM's count within a slice of the
     * ranges' (each at least SK_MIN_K of K, or the packing stays first). Per unit of K the
     * wave's tiles take 2 bm bn P FLOP and the packing moves 8 (m0 + n0) bytes: where that is
     * more than ALONG_SHARE of what the packers keep up with, the tiles would wait for them. */
    if ((p.pack_a || p.pack_b) && p.tma && p.work.sk_blocks && g->pack_along[choice.tile] &&
        p.tiles >= p.slots) {
        const int P = p.slots, chunks = (K + SGEMM_PACK_CHUNK_K - 1) / SGEMM_PACK_CHUNK_K;
        const long long shared = (long long)(p.tiles - P) * slices;
        const int spread = p.work.whole > 0 || shared / P >= (SK_MIN_K + p.bk - 1) / p.bk;
        const double moved = 8.0 * ((p.pack_a ? p.m0 : 0) + (p.pack_b ? p.n0 : 0)),
                     kept_up = ALONG_BYTES_PER_FLOP * 2.0 * p.bm * p.bn * P;
        if (spread && moved <= ALONG_SHARE * kept_up && chunks <= SGEMM_PACK_MAX_CHUNKS) {
            if (!p.work.whole) {
                p.work.whole = P;
                p.work.sk_blocks = P;
                p.work.sk_iters = shared;
                p.sk_tiles = p.tiles - P;
                p.partial_bytes = (size_t)2 * P * p.bm * p.bn * 4;
            }
            p.pack_along = g->pack_along[choice.tile], p.pack_chunks = chunks;
        }
    }
    if (!p.work.sk_blocks) p.slots = slots_of(g, choice.tile, SGEMM_DATA_PARALLEL); /* its kernel */
    p.busiest = busiest_of(&p.work, g->sms);
    p.fill = p.busiest > 0 ? (double)p.tiles * slices / g->sms / (double)p.busiest : 1.0;

    /* Packing beside the tiles: where one data-parallel wave of 128 x 256 TMA tiles leaves blocks
     * over, those pack A and B a chunk of K at a time while the tiles run, each tile waiting only
     * for the chunk it is about to copy. What they cannot pack in the tiles' time is packed
     * first, by every block. A spare SM packs about SPARE_BYTES_PER_FLOP bytes (read and written)
     * for each FLOP an SM of tiles does (H100: 40 GB/s against 357 GFLOP/s, 2047^3); per unit of
     * K, a wave's tiles take 2 bm bn FLOP and the packing moves 8 (m0 + n0) bytes. Where more
     * than half of K would be packed first, packing first was as fast, less steadily (H100). */
    if ((p.pack_a || p.pack_b) && p.tma && g->pack_beside && !p.work.sk_blocks &&
        choice.tile == SGEMM_TILE_128x256 && p.tiles < p.slots) {
        const int spare = p.slots - p.tiles;
        const int chunks = (K + SGEMM_PACK_CHUNK_K - 1) / SGEMM_PACK_CHUNK_K;
        const double moved = 8.0 * ((p.pack_a ? p.m0 : 0) + (p.pack_b ? p.n0 : 0)),
                     share =
                         SPARE_MARGIN * spare * SPARE_BYTES_PER_FLOP * 2.0 * p.bm * p.bn / moved;
        const int lead = share >= 1.0 ? 1 : (int)ceil((1.0 - share) * chunks);
        if (2 * lead <= chunks && chunks <= SGEMM_PACK_MAX_CHUNKS)
            p.pack_spare = spare, p.pack_chunks = chunks, p.pack_lead = lead;
    }
    return p;
}

void sgemm_plan_describe(const sgemm_plan* p, char* out, size_t len) {
    if (p->nothing) {
        snprintf(out, len, "nothing to do (M or N is 0)");
        return;
    }
    if (p->scale_only) {
        snprintf(out, len, "K = 0: C = beta C");
        return;
    }
    int n = snprintf(out, len, "%s %s, %s: %d tiles on %d slots", sgemm_tile_name(p->choice.tile),
                     sgemm_split_name(p->choice.split), p->tma ? "TMA" : "cp.async", p->tiles,
                     p->slots);
    if (p->work.sk_blocks)
        n += snprintf(out + n, len - n, ", %d whole + %d shared by %d blocks", p->work.whole,
                      p->sk_tiles, p->work.sk_blocks);
    n += snprintf(out + n, len - n, ", fill %.0f%%", 100 * p->fill);
    if (p->edge_rows || p->edge_cols)
        n += snprintf(out + n, len - n, ", edges %d rows + %d columns", p->edge_rows, p->edge_cols);
    if (p->pack_a || p->pack_b)
        n += snprintf(out + n, len - n, ", %s packed",
                      p->pack_a && p->pack_b ? "A and B"
                      : p->pack_a            ? "A"
                                             : "B");
    if (p->pack_spare)
        snprintf(out + n, len - n, " beside the tiles by %d spare blocks (%d of %d chunks first)",
                 p->pack_spare, p->pack_lead, p->pack_chunks);
    if (p->pack_along)
        snprintf(out + n, len - n, " alongside the walk by %d blocks of their own (%d chunks)",
                 p->pack_along, p->pack_chunks);
}
