/* Chapter 02 exercise test: exercise_padded_stride against a brute-force search with the
 * course's calibrated model, for row lengths 1..130 at 1, 2, 4, 8 and 16 bytes, plus bad input.
 * The answer depends on the width: "row_elems | 1" fails at 1 and 2 bytes. */
#include "padding.h"
#include "host/test_util.h"
#include "model/smem_model.h"

/* Is every column read (lane i reads element (i, c), c < row_elems) as cheap as a contiguous
 * read of the same width? */
static int columns_conflict_free(int stride, int row_elems, int elem_bytes) {
    for (int c = 0; c < row_elems; ++c) {
        smem_access a = smem_strided((unsigned)elem_bytes, SMEM_LOAD, (unsigned)stride,
                                     (unsigned)(c * elem_bytes));
        smem_report r;
        if (smem_analyze(&a, &r) || r.wavefronts != r.ideal) return 0;
    }
    return 1;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    static const int widths[] = {1, 2, 4, 8, 16};
    int wrong = 0;
    for (int w = 0; w < 5; ++w)
        for (int n = 1; n <= 130; ++n) {
            int want = n;
            while (!columns_conflict_free(want, n, widths[w])) ++want;
            int got = exercise_padded_stride(n, widths[w]);
            EXPECT(got == want, "exercise_padded_stride(%d, %d) = %d, want %d", n, widths[w], got,
                   want);
            wrong += got != want;
        }
    static const int bad_widths[] = {0, 3, 5, 12, 32, -4};
    for (int i = 0; i < 6; ++i)
        EXPECT(exercise_padded_stride(32, bad_widths[i]) == -1, "width %d must give -1",
               bad_widths[i]);
    EXPECT(exercise_padded_stride(0, 4) == -1, "row length 0 must give -1");
    EXPECT(exercise_padded_stride(-5, 2) == -1, "a negative row length must give -1");
    if (wrong)
        printf("\n%d strides differ from the model's. Work out, for a stride, which word and bank\n"
               "each lane's element lands in, at each width, and which lanes the hardware serves\n"
               "together (chapter 01).\n",
               wrong);
    return test_finish("test_padding");
}
