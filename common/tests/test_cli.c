/* The shared command line: accepted forms, defaults, and every way of getting it wrong. */
#include "check.h"
#include "cli.h"
#include "test_util.h"

#include <string.h>

static const course_cli CLI = {"test_cli", "A test.", "elements", 1000, 7, 5000};

static int parse(course_args* a, const char* line) {
    static char buf[512];
    char* argv[32];
    int argc = 0;
    strncpy(buf, line, sizeof buf - 1);
    argv[argc++] = (char*)"test_cli";
    for (char* t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " ")) argv[argc++] = t;
    return course_parse_args(&CLI, argc, argv, a);
}

int main(void) {
    course_args a;
    EXPECT(parse(&a, "") == -1 && a.size == 1000 && a.reps == 7 && !a.check && !a.csv, "defaults");
    EXPECT(parse(&a, "--check --size 17") == -1 && a.check && a.size == 17, "--check --size");
    EXPECT(parse(&a, "--bench --csv out.csv --reps 3 --variant v1") == -1 && a.bench &&
               !strcmp(a.csv, "out.csv") && a.reps == 3 && !strcmp(a.variant, "v1"),
           "bench flags");
    EXPECT(parse(&a, "--list") == -1 && a.list, "--list");
    EXPECT(strstr(a.command_line, "test_cli --list") != NULL, "command line kept");
    EXPECT(parse(&a, "--size 5000 --reps 10000") == -1 && a.size == 5000, "limits are inclusive");
    EXPECT(parse(&a, "--help") == EXIT_OK, "--help exits 0");
    const char* bad[] = {"--bogus",   "--size",          "--size 0",
                         "--size -5", "--size 12abc",    "--size 1e3",
                         "--reps x",  "--csv",           "--variant",
                         "stray",     "--check --bench", "--size 99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        EXPECT(parse(&a, bad[i]) == EXIT_USAGE, "'%s' accepted", bad[i]);
    return test_finish("test_cli");
}
