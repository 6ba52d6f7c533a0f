/* The command line every chapter program shares (CONTRIBUTING.md, section 3):
 *   NN_topic [--check] [--bench] [--csv FILE] [--size N] [--shape RxC|MxNxK] [--reps N] [--seed N]
 *            [--variant NAME] [--part NAME] [--list [--gpu NAME]] [--picture DIR] [--help]
 * (--shape only where the chapter takes one: its matrix shape, RxC or MxNxK, K from 0; --part only
 * where the chapter has parts: the part's name; --picture only where it draws pictures.)
 * Parsing is strict: an unknown or repeated flag, a missing value (or one starting with -, a
 * forgotten value), a number with anything but digits or above the program's limit (a negative
 * one says so, not that it is missing), --check or --list with --csv, and a --csv file, or a
 * side file the program writes beside it, that could not be written are usage errors (exit 2),
 * found before any GPU work. */
#ifndef COURSE_CLI_H
#define COURSE_CLI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most side files a program writes beside --csv FILE; the longest path of one. */
enum { COURSE_MAX_SIDE_FILES = 4, COURSE_PATH_MAX = 4096, COURSE_MAX_PARTS = 4 };

typedef struct {
    int check, bench, list, help;
    const char* csv; /* NULL: no CSV */
    long size;       /* --size, else the chapter's default */
    int size_given;
    long reps;               /* 0: the chapter's default */
    const char* variant;     /* NULL: every variant */
    const char* gpu;         /* --gpu NAME (with --list): a GPU of course_known_gpus, else NULL */
    const char* part;        /* --part NAME: one of course_cli.parts, else NULL (every part) */
    const char* picture;     /* --picture DIR: a writable directory, else NULL */
    unsigned long long seed; /* of the check's and benchmark's inputs: --seed, else the clock */
    int seed_given;
    long shape[3]; /* --shape, else zeros */
    int shape_given;
    char command_line[1024]; /* for the CSV metadata, paths under the source tree as "./..." */
} course_args;

typedef struct {
    const char* program; /* "01_bank_basics" */
    const char* summary; /* one line: what the program does */
    const char* size;    /* what --size N means here */
    long default_size, default_reps;
    long max_size;    /* the largest --size the program accepts */
    int shape_dims;   /* 2 (RxC), 3 (MxNxK), or 0: the program takes no --shape */
    long max_dim;     /* the largest dimension --shape accepts */
    int size_zero_ok; /* 1: --size 0 is valid (07: the sum of nothing); else --size starts at 1 */
    /* The suffixes of the files that --csv FILE also writes beside FILE ("_banks": x.csv ->
     * x_banks.csv, course_side_path), up to the first NULL: the parser checks each as it checks
     * FILE, so that a blocked one is a usage error before any work, not a failure after it. */
    const char* side_files[COURSE_MAX_SIDE_FILES];
    /* The parts of a chapter in several (08: "stencil", "sgemm", "tensor", "shapes"), up to the
     * first NULL (or COURSE_MAX_PARTS):
     * --part NAME runs one; a chapter without parts refuses the flag. */
    const char* parts[COURSE_MAX_PARTS];
    /* The chapter's pictures (host/picture.h), drawn into a directory, or NULL: --picture DIR
     * calls it and the program exits with what it returns; a chapter without it refuses the
     * flag. */
    int (*pictures)(const char* dir);
} course_cli;

/* The largest --reps any program accepts. */
enum { COURSE_MAX_REPS = 10000 };

/* Parses s as a whole number in base 10 or 16 (16: one optional 0x or 0X prefix) of at most max
 * into *out. Digits only: no sign, no whitespace, not empty. Returns 0, or -1 leaving *out as is.
 * bankcalc and the chapters share it so that every number is read alike. */
int course_parse_unsigned(const char* s, int base, unsigned long long max, unsigned long long* out);

/* The side file of --csv FILE with this suffix: FILE with its ".csv" replaced by suffix ".csv"
 * (x.csv -> x_banks.csv), or suffix ".csv" appended where FILE does not end in ".csv". The parser
 * and every writer derive it here. Returns 0, or -1 when it does not fit in len bytes. */
int course_side_path(const char* csv, const char* suffix, char* out, size_t len);

/* Why a file could not be written at path, or NULL ("is a directory", "is in a directory that
 * does not exist", ...): checked without creating or truncating it, so that --csv FILE and the
 * tools' --plot FILE are refused before any work. */
const char* course_unwritable(const char* path);

/* The source tree's root this library was built from (no trailing '/'). */
const char* course_source_dir(void);

/* Parses argv into a. Returns -1 when the program should go on, else the exit code to return
 * at once: EXIT_OK after --help (usage printed), EXIT_USAGE after a bad command line (one-line
 * message and usage on stderr). A bad argument wins over --help; --help wins over a bad
 * combination (--check with --bench or --csv). --picture DIR, given alone, returns what
 * cli->pictures(DIR) returns. Unset size and reps take the chapter's defaults, an unset seed a
 * fresh one from the clock. */
int course_parse_args(const course_cli* cli, int argc, char** argv, course_args* a);

/* A usage error of a learner tool (bankcalc, swizzlecalc): "tool: message", then its usage, on
 * stderr; returns EXIT_USAGE. */
int course_tool_usage_error(const char* tool, const char* usage, const char* fmt, ...);

/* A usage error found after parsing (an unknown --variant, a --size out of range): prints
 * "program: message" and the usage on stderr, returns EXIT_USAGE. */
int course_usage_error(const course_cli* cli, const char* fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
