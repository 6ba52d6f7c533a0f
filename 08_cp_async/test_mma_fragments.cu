/* The tensor-core part's addressing, proven on the CPU: for 16-bit tiles stored
 * plain, padded and swizzled, an ldmatrix simulated from the rows that mma_fragments.h says to
 * give it delivers, in every lane's registers, exactly the elements mma.m16n8k16 expects (A with
 * ldmatrix.x4, B stored [k][n] with ldmatrix.x4.trans); and the bank model's cost of those rows
 * (rule 4, calibrated: common/calibration/h200_matrix.csv) for each layout. Both halves of
 * mma_fragments.h come from the PTX ISA's fragment tables: --cpu proves they fit each other and the
 * layouts; --gpu proves them against the hardware (sm_80+): one warp loads A (16 x 16) and B (16 x
 * 16, stored [k][n]) from a swizzled tile with ldmatrix.x4 / .x4.trans, runs two mma.m16n8k16, and
 * stores D through mma_d_element; small integers make every product and sum exact, so D must equal
 * the CPU's. */
#include "mma_fragments.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/device.h"
#include "host/rng.h"
#include "host/test_util.h"
#include "model/layout.h"
#include "model/smem_model.h"
#include "ptx/matrix.cuh"
#include "ptx/shared.cuh"

#include <cuda_fp16.h>
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

static void test_cpu(void) {
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
    printf("%-22s %18s %18s   (ldmatrix.x4 wavefronts by rule 4; ideal 4)\n", "layout",
           "A x4 at (0, 0)", "B x4.trans (0, 0)");
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
}

/* ---------------------------------------------------------------- on the GPU */

/* One warp: A and B (16 x 16 halves each) copied into shared memory through Swizzle<1,4,3> on
 * bytes (rows of 32 bytes: the layout test_cpu finds conflict-free; not the plain one, so that a
 * wrong row address shows), loaded with ldmatrix, multiplied by two mma.m16n8k16 (n 0-7 and
 * 8-15). */
__global__ void mma_probe(const __half* A, const __half* B, float* D) {
#if __CUDA_ARCH__ >= 800
    __shared__ __align__(128) __half as[16 * 16], bs[16 * 16];
    const int lane = threadIdx.x;
    for (int e = lane; e < 256; e += 32) { /* element e = (r, c) of both tiles */
        const unsigned at = layout_swizzle(2u * (unsigned)e, 1, 4, 3) / 2;
        as[at] = A[e];
        bs[at] = B[e];
    }
    __syncwarp();
    int r, c;
    ldmatrix_x4_row(lane, &r, &c);
    const unsigned a_row = smem_address(as) + layout_swizzle(2u * (unsigned)(r * 16 + c), 1, 4, 3),
                   b_row = smem_address(bs) + layout_swizzle(2u * (unsigned)(r * 16 + c), 1, 4, 3);
    unsigned a[4], b[4];
    ldmatrix<4, false>(a, a_row);
    ldmatrix<4, true>(b, b_row);
    for (int tile = 0; tile < 2; ++tile) {
        float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        mma_m16n8k16(d, a, b[2 * tile], b[2 * tile + 1]);
        for (int i = 0; i < 4; ++i) {
            int row, col;
            mma_d_element(lane, i, &row, &col);
            D[row * 16 + 8 * tile + col] = d[i];
        }
    }
#else
    (void)A, (void)B, (void)D;
    __trap();
#endif
}

static int test_gpu(void) {
    course_device dev;
    const char* what = "the fragments test (ldmatrix, mma.sync.m16n8k16)";
    int rc = course_device_open(&dev, 7, 5, what);
    if (rc != EXIT_OK) return rc;
    const course_needs need = {80, "mma.sync.m16n8k16", 0, 32, 0};
    rc = course_require_kernel(&dev, (const void*)mma_probe, &need, what);
    if (rc != EXIT_OK) return rc;
    course_buffer A = course_buffer_alloc(256 * sizeof(__half)),
                  B = course_buffer_alloc(256 * sizeof(__half)), D = course_buffer_alloc(256 * 4);
    __half *hA = (__half*)A.host, *hB = (__half*)B.host;
    const float* got = (const float*)D.host;
    float a[256], b[256], want[256];
    unsigned long long seed = 12;
    for (int e = 0; e < 256; ++e) { /* small integers: every product and sum exact in fp32 */
        a[e] = (float)((int)(rng_u32(&seed) % 7) - 3);
        b[e] = (float)((int)(rng_u32(&seed) % 7) - 3);
        hA[e] = __float2half(a[e]);
        hB[e] = __float2half(b[e]);
    }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            float s = 0.0f;
            for (int k = 0; k < 16; ++k) s += a[i * 16 + k] * b[k * 16 + j];
            want[i * 16 + j] = s;
        }
    course_buffer_upload(&A);
    course_buffer_upload(&B);
    course_buffer_poison(&D); /* NaN: an element no lane writes stays NaN */
    mma_probe<<<1, 32>>>((const __half*)A.dev, (const __half*)B.dev, (float*)D.dev);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&D);
    for (int e = 0; e < 256; ++e)
        EXPECT(got[e] == want[e], "D[%d][%d] = %g, the CPU's %g", e / 16, e % 16, got[e], want[e]);
    course_buffer_free(&A);
    course_buffer_free(&B);
    course_buffer_free(&D);
    return EXIT_OK;
}

int main(int argc, char** argv) {
    return test_main_cpu_gpu(argc, argv, "test_mma_fragments", test_cpu, test_gpu);
}
