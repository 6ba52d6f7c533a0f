/* Shared-memory bank model, calibrated on an H200 (common/calibration/h200.csv: 1066 warp
 * instructions, loads and stores at 1, 2, 4, 8 and 16 bytes; h200_matrix.csv: 1092 ldmatrix and
 * stmatrix instructions; the model reproduces every row).
 *
 * The rules:
 *  1. The warp is served in lane groups: all 32 lanes for 1-, 2- and 4-byte accesses, each
 *     half-warp (16 lanes) for 8-byte, each quarter-warp (8 lanes) for 16-byte, so that one group
 *     asks for at most 128 bytes. Groups are never served in the same wavefront: the instruction
 *     costs the sum of its groups.
 *  2. Within a group, a bank delivers one 4-byte word per wavefront, and lanes asking for the
 *     same word share it, whichever bytes of it each lane wants (a broadcast; for 1- and 2-byte
 *     accesses, loads and stores alike, lanes touching different bytes of one word share it too).
 *     A group costs as many wavefronts as its busiest bank has distinct words; a group with no
 *     active lane costs nothing.
 *  3. Loads only: when lanes pair up on identical addresses (active lanes i and i^1 always read
 *     the same address, or active lanes i and i^2 do; a lane whose partner is inactive does not
 *     count against it), the group doubles: the whole warp for 8-byte loads, half-warps for
 *     16-byte loads. Stores never merge groups.
 *  4. ldmatrix and stmatrix (calibrated on 1092 more rows, calibration/h200_matrix.csv): each
 *     8x8 matrix, the 16-byte rows of 8 lanes, is served alone, as a quarter-warp of a 16-byte
 *     store is (rule 1, rule 2 within it, never rule 3's merge: four matrices on the same rows
 *     still cost 4); .trans moves the same rows and costs the same. So .xN costs at least N.
 * What the half-/quarter-warp rule of thumb misses: rule 3 (a 16-byte broadcast load is 2
 * wavefronts, not 1 and not 4; the same store is 4), and that identical half-warps are not
 * merged (lane i and lane i+16 reading one address still cost 2 wavefronts at 8 bytes). */
#include "model/smem_model.h"

#include <stdio.h>
#include <string.h>

const char* smem_invalid(const smem_access* a) {
    if (a->width != 1 && a->width != 2 && a->width != 4 && a->width != 8 && a->width != 16)
        return "width must be 1, 2, 4, 8 or 16 bytes";
    if (smem_is_matrix_op(a->op) && a->width != 16)
        return "ldmatrix and stmatrix move 16-byte rows";
    if (smem_is_matrix_op(a->op) && a->mask != 0xffu && a->mask != 0xffffu &&
        a->mask != 0xffffffffu)
        return "ldmatrix and stmatrix take the rows of 1, 2 or 4 matrices from lanes 0 up "
               "(mask ff, ffff or ffffffff)";
    for (int lane = 0; lane < SMEM_WARP; ++lane)
        if ((a->mask >> lane & 1u) && a->offset[lane] % a->width != 0)
            return "an offset is not a multiple of the access width";
    return 0;
}

int smem_parse_op(const char* s, smem_op* op, unsigned* matrices, int* trans) {
    if (!strcmp(s, "load") || !strcmp(s, "store")) {
        *op = strcmp(s, "load") ? SMEM_STORE : SMEM_LOAD;
        *matrices = 0;
        *trans = 0;
        return 0;
    }
    static const char* const kinds[] = {"ldmatrix", "stmatrix"};
    for (int k = 0; k < 2; ++k)
        for (unsigned n = 1; n <= 4; n *= 2)
            for (int t = 0; t < 2; ++t) {
                char want[24];
                snprintf(want, sizeof want, "%s.x%u%s", kinds[k], n, t ? ".trans" : "");
                if (!strcmp(s, want)) {
                    *op = k ? SMEM_STMATRIX : SMEM_LDMATRIX;
                    *matrices = n;
                    *trans = t;
                    return 0;
                }
            }
    return -1;
}

static int active(const smem_access* a, int lane) {
    return (int)(a->mask >> lane & 1u);
}

