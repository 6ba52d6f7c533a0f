#include "host/buffers.h"

#include "host/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No allocation of 0 bytes (an empty operand, K = 0): 16 bytes at least, so a float4 path that
 * checks its bounds first still sees an aligned, valid pointer. */
static size_t at_least_16(size_t bytes) {
    return bytes < 16 ? 16 : bytes;
}

course_buffer course_buffer_alloc(size_t bytes) {
    course_buffer b = {calloc(at_least_16(bytes), 1), NULL, bytes};
    if (!b.host) die("out of host memory (%zu bytes)", bytes);
    CUDA_CHECK(cudaMalloc(&b.dev, at_least_16(bytes)));
    return b;
}

void course_buffer_free(course_buffer* b) {
    free(b->host);
    CUDA_CHECK(cudaFree(b->dev));
    b->host = b->dev = NULL;
    b->bytes = 0;
}

void course_buffer_upload(const course_buffer* b) {
    CUDA_CHECK(cudaMemcpy(b->dev, b->host, b->bytes, cudaMemcpyHostToDevice));
}

void course_buffer_download(const course_buffer* b) {
    CUDA_CHECK(cudaMemcpy(b->host, b->dev, b->bytes, cudaMemcpyDeviceToHost));
}

void course_buffer_poison(const course_buffer* b) {
    CUDA_CHECK(cudaMemset(b->dev, 0xff, b->bytes));
}

long long course_first_difference(const void* got, const void* want, size_t n, size_t elem) {
    const unsigned char *g = (const unsigned char*)got, *w = (const unsigned char*)want;
    for (size_t i = 0; i < n; ++i)
        if (memcmp(g + i * elem, w + i * elem, elem)) return (long long)i;
    return -1;
}

int course_report_error(const char* name, const char* where, const char* what, double err,
                        double tol) {
    if (err <= tol) return 0;
    printf("  %s at %s: %s %.3g > %.3g\n", name, where, what, err, tol);
    return 1;
}
