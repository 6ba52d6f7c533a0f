/* Chapter 02 exercise test: exercise_padded_stride against a brute-force search with the
 * course's calibrated model, for row lengths 1..130 at 4, 8 and 16 bytes, plus bad input. */
#include "padding.h"
#include "smem_model.h"
#include "test_util.h"

/* Is the column access with this row stride (elements) as cheap as a contiguous one? */
static int column_conflict_free(int stride, int elem_bytes) {
    smem_access a = smem_strided((unsigned)elem_bytes, SMEM_LOAD, (unsigned)stride, 0);
    smem_report r;
    smem_analyze(&a, &r);
    return r.wavefronts == r.ideal;
}

int main(void) {
    static const int widths[] = {4, 8, 16};
    int wrong = 0;
    for (int w = 0; w < 3; ++w)
        for (int n = 1; n <= 130; ++n) {
            int want = n;
            while (!column_conflict_free(want, widths[w])) ++want;
            int got = exercise_padded_stride(n, widths[w]);
            EXPECT(got == want, "exercise_padded_stride(%d, %d) = %d, want %d", n, widths[w], got,
                   want);
            wrong += got != want;
        }
    EXPECT(exercise_padded_stride(32, 12) == -1, "width 12 must give -1");
    EXPECT(exercise_padded_stride(0, 4) == -1, "row length 0 must give -1");
    EXPECT(exercise_padded_stride(-5, 8) == -1, "a negative row length must give -1");
    if (wrong)
        printf("\n%d strides differ from the model's. Hint: work out, for stride s, which bank "
               "lane i's element lands in,\nand in how many lanes the hardware serves together "
               "at each width (see README.md).\n",
               wrong);
    return test_finish("test_padding");
}
