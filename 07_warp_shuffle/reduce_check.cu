/* Chapter 07's check: every sum exact where it can be, the random floats' within a bound, the
 * scans exact (reduce_check.h). */
#include "reduce_check.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/device.h"
#include "host/rng.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Integer-valued inputs in {-1, 0, 1}, drawn at random: every variant adds fixed, data-independent
 * sets of elements, so each partial sum is a random walk of at most n steps, of typical size
 * sqrt(2n / 3) (13,400 at 2^28): reaching 2^24, where float stops holding every integer, would
 * be a 1000-sigma event. The sum must come out exact. */
static void fill_integers(float* x, size_t n, unsigned long long* seed, long long* sum) {
    long long s = 0;
    for (size_t i = 0; i < n; ++i) {
        const int v = (int)rng_below(seed, 3) - 1;
        x[i] = (float)v;
        s += v;
    }
    *sum = s;
}

/* Random floats in [0, 1), their sum in double. */
static double fill_uniform(float* x, size_t n, unsigned long long* seed) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) {
        x[i] = (float)(rng_u32(seed) / 4294967296.0);
        s += x[i];
    }
    return s;
}

/* Tolerance for random inputs (all positive: sum |x| = the sum): a float sum whose longest chain
 * of dependent additions is k errs by at most about k FLT_EPSILON / 2 of the sum. The longest
 * chain is the one-pass kernel's: each of its T threads (at this n) adds one float4 a step,
 * ceil(n / 4T) steps, each float4 a pair tree of 2, at most one element of the tail, then trees
 * of log2 of the rest. Kernels 1-6 add a tree per pass; CUB is held to the same bound. */
static double tolerance(const reduce_workspace* ws, size_t n) {
    const double threads = (double)reduce_one_pass_grid(ws, n) * ONE_PASS_NT;
    const double serial = ceil((double)n / (4.0 * threads)) + 3.0;
    return FLT_EPSILON * (serial + log2((double)n + 2.0) + 2.0);
}

/* One sum by v of the n floats in x (uploaded), its output poisoned with NaN first: 0 if it is
 * within tol of want, else 1 after the mismatch line. */
static int sum_wrong(const reduce_variant* v, const course_buffer* x, size_t n,
                     const course_buffer* out, const reduce_workspace* ws, const char* what,
                     double want, double tol) {
    course_buffer_poison(out);
    const reduce_call c = {(const float*)x->dev, n, (float*)out->dev, ws};
    reduce_launch(v, &c);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(out);
    const float got = *(const float*)out->host;
    char where[48];
    snprintf(where, sizeof where, "n = %zu", n);
    return course_report_error(v->v.name, where, what, fabs((double)got - want), tol);
}

/* sum_wrong for every selected sum (the scans apart) on the same input. */
static int sums_wrong(const course_variants* t, const course_args* a, const course_buffer* x,
                      size_t n, const course_buffer* out, const reduce_workspace* ws,
                      const char* what, double want, double tol) {
    int failed = 0;
    for (int i = 0; i < t->n; ++i) {
        const reduce_variant* v = (const reduce_variant*)course_variant_at(t, i);
        if (course_variant_selected(a, &v->v) && !v->scan)
            failed |= sum_wrong(v, x, n, out, ws, what, want, tol);
    }
    return failed;
}

/* The sums of the selected variants at one n: integers and all ones (up to 2^24) exactly, random
 * floats against a double sum. */
