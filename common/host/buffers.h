/* The check's scaffolding, the same in every chapter: a host array and its device twin, filled on
 * the host, uploaded, the device's output poisoned before each run, downloaded and compared; and
 * the one line a failed comparison prints. */
#ifndef COURSE_BUFFERS_H
#define COURSE_BUFFERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    void* host;
    void* dev;
    size_t bytes;
} course_buffer;

/* Both halves of `bytes` (0 allowed: an empty matrix still gets a valid pointer, 16 bytes), the
 * host's zeroed; dies with a message when either allocation fails. */
course_buffer course_buffer_alloc(size_t bytes);
void course_buffer_free(course_buffer* b);

void course_buffer_upload(const course_buffer* b);   /* host -> device */
void course_buffer_download(const course_buffer* b); /* device -> host */

/* Every byte 0xff on the device: NaN as a float or double, -1 as an integer. An output element a
 * kernel fails to write stays NaN and fails a check that rejects NaN (!(err <= tol)). */
void course_buffer_poison(const course_buffer* b);

/* The index of the first of n elements of `elem` bytes where got and want differ bytewise, or
 * -1 (an exact check: a transpose, an integer sum, a copy). */
long long course_first_difference(const void* got, const void* want, size_t n, size_t elem);

/* The check's verdict on one variant at one input: 0 if err <= tol, else 1 after the line
 * "  NAME at WHERE: what err > tol" (NaN fails). */
int course_report_error(const char* name, const char* where, const char* what, double err,
                        double tol);

#ifdef __cplusplus
}
#endif

#endif
