/* The command line every chapter program shares (CONVENTIONS.md, section 2):
 *   NN_topic [--check] [--bench] [--csv FILE] [--size N] [--reps N] [--variant NAME] [--list]
 *            [--help]
 * Parsing is strict: an unknown flag, a missing value, a number that is not a positive integer
 * or one above the program's limit is a usage error (exit 2). */
#ifndef COURSE_CLI_H
#define COURSE_CLI_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int check, bench, list, help;
    const char* csv;         /* NULL: no CSV */
    long size;               /* 0: the chapter's default */
    long reps;               /* 0: the chapter's default */
    const char* variant;     /* NULL: every variant */
    char command_line[1024]; /* for the CSV metadata */
} course_args;

typedef struct {
    const char* program; /* "01_bank_basics" */
    const char* summary; /* one line: what the program does */
    const char* size;    /* what --size N means here */
    long default_size, default_reps;
    long max_size; /* the largest --size the program accepts */
} course_cli;

/* The largest --reps any program accepts. */
enum { COURSE_MAX_REPS = 10000 };

/* Parses argv into a. Returns -1 when the program should go on, else the exit code to return
 * at once: EXIT_OK after --help (usage printed), EXIT_USAGE after a bad command line (one-line
 * message and usage on stderr). Unset size and reps take the chapter's defaults. */
int course_parse_args(const course_cli* cli, int argc, char** argv, course_args* a);

/* A usage error found after parsing (an unknown --variant, a --size out of range): prints
 * "program: message" and the usage on stderr, returns EXIT_USAGE. */
int course_usage_error(const course_cli* cli, const char* fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
