/* POSIX for access(), stat() and clock_gettime(): the course builds on Linux. */
#define _POSIX_C_SOURCE 200809L

#include "host/cli.h"

#include "host/check.h"
#include "host/needs.h"
#include "host/rng.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void print_usage(const course_cli* cli, FILE* out) {
    static const char* const shapes[] = {"", "", "RxC", "MxNxK"};
    const char* shape = cli->shape_dims == 2 || cli->shape_dims == 3 ? shapes[cli->shape_dims] : "";
    char gpus[256], parts[128] = "";
    course_known_gpu_keys(gpus, sizeof gpus);
    for (int p = 0; p < COURSE_MAX_PARTS && cli->parts[p]; ++p)
        snprintf(parts + strlen(parts), sizeof parts - strlen(parts), "%s%s", p ? ", " : "",
                 cli->parts[p]);
    fprintf(out,
            "usage: %s [--check] [--bench] [--csv FILE] [--size N]%s%s%s [--reps N]\n"
            "       %*s [--variant NAME]%s [--seed N] [--list [--gpu NAME]]%s [--help]\n"
            "%s\n"
            "  (no flags)      the lesson: model tables, check of every variant, benchmark,\n"
            "                  summary\n"
            "  --check         correctness only, at small and odd sizes (what the tests run)\n"
            "  --bench         measurements only\n"
            "  --csv FILE      write the measurements to FILE (not with --check or --list)\n"
            "  --size N        %s (default %ld, at most %ld)\n",
            cli->program, *shape ? " [--shape " : "", shape, *shape ? "]" : "",
            (int)strlen(cli->program), "", *parts ? " [--part NAME]" : "",
            cli->pictures ? " [--picture DIR]" : "", cli->summary, cli->size, cli->default_size,
            cli->max_size);
    if (*shape)
        fprintf(out,
                "  --shape %-7s the check or the benchmark at this shape only (each dimension 1\n"
                "                  to %ld%s)\n",
                shape, cli->max_dim, cli->shape_dims == 3 ? "; K from 0: C = beta C" : "");
    fprintf(out,
            "  --reps N        timed repetitions per measurement (default %ld, at most %d)\n"
            "  --seed N        random seed of the check's and benchmark's inputs (default: fresh\n"
            "                  each run; every run prints it)\n"
            "  --variant NAME  run one variant only (see --list)\n",
            cli->default_reps, COURSE_MAX_REPS);
    if (*parts) fprintf(out, "  --part NAME     run one part of the chapter only (%s)\n", parts);
    if (cli->pictures)
        fprintf(out,
                "  --picture DIR   draw the chapter's pictures into DIR (NAME.csv, and NAME.png\n"
                "                  where gnuplot is) and exit; no GPU needed\n");
    fprintf(out,
            "  --list          list the variants and exit\n"
            "  --gpu NAME      with --list: which variants would run on that GPU, and why not\n"
            "                  (%s)\n"
            "exit codes: 0 ok, 1 a check failed, 2 usage error, 77 skipped (no suitable GPU)\n",
            gpus);
}

int course_tool_usage_error(const char* tool, const char* usage, const char* fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", tool);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s", usage);
    return EXIT_USAGE;
}

int course_usage_error(const course_cli* cli, const char* fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", cli->program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    print_usage(cli, stderr);
    return EXIT_USAGE;
}

/* Digit by digit rather than strtoull, which skips leading whitespace, takes a sign and, in base
 * 16, a 0x prefix of its own. */
int course_parse_unsigned(const char* s, int base, unsigned long long max,
                          unsigned long long* out) {
    if (!s || (base != 10 && base != 16)) return -1;
    if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!*s) return -1;
    unsigned long long v = 0;
    for (; *s; ++s) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (d > max || v > (max - d) / (unsigned)base) return -1; /* v * base + d > max */
        v = v * (unsigned)base + d;
    }
    *out = v;
    return 0;
}

const char* course_source_dir(void) {
    return COURSE_SOURCE_DIR;
}

/* The command as typed from the project root: the CSV metadata must not carry this machine's
 * paths. A relative argv[0] such as build/bin/02_padding gets "./" as a shell needs it. */