/* Rule 3: does every pair of active lanes i and i ^ k read the same address? (A lane whose
 * partner is inactive does not break the pairing.) */
static int lanes_pair_up(const smem_access* a, int k) {
    for (int lane = 0; lane < SMEM_WARP; ++lane)
        if (active(a, lane) && active(a, lane ^ k) && a->offset[lane] != a->offset[lane ^ k])
            return 0;
    return 1;
}

/* Rule 2 for lanes [first, first + n): the most distinct words any bank must deliver. Also
 * records, for the report, which lanes touch which bank and the words of each bank. */
static int group_wavefronts(const smem_access* a, int first, int n, smem_report* r) {
    unsigned words[SMEM_BANKS][SMEM_WARP * 4];
    int n_words[SMEM_BANKS] = {0};
    int most = 0;
    for (int lane = first; lane < first + n; ++lane) {
        if (!active(a, lane)) continue;
        for (unsigned byte = a->offset[lane]; byte < a->offset[lane] + a->width;
             byte += SMEM_BANK_BYTES) {
            unsigned bank = smem_bank(byte), word = byte / SMEM_BANK_BYTES;
            r->lanes_in_bank[bank] |= 1u << lane;
            int seen = 0;
            for (int i = 0; i < n_words[bank] && !seen; ++i) seen = words[bank][i] == word;
            if (!seen) words[bank][n_words[bank]++] = word;
            if (n_words[bank] > most) most = n_words[bank];
        }
    }
    for (int bank = 0; bank < SMEM_BANKS; ++bank) r->words_in_bank[bank] += n_words[bank];
    return most;
}

/* Rules 1 and 3: how many lanes are served together. */
static int group_size(const smem_access* a) {
    int lanes = SMEM_WAVEFRONT_BYTES / (int)a->width; /* 128, 64, 32, 16 or 8 */
    if (lanes > SMEM_WARP) lanes = SMEM_WARP;
    if (smem_is_matrix_op(a->op)) return 8; /* rule 4: a matrix at a time */
    if (a->op == SMEM_LOAD && lanes < SMEM_WARP && (lanes_pair_up(a, 1) || lanes_pair_up(a, 2)))
        lanes *= 2;
    return lanes;
}

static int count_wavefronts(const smem_access* a, smem_report* r) {
    int group = group_size(a), total = 0;
    memset(r, 0, sizeof *r);
    r->group_lanes = group;
    for (int first = 0; first < SMEM_WARP; first += group) {
        r->group_wavefronts[first / group] = group_wavefronts(a, first, group, r);
        total += r->group_wavefronts[first / group];
    }
    return total;
}

int smem_analyze(const smem_access* a, smem_report* r) {
    if (smem_invalid(a)) return -1;
    /* Ideal: the same instruction with lane i at i * width, the conflict-free baseline. */
    smem_access baseline = smem_strided(a->width, a->op, 1, 0);
    baseline.mask = a->mask;
    int ideal = count_wavefronts(&baseline, r);
    r->wavefronts = count_wavefronts(a, r);
    r->ideal = ideal;
    r->excess = r->wavefronts > ideal ? r->wavefronts - ideal : 0;
    return 0;
}

int smem_wavefronts(const smem_access* a) {
    smem_report r;
    return smem_analyze(a, &r) == 0 ? r.wavefronts : -1;
}

smem_access smem_strided(unsigned width, smem_op op, unsigned stride_elems, unsigned base) {
    smem_access a;
    a.width = width;
    a.op = op;
    a.mask = 0xffffffffu;
    for (int lane = 0; lane < SMEM_WARP; ++lane)
        a.offset[lane] = base + lane * stride_elems * width;
    return a;
}

smem_access smem_tile_access(unsigned width, smem_op op, unsigned rows, unsigned cols,
                             int along_column, unsigned r0, unsigned c0, smem_slot_fn slot,
                             const void* ctx) {
    smem_access a = smem_strided(width, op, 1, 0);
    a.mask = 0;
    for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
        unsigned r = along_column ? r0 + lane : r0, c = along_column ? c0 : c0 + lane;
        if (r >= rows || c >= cols) continue;
        a.mask |= 1u << lane;
        a.offset[lane] = slot(r, c, ctx) * width;
    }
    return a;
}
