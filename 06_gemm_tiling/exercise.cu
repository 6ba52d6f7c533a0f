/* Chapter 06 exercise: write kernel 3's two steps (see gemm.h and README.md, "Exercise"), then run
 *     cmake --preset exercises && cmake --build --preset exercises && ctest --preset exercises
 * The test runs your functions on the CPU (one thread after another, as the kernel's barriers
 * order them) and, on a machine with a GPU, inside kernel 3, on odd shapes against a double
 * reference. */
#include "gemm.h"

void exercise_load_tiles(const float* A, const float* B, int M, int N, int K, int block_row,
                         int block_col, int k0, int ty, int tx, float* As, float* Bs) {
    (void)A, (void)B, (void)M, (void)N, (void)K, (void)block_row, (void)block_col, (void)k0;
    (void)ty, (void)tx, (void)As, (void)Bs;
    /* TODO: As[ty * T3 + tx] = A(block_row * T3 + ty, k0 + tx), Bs[ty * T3 + tx] =
     * B(k0 + ty, block_col * T3 + tx); 0 for an element outside its matrix. */
}

float exercise_tile_dot(const float* As, const float* Bs, int ty, int tx, float acc) {
    (void)As, (void)Bs, (void)ty, (void)tx;
    /* TODO: add row ty of As times column tx of Bs (T3 products) to acc. */
    return acc; /* not written yet: C = beta * C */
}
