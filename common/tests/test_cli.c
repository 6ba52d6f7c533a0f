/* The shared command line: accepted forms, defaults, and every way of getting it wrong. */
/* POSIX for fileno(), dup() and mkdir(): the course builds on Linux. */
#define _POSIX_C_SOURCE 200809L

#include "host/check.h"
#include "host/cli.h"
#include "host/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The program under test: its course_cli, then variations of it. */
static course_cli program(void) {
    const course_cli c = {.program = "test_cli",
                          .summary = "A test.",
                          .size = "elements",
                          .default_size = 1000,
                          .default_reps = 7,
                          .max_size = 5000};
    return c;
}
static course_cli CLI;               /* program(), set in main */
static const course_cli* cli = &CLI; /* the program under test */

/* The arguments of `line`, split on spaces, after argv[0] "test_cli". */
static int parse(course_args* a, const char* line) {
    static char buf[512];
    char* argv[32];
    int argc = 0;
    strncpy(buf, line, sizeof buf - 1);
    argv[argc++] = (char*)"test_cli";
    for (char* t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " ")) argv[argc++] = t;
    return course_parse_args(cli, argc, argv, a);
}

/* parse(), and the first line it printed on stderr into err: for what a message says. */
static int parse_err(course_args* a, const char* line, char* err, size_t len) {
    FILE* t = tmpfile();
    const int saved = dup(2);
    if (!t || saved < 0 || dup2(fileno(t), 2) < 0) {
        printf("cannot capture stderr\n");
        exit(1);
    }
    const int rc = parse(a, line);
    dup2(saved, 2);
    close(saved);
    rewind(t);
    if (!fgets(err, (int)len, t)) err[0] = '\0';
    err[strcspn(err, "\n")] = '\0';
    fclose(t);
    return rc;
}

/* A whole argv, NULL-terminated: for arguments that hold spaces or tabs. */
static int parse_argv(course_args* a, const char* const* args) {
    char* argv[32];
    int argc = 0;
    while (args[argc] && argc < 32) {
        argv[argc] = (char*)args[argc];
        ++argc;
    }
    return course_parse_args(cli, argc, argv, a);
}

static void test_parse_unsigned(void) {
    unsigned long long v = 0;
    EXPECT(!course_parse_unsigned("0", 10, 5, &v) && v == 0, "0");
    EXPECT(!course_parse_unsigned("18446744073709551615", 10, ~0ull, &v) && v == ~0ull, "2^64-1");
    EXPECT(!course_parse_unsigned("ffffffff", 16, 0xffffffffu, &v) && v == 0xffffffffu, "hex");
    EXPECT(!course_parse_unsigned("0X1f", 16, 0xffffffffu, &v) && v == 0x1f, "0X prefix");
    EXPECT(!course_parse_unsigned("5", 10, 5, &v) && v == 5, "max is inclusive");
    const char* bad[] = {"",   " 5",  "5 ", "\t5", "5\n", "+5",  "-5",  "0x0x1",
                         "0x", "0x ", "x1", "1e3", "6",   "5.0", "0x-1"};
    const int base[] = {10, 10, 10, 10, 10, 10, 10, 16, 16, 16, 16, 10, 10, 10, 16};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        EXPECT(course_parse_unsigned(bad[i], base[i], 5, &v), "'%s' accepted", bad[i]);
    EXPECT(course_parse_unsigned("18446744073709551616", 10, ~0ull, &v), "2^64 accepted");
    EXPECT(course_parse_unsigned("0x10000000000000000", 16, ~0ull, &v), "2^64 hex accepted");
    EXPECT(course_parse_unsigned("0x5", 10, 5, &v), "0x in base 10 accepted");
}

