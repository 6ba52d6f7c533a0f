/* Chapter 05's check: every variant, float and double, on shapes that exercise every edge (one
 * row, one column, odd sizes, partial tiles, aligned and not), each output poisoned first and
 * compared bit for bit with the CPU's transpose. */
#include "transpose_program.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n random elements of elem bytes from *seed, none made of the poison byte alone: an output
 * element a kernel never wrote differs from every element it should hold. */
static void fill_random(unsigned char* p, size_t n, size_t elem, unsigned long long* seed) {
    for (size_t i = 0; i < n; ++i) {
        unsigned char* e = p + i * elem;
        int all_poison = 1;
        for (size_t b = 0; b < elem; ++b) {
            e[b] = (unsigned char)rng_u32(seed);
            all_poison &= e[b] == POISON_BYTE;
        }
        if (all_poison) e[0] ^= 1;
    }
}

/* out = the transpose of in (s.rows x s.cols elements of elem bytes). */
static void transpose_on_host(const unsigned char* in, unsigned char* out, shape s, size_t elem) {
    for (size_t r = 0; r < (size_t)s.rows; ++r)
        for (size_t c = 0; c < (size_t)s.cols; ++c)
            memcpy(out + (c * s.rows + r) * elem, in + (r * s.cols + c) * elem, elem);
}

void transpose_require_memory(shape s, const element_type* type, size_t sets) {
    char what[128];
    snprintf(what, sizeof what, "a %dx%d %s matrix (input and output%s)", s.rows, s.cols,
             type->name, sets > 1 ? ", rotated" : "");
    course_require_device_memory("05_transpose", 2.0 * sets * (double)s.rows * s.cols * type->bytes,
                                 what);
}

/* The selected variants at one shape, float and double. Returns 1 if one of them was wrong. */
static int check_shape(const transpose_variant* v, int n, const course_args* a, shape s,
                       unsigned long long* seed) {
    int failed = 0;
    for (int t = 0; t < N_TYPES; ++t) {
        const element_type* type = &ELEMENT_TYPES[t];
        const size_t elems = (size_t)s.rows * s.cols;
        transpose_require_memory(s, type, 1);
        course_buffer in = course_buffer_alloc(elems * type->bytes),
                      out = course_buffer_alloc(elems * type->bytes);
        unsigned char* transposed = (unsigned char*)malloc(elems * type->bytes);
        if (!transposed) die("out of host memory for a %dx%d check", s.rows, s.cols);
        fill_random((unsigned char*)in.host, elems, type->bytes, seed);
        transpose_on_host((const unsigned char*)in.host, transposed, s, type->bytes);
        course_buffer_upload(&in);
        for (int i = 0; i < n; ++i) {
            const transpose_variant* x = &v[i];
            if (!course_variant_selected(a, &x->v) || !x->of_type[t].launch) continue;
            course_buffer_poison(&out);
            x->of_type[t].launch(in.dev, out.dev, s.rows, s.cols);
            CUDA_CHECK_LAUNCH();
            course_buffer_download(&out);
            const long long w = course_first_difference(
                out.host, x->transposes ? transposed : in.host, elems, type->bytes);
            if (w >= 0) {
                /* w indexes out; a transpose's is cols x rows: input (w % rows, w / rows). */
                const long long r = x->transposes ? w % s.rows : w / s.cols,
                                c = x->transposes ? w / s.rows : w % s.cols;
                printf("  %s, %s %dx%d: wrong at input (%lld, %lld)\n", x->v.name, type->name,
                       s.rows, s.cols, r, c);
                failed = 1;
            }
        }
        course_buffer_free(&in);
        course_buffer_free(&out);
        free(transposed);
    }
    return failed;
}

int transpose_check(const transpose_variant* v, int n, const course_args* a) {
    unsigned long long seed = a->seed;
    shape shapes[16] = {{1, 1},      {1, 1000},    {1000, 1},   {31, 33},   {33, 65},
                        {1000, 777}, {4097, 1023}, {1000, 776}, {256, 256}, {128, 4096}};
    int n_shapes = 10;
    /* A few random shapes from the seed; the last one with dimensions divisible by 4, so that
     * kernels 1 and 7 run their vector path on a partial edge tile. */
    for (int k = 0; k < 3; ++k) {
        int r = 1 + (int)rng_below(&seed, 2000), c = 1 + (int)rng_below(&seed, 2000);
        if (k == 2) r = (r + 3) / 4 * 4, c = (c + 3) / 4 * 4;
        shapes[n_shapes++] = shape{r, c};
    }
    if (a->shape_given) {
        shapes[0] = shape{(int)a->shape[0], (int)a->shape[1]};
        n_shapes = 1;
    }
    int selected = 0;
    for (int i = 0; i < n; ++i) selected += course_variant_selected(a, &v[i].v);
    printf("check: random inputs from --seed %llu, outputs poisoned, exact comparison\n", a->seed);
    int failed = 0;
    for (int i = 0; i < n_shapes; ++i) failed |= check_shape(v, n, a, shapes[i], &seed);
    printf("check: %s (%d shapes x %d variants x float, double)\n",
           failed ? "FAILED (reproduce with the --seed above)" : "every output exact", n_shapes,
           selected);
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}
