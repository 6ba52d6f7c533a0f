/* One shared-memory instruction of a chosen width, written in PTX so that the compiler can
 * neither drop it, merge it, hoist it out of a loop nor split it into narrower accesses:
 * ld_shared<1> is one LDS.U8, ld_shared<4> one LDS, ld_shared<16> one LDS.128,
 * st_shared(addr, (unsigned short)v) one STS.U16, st_shared(addr, uint2) one STS.64.
 * The loads are ld.volatile: ptxas too must perform each one where the program has it (a plain
 * ld.shared of an unchanged address would be hoisted out of a benchmark's loop).
 * Addresses are 32-bit shared-window addresses (smem_address(ptr) + byte offset). */
#ifndef COURSE_PTX_SHARED_CUH
#define COURSE_PTX_SHARED_CUH

#include <cuda_runtime.h>

static __device__ __forceinline__ unsigned smem_address(const void* p) {
    return (unsigned)__cvta_generic_to_shared(p);
}

/* The register type that one access of W bytes fills. */
template <int W>
struct smem_word;
template <>
struct smem_word<1> {
    typedef unsigned char type;
};
template <>
struct smem_word<2> {
    typedef unsigned short type;
};
template <>
struct smem_word<4> {
    typedef unsigned type;
};
template <>
struct smem_word<8> {
    typedef uint2 type;
};
template <>
struct smem_word<16> {
    typedef uint4 type;
};

template <int W>
__device__ __forceinline__ typename smem_word<W>::type ld_shared(unsigned addr);

/* 1 and 2 bytes: PTX loads a .u8/.u16 into a 32-bit register, zero-extended. */
template <>
__device__ __forceinline__ unsigned char ld_shared<1>(unsigned addr) {
    unsigned v;
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return (unsigned char)v;
}
template <>
__device__ __forceinline__ unsigned short ld_shared<2>(unsigned addr) {
    unsigned v;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return (unsigned short)v;
}
template <>
__device__ __forceinline__ unsigned ld_shared<4>(unsigned addr) {
    unsigned v;
    asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}
template <>
__device__ __forceinline__ uint2 ld_shared<8>(unsigned addr) {
    uint2 v;
    asm volatile("ld.volatile.shared.v2.b32 {%0, %1}, [%2];"
                 : "=r"(v.x), "=r"(v.y)
                 : "r"(addr)
                 : "memory");
    return v;
}
template <>
__device__ __forceinline__ uint4 ld_shared<16>(unsigned addr) {
    uint4 v;
    asm volatile("ld.volatile.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"(addr)
                 : "memory");
    return v;
}

/* 1 and 2 bytes: PTX stores the low 8/16 bits of a 32-bit register. */
__device__ __forceinline__ void st_shared(unsigned addr, unsigned char v) {
    asm volatile("st.shared.u8 [%0], %1;" ::"r"(addr), "r"((unsigned)v) : "memory");
}
__device__ __forceinline__ void st_shared(unsigned addr, unsigned short v) {
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(addr), "r"((unsigned)v) : "memory");
}
__device__ __forceinline__ void st_shared(unsigned addr, unsigned v) {
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ void st_shared(unsigned addr, uint2 v) {
    asm volatile("st.shared.v2.b32 [%0], {%1, %2};" ::"r"(addr), "r"(v.x), "r"(v.y) : "memory");
}
__device__ __forceinline__ void st_shared(unsigned addr, uint4 v) {
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v.x), "r"(v.y),
                 "r"(v.z), "r"(v.w)
                 : "memory");
}

/* Sum of the 32-bit words of one access (of a 1- or 2-byte access, its value): what a kernel
 * keeps so that its loads are used, and what the CPU reference adds up the same way. */
__host__ __device__ __forceinline__ unsigned word_sum(unsigned char v) {
    return v;
}
__host__ __device__ __forceinline__ unsigned word_sum(unsigned short v) {
    return v;
}
__host__ __device__ __forceinline__ unsigned word_sum(unsigned v) {
    return v;
}
__host__ __device__ __forceinline__ unsigned word_sum(uint2 v) {
    return v.x + v.y;
}
__host__ __device__ __forceinline__ unsigned word_sum(uint4 v) {
    return v.x + v.y + v.z + v.w;
}

#endif