/* Paths under the source tree are written from its root, as a user there would type them. */
static void test_command_line(void) {
    course_args a;
    char prog[1024], other[1024], value[1024];
    snprintf(prog, sizeof prog, "%s/build/bin/test_cli", course_source_dir());
    snprintf(value, sizeof value, "%s/build/results/x.csv", course_source_dir());
    snprintf(other, sizeof other, "%sx/y", course_source_dir());
    const char* absolute[] = {prog, "--variant", value, "--reps", "3", NULL};
    EXPECT(parse_argv(&a, absolute) == -1 &&
               !strcmp(a.command_line, "./build/bin/test_cli --variant ./build/results/x.csv "
                                       "--reps 3"),
           "got '%s'", a.command_line);
    const char* relative[] = {"build/bin/02_padding", "--variant", other, NULL};
    EXPECT(parse_argv(&a, relative) == -1 &&
               !strncmp(a.command_line, "./build/bin/02_padding ", 23),
           "got '%s'", a.command_line);
    EXPECT(strstr(a.command_line, other) != NULL, "a sibling of the source dir was rewritten: '%s'",
           a.command_line);
}

static void test_csv_path(void) {
    course_args a;
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_cli_%ld.csv", (long)getpid());
    char line[128];
    snprintf(line, sizeof line, "--bench --csv %s", path);
    EXPECT(parse(&a, line) == -1 && !strcmp(a.csv, path), "'%s' refused", line);
    EXPECT(access(path, F_OK) != 0, "checking --csv created %s", path);
    EXPECT(parse(&a, "--bench --csv /no/such/dir/x.csv") == EXIT_USAGE, "missing directory");
    EXPECT(parse(&a, "--bench --csv /tmp") == EXIT_USAGE, "a directory as --csv");
    /* Root can write anything: the unwritable file can only be tested as another user. */
    if (geteuid() == 0) return;
    FILE* f = fopen(path, "w");
    EXPECT(f != NULL, "cannot create %s", path);
    if (!f) return;
    fclose(f);
    chmod(path, 0444);
    EXPECT(parse(&a, line) == EXIT_USAGE, "read-only %s accepted", path);
    remove(path);
}

/* A negative number is a bad number, not a forgotten value: the message says what the flag takes.
 * A value that looks like a flag still is a forgotten one. */
static void test_negative(void) {
    course_cli gemm = program();
    gemm.shape_dims = 3;
    gemm.max_dim = 4096;
    course_args a;
    char err[512];
    static const char* const bad[][2] = {
        {"--size -3", "--size needs a whole number from 1 to 5000"},
        {"--reps -1", "--reps needs a whole number from 1 to"},
        {"--seed -5", "--seed needs a whole number from 0 to"},
        {"--size -0", "--size needs a whole number"},
        {"--shape -64x64x8", "--shape needs MxNxK"},
        {"--size --check", "--size needs a value"},
        {"--size -x", "--size needs a value"},
        {"--csv -3", "--csv needs a value"},
        {"--variant -1", "--variant needs a value"}};
    cli = &gemm;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        EXPECT(parse_err(&a, bad[i][0], err, sizeof err) == EXIT_USAGE && strstr(err, bad[i][1]),
               "'%s' said '%s', want '%s'", bad[i][0], err, bad[i][1]);
    cli = &CLI;
}

/* The side files beside --csv FILE: one derivation (course_side_path), each checked by the
 * parser as FILE is, and named in the message. */
