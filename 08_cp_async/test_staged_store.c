/* Chapter 08, part 4, on the CPU: C's tile staged in shared memory (gemm_tma's STAGED_C) against
 * the bank model, for the geometries of sgemm_auto's three TMA tiles: every float4 store of the
 * lanes' micro-tiles into the tile takes the 4 wavefronts 512 bytes need, and every read of a row,
 * a float a lane, one. Without the pad, the geometries of 16 columns a lane, whose quarter-warps
 * span two rows (8 lanes along M), conflict 2 ways: the reason for it. */
#include "gemm_async.h"
#include "model/smem_model.h"
#include "host/test_util.h"

/* Store (hm, i, hn) of warp w, all lanes: float4s at the lanes' micro-tile rows and columns, the
 * tile's rows bn + pad floats apart. */
static smem_access tile_store(const async_geometry* g, int w, int hm, int i, int hn, int pad) {
    smem_access s;
    memset(&s, 0, sizeof s);
    s.width = 16, s.op = SMEM_STORE, s.mask = 0xffffffffu;
    for (int l = 0; l < 32; ++l) {
        const async_lane o = async_lane_origin(g->bn, g->lanes_m, g->tn, g->interleave, w * 32 + l);
        const int r = o.row0 + hm * o.step_m + i * o.row_step, c = o.col0 + hn * o.step_n;
        s.offset[l] =
            (unsigned)(pad == STAGED_C_PAD ? staged_c_slot(g->bn, r, c) : r * (g->bn + pad) + c) *
            4;
    }
    return s;
}

/* The most wavefronts any store of the geometry takes, the tile's rows bn + pad apart. */
static int worst_store(const async_geometry* g, int pad) {
    int worst = 0;
    for (int w = 0; w < g->nt / 32; ++w)
        for (int hm = 0; hm < 2; ++hm)
            for (int i = 0; i < QUAD; ++i)
                for (int hn = 0; hn < g->tn / QUAD; ++hn) {
                    const smem_access s = tile_store(g, w, hm, i, hn, pad);
                    const int n = smem_wavefronts(&s);
                    if (n > worst) worst = n;
                }
    return worst;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    static const struct {
        const char* name;
        async_geometry g;
        int conflicts_unpadded;
    } geos[] = {
        {"128 x 128, 256 threads, 8 x 8 a lane (auto, tma_3)",
         {128, 128, 32, 256, 4, 8, 0, ASYNC_A_SWIZZLED},
         0},
        {"128 x 256, 256 threads, 8 x 16 a lane (auto, tma_wide_256)",
         {128, 256, 32, 256, 8, 16, 1, ASYNC_A_SWIZZLED},
         1},
        {"128 x 128, 128 threads, 8 x 16 a lane (auto, tma_wide_3)",
         {128, 128, 32, 128, 8, 16, 1, ASYNC_A_SWIZZLED},
         1},
    };
    for (size_t k = 0; k < sizeof geos / sizeof geos[0]; ++k) {
        const async_geometry* g = &geos[k].g;
        const int padded = worst_store(g, STAGED_C_PAD), plain = worst_store(g, 0);
        EXPECT(padded == 4, "%s: a float4 store of the staged tile takes %d wavefronts, not 4",
               geos[k].name, padded);
        EXPECT(geos[k].conflicts_unpadded ? plain == 8 : plain == 4,
               "%s: without the pad a store takes %d wavefronts (expected %d)", geos[k].name, plain,
               geos[k].conflicts_unpadded ? 8 : 4);
        /* the rows' reads: a warp a row, a float a lane */
        int worst_read = 0;
        for (int r = 0; r < g->bm; ++r)
            for (int c0 = 0; c0 < g->bn; c0 += 32) {
                smem_access s;
                memset(&s, 0, sizeof s);
                s.width = 4, s.op = SMEM_LOAD, s.mask = 0xffffffffu;
                for (int l = 0; l < 32; ++l)
                    s.offset[l] = (unsigned)staged_c_slot(g->bn, r, c0 + l) * 4;
                const int n = smem_wavefronts(&s);
                if (n > worst_read) worst_read = n;
            }
        EXPECT(worst_read == 1, "%s: a row's read takes %d wavefronts", geos[k].name, worst_read);
        printf("%s: stores %d wavefronts (%d without the pad), reads %d\n", geos[k].name, padded,
               plain, worst_read);
    }
    return test_finish("test_08_staged_store");
}
