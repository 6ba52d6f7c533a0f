/* A minimal test harness: EXPECT records a failure with file:line and goes on, so that one run
 * shows every broken expectation; test_finish prints the count and gives the exit code. */
#ifndef COURSE_TEST_UTIL_H
#define COURSE_TEST_UTIL_H

#include "host/check.h"

#include <stdio.h>
#include <string.h>

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

/* main() of a test that takes no arguments: anything on its command line is a usage error
 * (exit 2), so that a mistyped or misplaced flag (a --cpu meant for a kernel test) is not ignored.
 * Returns EXIT_USAGE after the message, or 0. */
static inline int test_no_arguments(int argc, char** argv) {
    if (argc <= 1) return 0;
    fprintf(stderr, "%s: unexpected argument '%s'\nusage: %s (takes no arguments)\n", argv[0],
            argv[1], argv[0]);
    return EXIT_USAGE;
}

/* main() of a kernel exercise's test (test_topic.cu): `--cpu` runs cpu() (what the CPU can prove),
 * `--gpu` runs gpu() (the kernel; it returns EXIT_SKIPPED without a GPU); anything else is a
 * usage error. Returns the exit code. */
static inline int test_main_cpu_gpu(int argc, char** argv, const char* name, void (*cpu)(void),
                                    int (*gpu)(void)) {
    if (argc != 2 || (strcmp(argv[1], "--cpu") && strcmp(argv[1], "--gpu"))) {
        fprintf(stderr, "usage: %s --cpu | --gpu\n", argv[0]);
        return EXIT_USAGE;
    }
    char label[128];
    snprintf(label, sizeof label, "%s %s", name, argv[1]);
    if (!strcmp(argv[1], "--cpu"))
        cpu();
    else if (gpu() == EXIT_SKIPPED)
        return EXIT_SKIPPED;
    return test_finish(label);
}

#endif
