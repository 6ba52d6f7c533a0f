/* Chapter 08, part 3's last step (sm_90): the tensor-core GEMM fed by the TMA, as the SGEMM's
 * gemm_tma is. Each slice of 64 k is one box of A (64 halves x BM rows) and BN / 64 boxes of B
 * (64 halves x 64 rows), all in the TMA's 128B swizzle: panels of 128-byte rows, Swizzle<3,3,3>
 * on half offsets (hg_tile's HG_TMA), which chapter 04's rule makes conflict-free for ldmatrix,
 * .x4 on A and .x4.trans on B alike. The warps' work is hgemm_mma's: 64 x 64 each, fragments one
 * k16 step ahead.
 *
 * What the TMA takes off the warps: hgemm_mma's threads each issue 12 cp.async a slice, with
 * their addresses and edge tests (about 100 instructions a slice in its SASS); here thread 0
 * issues 3 copies, and the copy engine zero-fills what lies past the matrix. The loop keeps one
 * barrier a slice: after it, every warp has read slice t's stage (its last fragments were loaded
 * a step earlier), and thread 0 refills that stage with slice t + STAGES; STAGES slices are in
 * flight, one more than hgemm_mma's cp.async pipeline keeps.
 *
 * Every stage is 1 KiB aligned: the 128B swizzle is a pattern of the address bits. The tensor
 * maps need 16-byte aligned rows (K and N multiples of 8): hgemm.cu falls back to hgemm_mma on
 * other shapes. */
#ifndef HGEMM_TMA_KERNELS_CUH
#define HGEMM_TMA_KERNELS_CUH

#include "hgemm_kernels.cuh"
#include "tma.cuh"

enum { HG_TMA_BK = 64 };

template <int BM, int BN, int STAGES>
constexpr __host__ __device__ int hgemm_tma_smem_bytes() {
    /* + the slack to align the base */
    return hgemm_smem_bytes<BM, BN, HG_TMA_BK, STAGES, HG_TMA>() + TMA_ALIGN;
}

template <int BM, int BN, int STAGES>
__global__ void __launch_bounds__(BM / 64 * (BN / 64) * 32)
    hgemm_tma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
              float* __restrict__ C, int M, int N, int K, float alpha, float beta) {
#if __CUDA_ARCH__ >= 900
    constexpr int BK = HG_TMA_BK, MT = 4, NT8 = 8, KS = BK / 16;
    typedef hg_stage<BM, BN, BK, HG_TMA> Stage;
    typedef typename Stage::A TA;
    typedef typename Stage::B TB;
    constexpr unsigned STAGE_BYTES = Stage::HALVES * 2;
    static_assert(STAGE_BYTES % TMA_ALIGN == 0, "every stage 1 KiB aligned");
    static_assert(STAGES >= 2, "a stage to compute on and one to fill");
    extern __shared__ uint4 hg_smem[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const unsigned raw = smem_address(hg_smem),
                   base = (raw + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN;
    const __half* const smem = reinterpret_cast<const __half*>(
        reinterpret_cast<const unsigned char*>(hg_smem) + (base - raw));

    const hg_place p = hg_place_of<BM, BN, BK>(M, N, K);
    const int tid = p.tid, lane = p.lane, wm = p.wm, wn = p.wn, bm = p.bm, bn = p.bn;
    const int slices = p.slices;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) mbarrier_init(smem_address(&full[s]), 1);
        /* make the initialised barriers visible to the copy engine (the async proxy) */
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();

    /* Slice t into stage s, by thread 0: the byte count, then A's box at (k, bm) and B's panels
     * at (bn + 64 panel, k). The fence orders the block's earlier reads of the stage (the generic
     * proxy, ordered before this thread by the barrier) before the copy engine's writes. */
    auto issue = [&](int t, int s) {
        const unsigned bar = smem_address(&full[s]), a = base + s * STAGE_BYTES,
                       b = a + TA::HALVES * 2;
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        mbarrier_expect_bytes(bar, STAGE_BYTES);
        tma_load_2d(a, &map_a, t * BK, bm, bar);
#pragma unroll
        for (int panel = 0; panel < BN / 64; ++panel)
            tma_load_2d(b + TB::at(0, 64 * panel) * 2, &map_b, bn + 64 * panel, t * BK, bar);
    };

    int a_off[KS], b_off[NT8 / 2];
    hg_lane_offsets<TA, TB, KS>(a_off, b_off, wm, wn, lane);
    unsigned af[2][MT][4], bf[2][NT8 / 2][4];
    auto fragments = [&](int buf, int s, int ks) {
        const __half* a = smem + s * Stage::HALVES;
        hg_fragments<16 * TA::STRIDE>(af[buf], bf[buf], a + a_off[ks],
                                      a + TA::HALVES + 16 * ks * TB::STRIDE, b_off);
    };

    float acc[MT][NT8][4] = {};
    if (tid == 0)
        for (int t = 0; t < STAGES && t < slices; ++t) issue(t, t);
    if (slices > 0) {
        mbarrier_wait(smem_address(&full[0]), 0);
        fragments(0, 0, 0);
    }
    /* Slice t is in stage s, whose barrier completes its phase number t / STAGES: parity `phase`.
     * Before the last step of slice t: the barrier (slice t's stage is read), its refill, and the
     * wait for slice t + 1, whose first fragments that step loads. */
    int s = 0, phase = 0;
    for (int t = 0; t < slices; ++t) {
        const int s_next = s + 1 == STAGES ? 0 : s + 1;
        const int phase_next = s + 1 == STAGES ? phase ^ 1 : phase;
#pragma unroll
        for (int ks = 0; ks < KS; ++ks) {
            if (ks == KS - 1) {
                __syncthreads();
                if (tid == 0 && t + STAGES < slices) issue(t + STAGES, s);
                if (t + 1 < slices) mbarrier_wait(smem_address(&full[s_next]), phase_next);
            }
            if (ks + 1 < KS)
                fragments((ks + 1) % 2, s, ks + 1);
            else if (t + 1 < slices)
                fragments(0, s_next, 0);
            hg_mma_step(acc, af[ks % 2], bf[ks % 2]);
        }
        s = s_next;
        phase = phase_next;
    }
    hg_store(C, M, N, bm + wm, bn + wn, acc, alpha, beta, lane);
#else
    (void)map_a, (void)map_b, (void)C, (void)M, (void)N, (void)K, (void)alpha, (void)beta;
    __trap();
#endif
}

#endif