static int check_sums(const course_variants* t, const course_args* a, size_t n,
                      unsigned long long* seed, const reduce_workspace* ws) {
    course_buffer x = course_buffer_alloc(n * sizeof(float));
    course_buffer out = course_buffer_alloc(sizeof(float));
    float* h = (float*)x.host;
    long long exact;
    fill_integers(h, n, seed, &exact);
    course_buffer_upload(&x);
    int failed = sums_wrong(t, a, &x, n, &out, ws, "integers, |sum - exact sum|", (float)exact, 0);
    if (n <= (1u << 24)) { /* all ones: exact, and any element lost or counted twice shows */
        for (size_t i = 0; i < n; ++i) h[i] = 1.0f;
        course_buffer_upload(&x);
        failed |= sums_wrong(t, a, &x, n, &out, ws, "all ones, |sum - n|", (float)n, 0);
    }
    const double ref = fill_uniform(h, n, seed), tol = tolerance(ws, n) * ref;
    course_buffer_upload(&x);
    failed |= sums_wrong(t, a, &x, n, &out, ws, "random floats, |sum - double sum|", ref, tol);
    course_buffer_free(&x);
    course_buffer_free(&out);
    return failed;
}

/* A scan variant: each warp's prefix sums of integer-valued inputs, exact, output poisoned. */
static int check_scan(const reduce_variant* v, size_t n, unsigned long long* seed,
                      const reduce_workspace* ws) {
    course_buffer x = course_buffer_alloc(n * sizeof(float));
    course_buffer y = course_buffer_alloc(n * sizeof(float));
    float *h = (float*)x.host, *want = (float*)malloc(n * sizeof(float) + 4);
    if (!want) die("out of host memory");
    long long unused;
    fill_integers(h, n, seed, &unused);
    course_buffer_upload(&x);
    course_buffer_poison(&y);
    const reduce_call c = {(const float*)x.dev, n, (float*)y.dev, ws};
    reduce_launch(v, &c);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&y);
    float run = 0;
    for (size_t i = 0; i < n; ++i) want[i] = run = i % 32 ? run + h[i] : h[i];
    const long long bad = course_first_difference(y.host, want, n, sizeof(float));
    if (bad >= 0)
        printf("  %s, n = %zu: element %lld is %g, expected %g\n", v->v.name, n, bad,
               ((const float*)y.host)[bad], want[bad]);
    course_buffer_free(&x);
    course_buffer_free(&y);
    free(want);
    return bad >= 0;
}

int reduce_check(const char* program, const course_variants* t, const course_args* a,
                 const reduce_workspace* ws) {
    unsigned long long seed = a->seed;
    size_t sizes[16] = {0, 1, 31, 32, 33, 1023, 1025, 1000003, (size_t)1 << 28};
    int n_sizes = 9;
    if (a->size_given) { /* --size N: that one size (0 included) */
        sizes[0] = (size_t)a->size;
        n_sizes = 1;
    }
    int selected = 0;
    for (int i = 0; i < t->n; ++i) selected += course_variant_selected(a, course_variant_at(t, i));
    printf("check: --seed %llu; integer-valued inputs and all ones up to 2^24 (exact sums), random "
           "floats against a double sum with the tolerance (ceil(n / 4T) + 3 + log2(n + 2) + 2) "
           "FLT_EPSILON of the sum, T: kernel 7's threads at that n (at most %lld); output "
           "poisoned with NaN\n",
           a->seed, (long long)ws->one_pass_blocks * ONE_PASS_NT);
    int failed = 0;
    for (int s = 0; s < n_sizes; ++s) {
        char what[64];
        snprintf(what, sizeof what, "--check at n = %zu", sizes[s]);
        course_require_device_memory(program, sizes[s] * (double)sizeof(float), what);
        failed |= check_sums(t, a, sizes[s], &seed, ws);
        for (int i = 0; i < t->n; ++i) {
            const reduce_variant* v = (const reduce_variant*)course_variant_at(t, i);
            if (course_variant_selected(a, &v->v) && v->scan && sizes[s] <= 1000003)
                failed |= check_scan(v, sizes[s], &seed, ws);
        }
    }
    printf("check: %s (%d sizes x %d variants, integers and random floats; the scans up to "
           "1000003)\n",
           failed ? "FAILED (reproduce with the --seed above)" : "every sum right", n_sizes,
           selected);
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}
