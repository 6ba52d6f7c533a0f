#include "cli.h"

#include "check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_usage(const course_cli* cli, FILE* out) {
    fprintf(out,
            "usage: %s [--check] [--bench] [--csv FILE] [--size N] [--reps N] [--variant NAME]\n"
            "       %*s [--list] [--help]\n"
            "%s\n"
            "  (no flags)      the lesson: model tables, check of every variant, benchmark,\n"
            "                  summary\n"
            "  --check         correctness only, at small and odd sizes (what the tests run)\n"
            "  --bench         measurements only\n"
            "  --csv FILE      write the measurements to FILE\n"
            "  --size N        %s (default %ld)\n"
            "  --reps N        timed repetitions per measurement (default %ld)\n"
            "  --variant NAME  run one variant only (see --list)\n"
            "  --list          list the variants and exit\n"
            "exit codes: 0 ok, 1 a check failed, 2 usage error, 77 skipped (no suitable GPU)\n",
            cli->program, (int)strlen(cli->program), "", cli->summary, cli->size, cli->default_size,
            cli->default_reps);
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

/* A positive decimal integer that fits in a long, nothing else. */
static int parse_positive(const char* s, long* out) {
    if (!s || !*s || *s == '-' || *s == '+') return -1;
    char* end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v <= 0) return -1;
    *out = v;
    return 0;
}

int course_parse_args(const course_cli* cli, int argc, char** argv, course_args* a) {
    memset(a, 0, sizeof *a);
    size_t used = 0;
    for (int i = 0; i < argc && used < sizeof a->command_line - 1; ++i)
        used += (size_t)snprintf(a->command_line + used, sizeof a->command_line - used, "%s%s",
                                 i ? " " : "", argv[i]);
    for (int i = 1; i < argc; ++i) {
        const char* f = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(f, "--check"))
            a->check = 1;
        else if (!strcmp(f, "--bench"))
            a->bench = 1;
        else if (!strcmp(f, "--list"))
            a->list = 1;
        else if (!strcmp(f, "--help") || !strcmp(f, "-h"))
            a->help = 1;
        else if (!strcmp(f, "--csv") || !strcmp(f, "--variant")) {
            if (!value || !*value) return course_usage_error(cli, "%s needs a value", f);
            *(f[2] == 'c' ? &a->csv : &a->variant) = value;
            ++i;
        } else if (!strcmp(f, "--size") || !strcmp(f, "--reps")) {
            long* dst = f[2] == 's' ? &a->size : &a->reps;
            if (parse_positive(value, dst))
                return course_usage_error(cli, "%s needs a positive integer, got '%s'", f,
                                          value ? value : "");
            ++i;
        } else
            return course_usage_error(cli, "unknown argument '%s'", f);
    }
    if (a->help) {
        print_usage(cli, stdout);
        return EXIT_OK;
    }
    if (a->check && a->bench)
        return course_usage_error(cli, "--check and --bench exclude each other");
    if (a->size > cli->max_size)
        return course_usage_error(cli, "--size %ld is above the limit of %ld", a->size,
                                  cli->max_size);
    if (a->reps > COURSE_MAX_REPS)
        return course_usage_error(cli, "--reps %ld is above the limit of %d", a->reps,
                                  COURSE_MAX_REPS);
    if (!a->size) a->size = cli->default_size;
    if (!a->reps) a->reps = cli->default_reps;
    return -1;
}
