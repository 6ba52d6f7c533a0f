/* layout_swizzle (common/model/layout.h) against CuTe's own cute::Swizzle<B,M,S> (CUTLASS,
 * include/cute/swizzle.hpp): equal on every offset of four periods, for every B in 0..5, M in
 * 0..4 and every S in -8..8 that CuTe accepts (|S| >= B). CUTLASS is a test dependency only:
 * nothing in the course builds against it. Host code; nvcc compiles CuTe's headers. */
#include <cute/swizzle.hpp>

#include <cstdio>
#include <utility>

#include "host/test_util.h"
#include "model/layout.h"

static int checked, wrong;

template <int B, int M, int S>
static void compare() {
    if constexpr (B >= 0 && (S < 0 ? -S : S) >= B) {
        cute::Swizzle<B, M, S> cute_swizzle;
        ::Swizzle<B, M, S> course_swizzle; /* the compile-time form kernels use */
        const unsigned periods = 4u << (B + M + (S < 0 ? -S : S));
        int bad = 0;
        for (unsigned o = 0; o < periods; ++o)
            bad += (unsigned)cute_swizzle(o) != layout_swizzle(o, B, M, S) ||
                   course_swizzle(o) != layout_swizzle(o, B, M, S);
        if (bad && wrong < 10)
            printf("Swizzle<%d,%d,%d>: %d of %u offsets differ from CuTe\n", B, M, S, bad, periods);
        wrong += bad != 0;
        ++checked;
    }
}

template <int B, int M, int... I>
static void each_s(std::integer_sequence<int, I...>) {
    (compare<B, M, I - 8>(), ...);
}

template <int B, int... I>
static void each_m(std::integer_sequence<int, I...>) {
    (each_s<B, I>(std::make_integer_sequence<int, 17>{}), ...);
}

template <int... I>
static void each_b(std::integer_sequence<int, I...>) {
    (each_m<I>(std::make_integer_sequence<int, 5>{}), ...);
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    each_b(std::make_integer_sequence<int, 6>{});
    printf("test_against_cute: %d of %d swizzles equal to cute::Swizzle on four periods\n",
           checked - wrong, checked);
    return wrong || checked < 200 ? 1 : 0;
}