static void test_side_files(void) {
    course_cli sides = program();
    sides.side_files[0] = "_banks";
    sides.side_files[1] = "_hgemm";
    course_args a;
    char out[32], err[512];
    static const char* const derived[][2] = {
        {"x.csv", "x_banks.csv"},         {"x", "x_banks.csv"},
        {"a/b.csv", "a/b_banks.csv"},     {"a.csv/b", "a.csv/b_banks.csv"},
        {"x.csv.csv", "x.csv_banks.csv"}, {"x.CSV", "x.CSV_banks.csv"}};
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; ++i)
        EXPECT(!course_side_path(derived[i][0], "_banks", out, sizeof out) &&
                   !strcmp(out, derived[i][1]),
               "'%s' -> '%s', want '%s'", derived[i][0], out, derived[i][1]);
    EXPECT(!course_side_path("abcdefghijklmnopqrstu.csv", "_banks", out, sizeof out),
           "31 characters fit in 32");
    EXPECT(course_side_path("abcdefghijklmnopqrstuv.csv", "_banks", out, sizeof out),
           "32 characters do not fit in 32");

    char dir[64], line[256], side[128];
    snprintf(dir, sizeof dir, "/tmp/test_cli_sides_%ld", (long)getpid());
    snprintf(side, sizeof side, "%s/x_hgemm.csv", dir);
    EXPECT(!mkdir(dir, 0700), "cannot create %s", dir);
    snprintf(line, sizeof line, "--bench --csv %s/x.csv", dir);
    cli = &sides;
    EXPECT(parse(&a, line) == -1, "'%s' refused with no side file in the way", line);
    EXPECT(!mkdir(side, 0700), "cannot create %s", side); /* x_hgemm.csv taken by a directory */
    EXPECT(parse_err(&a, line, err, sizeof err) == EXIT_USAGE && strstr(err, side) &&
               strstr(err, "is a directory"),
           "a blocked side file: '%s'", err);
    cli = &CLI; /* a program without side files is not held to them */
    EXPECT(parse(&a, line) == -1, "'%s' refused where no side file is written", line);
    rmdir(side);
    snprintf(line, sizeof line, "--bench --csv %s/none/x.csv", dir);
    cli = &sides;
    EXPECT(parse(&a, line) == EXIT_USAGE, "'%s' accepted", line);
    cli = &CLI;
    rmdir(dir);
}

