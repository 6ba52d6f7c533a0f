/* layout_swizzle (common/model/layout.h) against CuTe's own cute::Swizzle<B,M,S> (CUTLASS,
 * include/cute/swizzle.hpp): equal on every offset of four periods, for every B in 0..5, M in
 * 0..4 and every S in -8..8 that CuTe accepts (|S| >= B). And wgmma_desc (common/model/
 * wgmma_desc.h) against CuTe's GmmaDescriptor, whose fields are C++ bit-fields named by the PTX
 * ISA: the same 64 bits for every mode over a grid of starts and strides, each mode matched to
 * CuTe's by name, so the numbering is checked too. CUTLASS is a test dependency only: nothing in
 * the course builds against it. Host code; nvcc compiles CuTe's headers. */
#include <cute/arch/mma_sm90_desc.hpp>
#include <cute/swizzle.hpp>

#include <cstdio>
#include <utility>

#include "host/test_util.h"
#include "model/layout.h"
#include "model/wgmma_desc.h"

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

/* Descriptors that differ from CuTe's for the same fields (of how many compared). */
static int descriptors_against_cute(int* compared) {
    using cute::SM90::GMMA::LayoutType;
    const struct {
        wgmma_mode course;
        LayoutType cute;
    } modes[] = {{WGMMA_NONE, LayoutType::INTERLEAVE},
                 {WGMMA_32B, LayoutType::B32},
                 {WGMMA_64B, LayoutType::B64},
                 {WGMMA_128B, LayoutType::B128}};
    int bad = 0;
    *compared = 0;
    for (const auto& m : modes)
        for (unsigned start = 0; start < 1u << 18; start += 16 * 97)
            for (unsigned lbo = 0; lbo < 1u << 18; lbo += 16 * 1531) {
                const unsigned sbo = (start * 5 + lbo * 3) & 0x3FFF0u,
                               pattern = start & ~127u; /* the base offset's input */
                cute::GmmaDescriptor d;
                d.bitfield.start_address_ = (uint16_t)(start >> 4);
                d.bitfield.leading_byte_offset_ = (uint16_t)(lbo >> 4);
                d.bitfield.stride_byte_offset_ = (uint16_t)(sbo >> 4);
                d.bitfield.base_offset_ = (uint8_t)wgmma_base_offset(m.course, pattern);
                d.bitfield.layout_type_ = (uint8_t)m.cute;
                bad += d.desc_ != wgmma_desc(m.course, start, pattern, lbo, sbo);
                ++*compared;
            }
    return bad;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    int compared = 0;
    const int desc_wrong = descriptors_against_cute(&compared);
    printf("test_against_cute: %d of %d wgmma descriptors equal to cute::GmmaDescriptor's\n",
           compared - desc_wrong, compared);
    each_b(std::make_integer_sequence<int, 6>{});
    printf("test_against_cute: %d of %d swizzles equal to cute::Swizzle on four periods\n",
           checked - wrong, checked);
    return wrong || checked < 200 || desc_wrong || compared < 1000 ? 1 : 0;
}