static void record_command_line(course_args* a, int argc, char** argv) {
    const char* root = COURSE_SOURCE_DIR;
    size_t root_len = strlen(root), used = 0;
    for (int i = 0; i < argc; ++i) {
        const char* arg = argv[i];
        const char* prefix = "";
        if (!strncmp(arg, root, root_len) && arg[root_len] == '/') {
            prefix = "./";
            arg += root_len + 1;
        } else if (i == 0 && arg[0] != '/' && strchr(arg, '/') && strncmp(arg, "./", 2) &&
                   strncmp(arg, "../", 3))
            prefix = "./";
        int n = snprintf(a->command_line + used, sizeof a->command_line - used, "%s%s%s",
                         i ? " " : "", prefix, arg);
        if (n < 0 || (size_t)n >= sizeof a->command_line - used) break;
        used += (size_t)n;
    }
}

const char* course_unwritable(const char* path) {
    struct stat st;
    if (!stat(path, &st)) {
        if (S_ISDIR(st.st_mode)) return "is a directory";
        return access(path, W_OK) ? "exists and is not writable" : NULL;
    }
    char dir[PATH_MAX] = ".";
    const char* slash = strrchr(path, '/');
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        if (n >= sizeof dir) return "is too long a path";
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) return "is in a directory that does not exist";
    return access(dir, W_OK | X_OK) ? "is in a directory that is not writable" : NULL;
}

int course_side_path(const char* csv, const char* suffix, char* out, size_t len) {
    const size_t n = strlen(csv);
    const int stem = (int)(n > 4 && !strcmp(csv + n - 4, ".csv") ? n - 4 : n);
    const int written = snprintf(out, len, "%.*s%s.csv", stem, csv, suffix);
    return written < 0 || (size_t)written >= len ? -1 : 0;
}

/* Seconds and nanoseconds of the clock through one splitmix64 step: runs a nanosecond apart
 * get unrelated seeds. */
