/* store_experiment: why chapter 02's 16-byte row stores count more wavefronts in the full
 * tile kernel than the model (and the calibration, one instruction alone) say.
 *
 * One 32 x 32 tile of 16-byte elements, rows padded by PAD elements, blocks of 256 threads, one
 * full wave of them as in tile_transpose (8 per SM on the H200); each warp stores rows, lane =
 * column (the model: 4 wavefronts per store at every pad). The stored values come three ways:
 *   direct     each store right after its own global load (tile_transpose before 2026-11-30);
 *   staged     all of a thread's global loads first, then a barrier, then the stores
 *              (tile_transpose's order now);
 *   registers  no global load at all: values computed from the indices.
 * Nsight Compute counts the store wavefronts per store instruction of each launch
 * (calibrate.py stores runs it); the program prints one line per launch: mode, pad, model. */
#include "device/sm_limits.cuh"
#include "host/check.h"
#include "host/device.h"
#include "model/smem_model.h"
#include "ptx/shared.cuh"

#include <stdio.h>

enum { THREADS = 256, ROWS = 32, COLS = 32, PER_THREAD = ROWS * COLS / THREADS };
enum mode { DIRECT, STAGED, REGISTERS };
static const char* const MODE_NAMES[] = {"direct", "staged", "registers"};

template <int PAD, int MODE>
__global__ void __launch_bounds__(THREADS, COURSE_MIN_BLOCKS(THREADS, 8))
    store_experiment(const uint4* in, unsigned* sums) {
    __shared__ uint4 tile[ROWS * (COLS + PAD)];
    const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    const uint4* src = in + (size_t)blockIdx.x * ROWS * COLS;
    const unsigned tile_addr = smem_address(tile);
    uint4 v[PER_THREAD];
#pragma unroll
    for (int k = 0; k < PER_THREAD; ++k) {
        unsigned r = warp + 8u * k;
        if (MODE == REGISTERS)
            v[k] = make_uint4(r, lane, blockIdx.x, k);
        else
            v[k] = src[r * COLS + lane];
        if (MODE == DIRECT) st_shared(tile_addr + (r * (COLS + PAD) + lane) * 16u, v[k]);
    }
    if (MODE != DIRECT) {
        __syncthreads();
#pragma unroll
        for (int k = 0; k < PER_THREAD; ++k)
            st_shared(tile_addr + ((warp + 8u * k) * (COLS + PAD) + lane) * 16u, v[k]);
    }
    __syncthreads();
    /* Read one element back so that the stores are used. */
    sums[blockIdx.x * THREADS + threadIdx.x] =
        word_sum(ld_shared<16>(tile_addr + (lane * (COLS + PAD) + warp) * 16u));
}

typedef void (*kernel_fn)(const uint4*, unsigned*);

/* Each kernel in one full wave: as many blocks as the occupancy API says the GPU holds at once
 * (`in` and `sums` hold the most its warp slots allow). */
template <int PAD>
static void run_pad(const course_device* dev, const uint4* in, unsigned* sums) {
    static const kernel_fn kernels[] = {store_experiment<PAD, DIRECT>,
                                        store_experiment<PAD, STAGED>,
                                        store_experiment<PAD, REGISTERS>};
    smem_access a = smem_strided(16, SMEM_STORE, 1, 5 * (COLS + PAD) * 16);
    for (int m = 0; m < 3; ++m) {
        int per_sm = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernels[m], THREADS, 0));
        if (per_sm < 1) die("store_experiment<%d> does not fit on an SM", PAD);
        kernels[m]<<<per_sm * dev->sm_count, THREADS>>>(in, sums);
        CUDA_CHECK_LAUNCH();
        printf("%s %d %d\n", MODE_NAMES[m], PAD, smem_wavefronts(&a));
    }
}

int main(void) {
    course_device dev;
    int rc = course_device_open(&dev, 7, 5, "the store experiment");
    if (rc != EXIT_OK) return rc;
    const int blocks = dev.max_threads_per_sm / THREADS * dev.sm_count; /* at most, a wave */
    uint4* in;
    unsigned* sums;
    CUDA_CHECK(cudaMalloc(&in, (size_t)blocks * ROWS * COLS * sizeof(uint4)));
    CUDA_CHECK(cudaMemset(in, 0x5a, (size_t)blocks * ROWS * COLS * sizeof(uint4)));
    CUDA_CHECK(cudaMalloc(&sums, (size_t)blocks * THREADS * sizeof(unsigned)));
    run_pad<0>(&dev, in, sums);
    run_pad<1>(&dev, in, sums);
    run_pad<2>(&dev, in, sums);
    run_pad<4>(&dev, in, sums);
    run_pad<8>(&dev, in, sums);
    run_pad<16>(&dev, in, sums);
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(sums));
    return EXIT_OK;
}