/* --shape RxC: accepted where the program takes one, validated like --size. */
static void test_shape(void) {
    course_args a;
    EXPECT(parse(&a, "--shape 3x5") == EXIT_USAGE, "--shape taken by a program without one");
    course_cli shaped = program();
    shaped.shape_dims = 2;
    shaped.max_dim = 4096;
    cli = &shaped;
    EXPECT(parse(&a, "--check --shape 4096x1") == -1 && a.shape_given && a.shape[0] == 4096 &&
               a.shape[1] == 1,
           "--shape 4096x1");
    EXPECT(parse(&a, "--check") == -1 && !a.shape_given, "no --shape");
    EXPECT(parse(&a, "--shape 1x4096") == -1 && a.shape[1] == 4096, "limits are inclusive");
    const char* bad[] = {"--shape",
                         "--shape 0x5",
                         "--shape 5x0",
                         "--shape 5",
                         "--shape 5x",
                         "--shape x5",
                         "--shape 5x5x5",
                         "--shape 5X5",
                         "--shape 5*5",
                         "--shape 4097x4097",
                         "--shape -5x5",
                         "--shape 5x-5",
                         "--shape 5x5x",
                         "--shape 0x0",
                         "--shape 1e3x5",
                         "--shape 3x5 --shape 3x5",
                         "--shape 99999999999999999999999x1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        EXPECT(parse(&a, bad[i]) == EXIT_USAGE, "'%s' accepted", bad[i]);
    /* MxNxK: a gemm's K may be 0 (C = beta C), M and N not. */
    course_cli gemm = program();
    gemm.shape_dims = 3;
    gemm.max_dim = 4096;
    cli = &gemm;
    EXPECT(parse(&a, "--check --shape 64x33x0") == -1 && a.shape[0] == 64 && a.shape[1] == 33 &&
               a.shape[2] == 0,
           "--shape 64x33x0");
    EXPECT(parse(&a, "--shape 1x1x1") == -1 && a.shape[2] == 1, "--shape 1x1x1");
    const char* bad_gemm[] = {"--shape 0x64x64",   "--shape 64x0x64", "--shape 0x0x0",
                              "--shape 64x64",     "--shape 64x64x",  "--shape 64x64x4097",
                              "--shape 64x64x00x", "--shape 64x64x-1"};
    for (size_t i = 0; i < sizeof bad_gemm / sizeof bad_gemm[0]; ++i)
        EXPECT(parse(&a, bad_gemm[i]) == EXIT_USAGE, "'%s' accepted", bad_gemm[i]);
    cli = &CLI;
}

/* --part: one of the program's parts by name; a program without parts refuses it. */
static void test_parts(void) {
    course_cli parted = program();
    parted.parts[0] = "stencil";
    parted.parts[1] = "sgemm";
    parted.parts[2] = "tensor";
    course_args a;
    char err[512];
    EXPECT(parse(&a, "--check") == -1 && !a.part, "no --part: every part");
    EXPECT(parse_err(&a, "--part sgemm", err, sizeof err) == EXIT_USAGE &&
               strstr(err, "this program has no parts"),
           "--part where there are none: %s", err);
    cli = &parted;
    EXPECT(parse(&a, "--check --part sgemm") == -1 && !strcmp(a.part, "sgemm"), "--part sgemm");
    EXPECT(parse(&a, "--part tensor --list") == -1 && !strcmp(a.part, "tensor"), "--part tensor");
    EXPECT(parse_err(&a, "--part hgemm", err, sizeof err) == EXIT_USAGE &&
               strstr(err, "no part 'hgemm'"),
           "an unknown part: %s", err);
    EXPECT(parse(&a, "--part") == EXIT_USAGE, "--part without a name");
    EXPECT(parse(&a, "--part stencil --part sgemm") == EXIT_USAGE, "--part twice");
    cli = &CLI;
}

/* --picture DIR: calls the program's pictures with DIR and returns what it returns; refused
 * where the program has none, for a DIR that is not a writable directory, and with other work. */
static const char* drawn_into; /* what fake_pictures was given */
static int fake_pictures(const char* dir) {
    drawn_into = dir;
    return 42;
}
static void test_pictures(void) {
    course_cli drawing = program();
    drawing.pictures = fake_pictures;
    course_args a;
    char err[512];
    EXPECT(parse_err(&a, "--picture .", err, sizeof err) == EXIT_USAGE &&
               strstr(err, "draws no pictures"),
           "--picture where there are none: %s", err);
    cli = &drawing;
    drawn_into = NULL;
    EXPECT(parse(&a, "--picture .") == 42 && drawn_into && !strcmp(drawn_into, "."),
           "--picture . must return what pictures(\".\") returns");
    EXPECT(parse_err(&a, "--picture no_such_dir", err, sizeof err) == EXIT_USAGE &&
               strstr(err, "not a writable directory"),
           "--picture of a directory that does not exist: %s", err);
    EXPECT(parse_err(&a, "--picture . --check", err, sizeof err) == EXIT_USAGE &&
               strstr(err, "give it alone"),
           "--picture with --check: %s", err);
    EXPECT(parse(&a, "--picture . --list") == EXIT_USAGE, "--picture with --list");
    EXPECT(parse(&a, "--picture") == EXIT_USAGE, "--picture without a directory");
    EXPECT(parse(&a, "--picture . --picture .") == EXIT_USAGE, "--picture twice");
    cli = &CLI;
}

/* --size 0: valid only where the program says so (07: the sum of nothing). */
static void test_size_zero(void) {
    course_cli zero_ok = program();
    zero_ok.size_zero_ok = 1;
    course_args a;
    EXPECT(parse(&a, "--check --size 0") == EXIT_USAGE, "--size 0 where it is not valid");
    cli = &zero_ok;
    EXPECT(parse(&a, "--check --size 0") == -1 && a.size == 0 && a.size_given, "--size 0");
    EXPECT(parse(&a, "--check") == -1 && a.size == 1000 && !a.size_given, "no --size");
    EXPECT(parse(&a, "--size -1") == EXIT_USAGE, "--size -1");
    cli = &CLI;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    CLI = program();
    course_args a;
    test_parse_unsigned();
    EXPECT(parse(&a, "") == -1 && a.size == 1000 && a.reps == 7 && !a.check && !a.csv &&
               !a.seed_given,
           "defaults");
    EXPECT(parse(&a, "--check --size 17") == -1 && a.check && a.size == 17 && a.size_given,
           "--check --size");
    EXPECT(parse(&a, "--check") == -1 && a.size == 1000 && !a.size_given,
           "no --size: the default, marked as not given");
    EXPECT(parse(&a, "--bench --csv out.csv --reps 3 --variant v1") == -1 && a.bench &&
               !strcmp(a.csv, "out.csv") && a.reps == 3 && !strcmp(a.variant, "v1"),
           "bench flags");
    EXPECT(parse(&a, "--list") == -1 && a.list, "--list");
    EXPECT(strstr(a.command_line, "test_cli --list") != NULL, "command line kept");
    EXPECT(parse(&a, "--list") == -1 && !a.gpu, "no --gpu");
    EXPECT(parse(&a, "--list --gpu a100") == -1 && !strcmp(a.gpu, "a100"), "--list --gpu a100");
    char err[512];
    EXPECT(parse_err(&a, "--list --gpu v100", err, sizeof err) == EXIT_USAGE &&
               strstr(err, "no GPU 'v100'") && strstr(err, "t4"),
           "--gpu of no GPU in the table names the table: %s", err);
    EXPECT(parse_err(&a, "--check --gpu t4", err, sizeof err) == EXIT_USAGE &&
               strstr(err, "--gpu goes with --list"),
           "--gpu without --list: %s", err);
    EXPECT(parse(&a, "--size 5000 --reps 10000") == -1 && a.size == 5000, "limits are inclusive");
    EXPECT(parse(&a, "--seed 0") == -1 && a.seed_given && a.seed == 0, "--seed 0");
    EXPECT(parse(&a, "--check --seed 18446744073709551615") == -1 && a.seed == ~0ull,
           "--seed 2^64-1");
    EXPECT(parse(&a, "--help") == EXIT_OK, "--help exits 0");
    const char* bad[] = {"--bogus",
                         "--size",
                         "--size 0",
                         "--size -5",
                         "--size +5",
                         "--size 12abc",
                         "--size 1e3",
                         "--size 5001",
                         "--reps 10001",
                         "--reps x",
                         "--csv",
                         "--variant",
                         "stray",
                         "--check --bench",
                         "--size 99999999999999999999999",
                         "--size 3 --size 4",
                         "--check --check",
                         "--csv --check",
                         "--variant --bench",
                         "--csv -h",
                         "--bench --csv -x.csv",
                         "--variant -h",
                         "--size --check",
                         "--check --csv x.csv",
                         "--list --csv x.csv",
                         "--seed",
                         "--seed -1",
                         "--seed 18446744073709551616",
                         "--seed 0x10",
                         "--seed 1 --seed 1",
                         "--help --bogus",
                         "-h --size 0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        EXPECT(parse(&a, bad[i]) == EXIT_USAGE, "'%s' accepted", bad[i]);
    const char* spaced[][4] = {
        {"test_cli", "--size", " 5", NULL},  {"test_cli", "--size", "5 ", NULL},
        {"test_cli", "--size", "\t5", NULL}, {"test_cli", "--reps", "5\n", NULL},
        {"test_cli", "--seed", " 1", NULL},  {"test_cli", "--csv", "", NULL}};
    for (size_t i = 0; i < sizeof spaced / sizeof spaced[0]; ++i)
        EXPECT(parse_argv(&a, spaced[i]) == EXIT_USAGE, "'%s %s' accepted", spaced[i][1],
               spaced[i][2]);
    test_shape();
    test_size_zero();
    test_parts();
    test_pictures();
    test_command_line();
    test_csv_path();
    test_side_files();
    test_negative();
    return test_finish("test_cli");
}
