/* CSV output with a metadata header (CONTRIBUTING.md, section 3, "CSV"): "# key: value" lines first
 * (gpu, compute capability, CUDA runtime, driver, date, git commit, command line), then one
 * header row, then the rows. gnuplot skips the '#' lines.
 *
 * A program describes its columns once, as a table (name, kind, decimals), and writes each row
 * field by field, naming the column it fills: a field given to the wrong column, of the wrong
 * kind, or a row short of a field stops the program, so the header and the values cannot drift
 * apart (the plots and the ncu test read columns by name):
 *
 *     static const csv_column COLUMNS[] = {{"variant", CSV_TEXT}, {"median_ms", CSV_REAL, 6}};
 *     csv_table t;
 *     csv_table_open(&t, path, dev, command_line, COLUMNS, 2);
 *     csv_text(&t, "variant", v->name);
 *     csv_real(&t, "median_ms", r.median_ms);
 *     csv_end_row(&t);
 *     csv_table_close(&t); */
#ifndef COURSE_CSV_H
#define COURSE_CSV_H

#include "host/bench.h"
#include "host/device.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The commit the program was built from ("abc1234", "abc1234-dirty"); written at build time. */
extern const char course_git_commit[];

/* s itself, for a text field of a row; dies if it holds a comma, quote or line break, which
 * would shift the columns that plot.gp and the ncu test read. */
const char* csv_field(const char* s);

/* Closes the file; exits with a message if anything failed to be written. */
void csv_close(FILE* f, const char* path);

typedef enum {
    CSV_TEXT,
    CSV_INT,
    CSV_REAL,       /* digits after the point (%.*f) */
    CSV_SIGNIFICANT /* significant digits (%.*g): an error, a ratio of any size */
} csv_kind;

typedef struct {
    const char* name;
    csv_kind kind;
    int digits; /* CSV_REAL, CSV_SIGNIFICANT */
} csv_column;

typedef struct {
    FILE* f;
    const char* path;
    const csv_column* columns;
    int n_columns;
    int next; /* the column the next field fills */
} csv_table;

/* Opens path for writing (exits with a message if it cannot be written) and writes the metadata
 * and the header row, the columns' names. dev is NULL when no GPU was used. */
void csv_table_open(csv_table* t, const char* path, const course_device* dev,
                    const char* command_line, const csv_column* columns, int n_columns);

/* The next field of the row, which must be column `name`, of the kind the call names (csv_real:
 * CSV_REAL or CSV_SIGNIFICANT). */
void csv_text(csv_table* t, const char* name, const char* value);
void csv_int(csv_table* t, const char* name, long long value);
void csv_real(csv_table* t, const char* name, double value);

/* A timing's four columns (bench.h), written where the table has them in this order: median_ms,
 * min_ms, max_ms (6 decimals) and reps. */
#define CSV_TIMING_COLUMNS                                                                         \
    {"median_ms", CSV_REAL, 6}, {"min_ms", CSV_REAL, 6}, {"max_ms", CSV_REAL, 6}, {                \
        "reps", CSV_INT, 0                                                                         \
    }
void csv_timing(csv_table* t, const bench_result* r);

/* Ends the row; every column must have had its field. */
void csv_end_row(csv_table* t);

void csv_table_close(csv_table* t);

#ifdef __cplusplus
}
#endif

#endif