static unsigned long long fresh_seed(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long x =
        (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
    return rng_next(&x);
}

/* The flags before F_CSV take no value. */
enum {
    F_CHECK,
    F_BENCH,
    F_LIST,
    F_HELP,
    F_CSV,
    F_VARIANT,
    F_SIZE,
    F_REPS,
    F_SEED,
    F_SHAPE,
    F_GPU,
    F_PART,
    F_PICTURE,
    F_COUNT
};
static const char* const flag_names[F_COUNT] = {
    "--check", "--bench", "--list",  "--help", "--csv",  "--variant", "--size",
    "--reps",  "--seed",  "--shape", "--gpu",  "--part", "--picture"};

/* --size or --reps: a whole number from 1 to max. */
static int parse_count(const course_cli* cli, const char* flag, const char* v, long min, long max,
                       long* out) {
    unsigned long long n;
    if (course_parse_unsigned(v, 10, (unsigned long long)max, &n) || n < (unsigned long long)min)
        return course_usage_error(cli, "%s needs a whole number from %ld to %ld, got '%s'", flag,
                                  min, max, v);
    *out = (long)n;
    return 0;
}

/* --shape: cli->shape_dims whole numbers from 1 to cli->max_dim joined by 'x' ("4097x1023").
 * MxNxK is a GEMM's: K may be 0 (C = beta C, as in BLAS); M and N stay >= 1 (an empty C has
 * nothing to check, and a grid of no blocks is a launch error). */
static int parse_shape(const course_cli* cli, const char* v, long* shape) {
    const int gemm = cli->shape_dims == 3;
    const char* form = gemm ? "MxNxK" : "RxC";
    char part[32];
    const char* p = v;
    for (int d = 0; d < cli->shape_dims; ++d) {
        const size_t n = strcspn(p, "x");
        const char end = d == cli->shape_dims - 1 ? '\0' : 'x'; /* what must follow the number */
        const unsigned long long min = gemm && d == 2 ? 0 : 1;
        unsigned long long x = 0;
        int ok = n < sizeof part && p[n] == end;
        if (ok) {
            memcpy(part, p, n);
            part[n] = '\0';
            ok = !course_parse_unsigned(part, 10, (unsigned long long)cli->max_dim, &x) && x >= min;
        }
        if (!ok)
            return course_usage_error(
                cli, "--shape needs %s, each a whole number from 1 to %ld%s, got '%s'", form,
                cli->max_dim, gemm ? " (K from 0)" : "", v);
        shape[d] = (long)x;
        p += n + 1;
    }
    return 0;
}

int course_parse_args(const course_cli* cli, int argc, char** argv, course_args* a) {
    memset(a, 0, sizeof *a);
    record_command_line(a, argc, argv);
    int* const switches[F_CSV] = {&a->check, &a->bench, &a->list, &a->help};
    unsigned seen = 0;
    for (int i = 1; i < argc; ++i) {
        const char* f = strcmp(argv[i], "-h") ? argv[i] : "--help";
        int k = 0;
        while (k < F_COUNT && strcmp(f, flag_names[k])) ++k;
        if (k == F_COUNT) return course_usage_error(cli, "unknown argument '%s'", f);
        if (seen >> k & 1u) return course_usage_error(cli, "%s given twice", f);
        seen |= 1u << k;
        if (k < F_CSV) {
            *switches[k] = 1;
            continue;
        }
        /* A value that looks like a flag means the value was forgotten: "--csv --check",
         * "--csv -h". No file, variant or number of the course starts with '-'. A number's flag
         * with a negative number ("--size -3") was given one, a bad one: its parser says so. */
        const char* v = i + 1 < argc ? argv[++i] : NULL;
        const int number = k == F_SIZE || k == F_REPS || k == F_SEED || k == F_SHAPE;
        if (!v || !*v || (v[0] == '-' && !(number && isdigit((unsigned char)v[1]))))
            return course_usage_error(cli, "%s needs a value", f);
        if (k == F_SHAPE) {
            if (cli->shape_dims != 2 && cli->shape_dims != 3)
                return course_usage_error(cli, "this program takes no --shape (see --size)");
            if (parse_shape(cli, v, a->shape)) return EXIT_USAGE;
            a->shape_given = 1;
        } else if (k == F_CSV) {
            const char* why = course_unwritable(v);
            if (why) return course_usage_error(cli, "--csv %s: the file %s", v, why);
            for (int s = 0; s < COURSE_MAX_SIDE_FILES && cli->side_files[s]; ++s) {
                char side[COURSE_PATH_MAX];
                if (course_side_path(v, cli->side_files[s], side, sizeof side))
                    return course_usage_error(cli, "--csv %s: its %s side file's path is too long",
                                              v, cli->side_files[s]);
                why = course_unwritable(side);
                if (why)
                    return course_usage_error(cli, "--csv %s: the side file %s %s", v, side, why);
            }
            a->csv = v;
        } else if (k == F_VARIANT)
            a->variant = v;
        else if (k == F_PICTURE) {
            struct stat st;
            if (!cli->pictures) return course_usage_error(cli, "this program draws no pictures");
            if (stat(v, &st) || !S_ISDIR(st.st_mode) || access(v, W_OK | X_OK))
                return course_usage_error(cli, "--picture %s: not a writable directory", v);
            a->picture = v;
        } else if (k == F_PART) {
            int p = 0;
            while (p < COURSE_MAX_PARTS && cli->parts[p] && strcmp(cli->parts[p], v)) ++p;
            if (!cli->parts[0]) return course_usage_error(cli, "this program has no parts");
            if (p == COURSE_MAX_PARTS || !cli->parts[p])
                return course_usage_error(cli, "--part: no part '%s' (see --help)", v);
            a->part = v;
        } else if (k == F_GPU) {
            if (!course_known_gpu(v)) {
                char gpus[256];
                course_known_gpu_keys(gpus, sizeof gpus);
                return course_usage_error(cli, "--gpu: no GPU '%s' in the table (%s)", v, gpus);
            }
            a->gpu = v;
        } else if (k == F_SEED) {
            if (course_parse_unsigned(v, 10, ULLONG_MAX, &a->seed))
                return course_usage_error(
                    cli, "--seed needs a whole number from 0 to %llu, got '%s'", ULLONG_MAX, v);
            a->seed_given = 1;
        } else if (k == F_SIZE) {
            if (parse_count(cli, f, v, cli->size_zero_ok ? 0 : 1, cli->max_size, &a->size))
                return EXIT_USAGE;
            a->size_given = 1;
        } else if (parse_count(cli, f, v, 1, COURSE_MAX_REPS, &a->reps))
            return EXIT_USAGE;
    }
    if (a->help) {
        print_usage(cli, stdout);
        return EXIT_OK;
    }
    if (a->check && a->bench)
        return course_usage_error(cli, "--check and --bench exclude each other");
    if (a->csv && (a->check || a->list))
        return course_usage_error(cli, "%s writes no files: drop --csv",
                                  a->check ? "--check" : "--list");
    if (a->gpu && !a->list) return course_usage_error(cli, "--gpu goes with --list");
    if (a->picture) {
        if (a->check || a->bench || a->csv || a->list || a->variant || a->part)
            return course_usage_error(cli, "--picture draws and exits: give it alone");
        return cli->pictures(a->picture);
    }
    if (!a->size_given) a->size = cli->default_size;
    if (!a->reps) a->reps = cli->default_reps;
    if (!a->seed_given) a->seed = fresh_seed();
    return -1;
}
