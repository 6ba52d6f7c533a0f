/* A minimal test harness: EXPECT records a failure with file:line and goes on, so that one run
 * shows every broken expectation; test_finish prints the count and gives the exit code. */
#ifndef COURSE_TEST_UTIL_H
#define COURSE_TEST_UTIL_H

#include <stdio.h>

static int test_failures, test_expectations;

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        ++test_expectations;                                                                       \
        if (!(cond)) {                                                                             \
            if (++test_failures <= 20) {                                                           \
                printf("%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);                           \
                printf(__VA_ARGS__);                                                               \
                printf("\n");                                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static inline int test_finish(const char* name) {
    printf("%s: %d of %d expectations held\n", name, test_expectations - test_failures,
           test_expectations);
    return test_failures || !test_expectations ? 1 : 0;
}

#endif
