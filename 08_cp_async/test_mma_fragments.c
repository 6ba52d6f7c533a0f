/* The tensor-core part's addressing, proven on the CPU (WIP, issue 12): for 16-bit tiles stored
 * plain, padded and swizzled, an ldmatrix simulated from the rows that mma_fragments.h says to
 * give it delivers, in every lane's registers, exactly the elements mma.m16n8k16 expects (A with
 * ldmatrix.x4, B stored [k][n] with ldmatrix.x4.trans); and the bank model's cost of those rows
 * (rule 4, still a hypothesis) for each layout. Both halves of mma_fragments.h come from the
 * PTX ISA's fragment tables; this test proves they fit each other and the layouts, and the GPU
 * (an ldmatrix + mma on a known tile, still to write) must prove them against the hardware. */
#include "layout.h"
#include "mma_fragments.h"
#include "smem_model.h"
#include "test_util.h"

#include <stdio.h>
#include <string.h>

enum { ROWS = 32, MAX_COLS = 128 };

typedef struct {
    const char* name;
    int cols;    /* halves a row */
    int pad;     /* halves of padding a row */
    int b, m, s; /* Swizzle<B,M,S> on byte offsets; b = 0: none */
} tile_layout;

/* Byte offset of element (r, c). */
static unsigned tile_byte(const tile_layout* t, int r, int c) {
    const unsigned plain = 2u * (unsigned)(r * (t->cols + t->pad) + c);
    return t->b ? layout_swizzle(plain, t->b, t->m, t->s) : plain;
}

/* Shared memory as bytes; element (r, c) of the tile holds the tag r * 256 + c. */
static unsigned char smem[ROWS * (MAX_COLS + 8) * 2];

static void fill(const tile_layout* t) {
    memset(smem, 0xff, sizeof smem);
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < t->cols; ++c) {
            const unsigned at = tile_byte(t, r, c), tag = (unsigned)(r * 256 + c);
            smem[at] = (unsigned char)(tag & 0xff);
            smem[at + 1] = (unsigned char)(tag >> 8);
        }
}

static unsigned half_at(unsigned byte) {
    return smem[byte] | (unsigned)smem[byte + 1] << 8;
}

/* ldmatrix.x4 simulated: rows[l] is lane l's row address; out[lane][i][h] the half that lane
 * receives in register i. A row's 8 halves are its 16 bytes in order. */
static void ldmatrix_x4(const unsigned rows[32], int trans, unsigned out[32][4][2]) {
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i)
            for (int h = 0; h < 2; ++h) {
                int r, c;
                ldmatrix_element(lane, h, trans, &r, &c);
                out[lane][i][h] = half_at(rows[8 * i + r] + 2u * (unsigned)c);
            }
}

/* The A block at (m0, k0): every register of every lane holds A[m0 + row][k0 + col]. */
static void check_a(const tile_layout* t, int m0, int k0, smem_access* access) {
    unsigned rows[32], got[32][4][2];
    for (int l = 0; l < 32; ++l) {
        int r, c;
        ldmatrix_x4_row(l, &r, &c);
        rows[l] = tile_byte(t, m0 + r, k0 + c);
        access->offset[l] = rows[l];
    }
    ldmatrix_x4(rows, 0, got);
    for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 4; ++j)
            for (int h = 0; h < 2; ++h) {
                int r, c;
                mma_a_element(lane, j, h, &r, &c);
                const unsigned want = (unsigned)((m0 + r) * 256 + k0 + c);
                EXPECT(got[lane][j][h] == want,
                       "%s A(%d, %d): lane %d register %d.%d holds %04x, "
                       "mma wants %04x",
                       t->name, m0, k0, lane, j, h, got[lane][j][h], want);
            }
}

/* B stored [k][n] in the same tile (rows k, columns n), the block at (k0, n0), with .trans:
 * registers 0, 1 the n8 tile at n0, registers 2, 3 the one at n0 + 8. */
static void check_b(const tile_layout* t, int k0, int n0, smem_access* access) {
    unsigned rows[32], got[32][4][2];
    for (int l = 0; l < 32; ++l) {
        int r, c;
        ldmatrix_x4_row(l, &r, &c);
        rows[l] = tile_byte(t, k0 + r, n0 + c);
        access->offset[l] = rows[l];
    }
    ldmatrix_x4(rows, 1, got);
    for (int lane = 0; lane < 32; ++lane)
        for (int tile = 0; tile < 2; ++tile)
            for (int j = 0; j < 2; ++j)
                for (int h = 0; h < 2; ++h) {
                    int k, n;
                    mma_b_element(lane, j, h, &k, &n);
                    const unsigned want = (unsigned)((k0 + k) * 256 + n0 + 8 * tile + n);
                    EXPECT(got[lane][2 * tile + j][h] == want,
                           "%s B(%d, %d): lane %d register %d.%d holds %04x, mma wants %04x",
                           t->name, k0, n0, lane, 2 * tile + j, h, got[lane][2 * tile + j][h],
                           want);
                }
}

int main(void) {
    /* Row lengths 16 to 128 halves; plain, padded by 8 halves (16 bytes, the smallest padding
     * that keeps rows 16-byte aligned), and the swizzle that spreads 8 rows over 8 slots. */
    static const tile_layout layouts[] = {
        {"h16 plain", 16, 0, 0, 0, 0},          {"h16 pad8", 16, 8, 0, 0, 0},
        {"h16 Swizzle<1,4,3>", 16, 0, 1, 4, 3}, {"h32 plain", 32, 0, 0, 0, 0},
        {"h32 pad8", 32, 8, 0, 0, 0},           {"h32 Swizzle<2,4,3>", 32, 0, 2, 4, 3},
        {"h64 plain", 64, 0, 0, 0, 0},          {"h64 pad8", 64, 8, 0, 0, 0},
        {"h64 Swizzle<3,4,3>", 64, 0, 3, 4, 3}, {"h128 plain", 128, 0, 0, 0, 0},
        {"h128 pad8", 128, 8, 0, 0, 0},         {"h128 Swizzle<3,4,4>", 128, 0, 3, 4, 4},
    };
    printf("%-22s %18s %18s   (ldmatrix.x4 wavefronts by rule 4, a hypothesis; ideal 4)\n",
           "layout", "A x4 at (0, 0)", "B x4.trans (0, 0)");
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; ++i) {
        const tile_layout* t = &layouts[i];
        fill(t);
        smem_access a = smem_strided(16, SMEM_LDMATRIX, 1, 0), b = a;
        for (int m0 = 0; m0 + 16 <= ROWS; m0 += 16)
            for (int k0 = 0; k0 + 16 <= t->cols; k0 += 16) {
                check_a(t, m0, k0, &a);
                check_b(t, m0, k0, &b);
            }
        /* The cost of the blocks at (0, 0) (the others repeat it for these layouts). */
        check_a(t, 0, 0, &a);
        check_b(t, 0, 0, &b);
        printf("%-22s %18d %18d\n", t->name, smem_wavefronts(&a), smem_wavefronts(&b));
    }
    return test_finish("test_mma_fragments");
}
