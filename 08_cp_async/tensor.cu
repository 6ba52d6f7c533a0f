/* Chapter 08, part 3's run (tensor.h): the lesson's tables, then the check and the benchmark. */
#include "hgemm_layout.h"
#include "tensor.h"
#include "tensor_model.h"
#include "host/check.h"

#include <stdio.h>
#include <string.h>

double tensor_ldmatrix_wavefronts(const tensor_variant* x, int* a_wf, int* b_wf) {
    if (tensor_ldmatrix_model(x->layout, x->bm, x->bn, x->bk, a_wf, b_wf))
        die("%s: no ldmatrix model", x->v.name);
    return (*a_wf + *b_wf) / 2.0;
}

void tensor_print_lesson(const course_variants* t) {
    for (int i = 0; i < t->n; ++i) {
        const tensor_variant* x = tensor_at(t, i);
        if (!x->sweep) printf("  %2d %-20s %s\n", x->v.number, x->v.name, x->v.description);
    }
    printf("     the tensor-core sweep (hgemm_BMxBNxBK_sSTAGES): --list\n");

    printf("\nTensor cores: ldmatrix wavefronts per request by the model (ideal 4), A = BM x BK\n"
           "halves read by .x4, B = BK x BN halves read by .x4.trans:\n");
    printf("%-20s %-9s %9s %9s %9s\n", "variant", "layout", "A", "B", "mean");
    for (int i = 0; i < t->n; ++i) {
        const tensor_variant* x = tensor_at(t, i);
        if (!x->launch || !x->v.kernel) continue;
        int a, b;
        const double m = tensor_ldmatrix_wavefronts(x, &a, &b);
        printf("%-20s %-9s %9d %9d %9.2f\n", x->v.name, hgemm_layout_name(x->layout), a, b, m);
    }
    printf(
        "Plain, A's 64-byte rows put a matrix's 8 rows in 2 of the line's 8 slots (4-way) and\n"
        "B's 512-byte rows put them all in one (8-way); padding by 16 bytes or the swizzle\n"
        "spreads them over all 8 (chapter 04, \"ldmatrix\"), and so does the TMA's 128B mode.\n");
    int ideal;
    const int plain = tensor_c_staging_model(0, 0, &ideal),
              swz = tensor_c_staging_model(1, 0, &ideal),
              both = tensor_c_staging_model(1, 1, &ideal);
    printf("\nhgemm_tma_persistent stages C for the TMA in chunks of 16 x 64 floats, a float2 a\n"
           "lane, 16 lanes a wavefront. Wavefronts per store by the model (ideal %d): rows plain\n"
           "%d; in the TMA's 128B swizzle %d; swizzled, odd rows taking their 8-column blocks in\n"
           "the order j ^ 2, %d (the kernel's: hgemm_layout.h, hgemm_c_staging_column).\n",
           ideal, plain, swz, both);
}

int tensor_run(const char* program, const course_args* a, const course_device* dev,
               const course_variants* running, int lesson) {
    if (course_find_variant(running, TENSOR_CEILING) < 0) return 0; /* no mma.sync here */
    cublasHandle_t cublas;
    if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS) die("cublasCreate failed");
    tensor_configure(running);
    int bad = 0;
    if (a->check || lesson) bad = tensor_check(a, running, cublas);
    if (!bad && !a->check) bad = tensor_bench(program, a, dev, running, cublas, lesson);
    cublasDestroy(cublas);
    return bad;
}
