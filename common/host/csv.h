/* CSV output with a metadata header (CONTRIBUTING.md, section 3, "CSV"): "# key: value" lines first
 * (gpu, compute capability, CUDA runtime, driver, date, git commit, command line), then one
 * header row, then the rows the program writes with fprintf. gnuplot skips the '#' lines. */
#ifndef COURSE_CSV_H
#define COURSE_CSV_H

#include "host/device.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The commit the program was built from ("abc1234", "abc1234-dirty"); written at build time. */
extern const char course_git_commit[];

/* Opens path for writing and writes the metadata and the header row (no trailing newline
 * needed). dev is NULL when no GPU was used. Exits with a message if the file cannot be
 * written. */
FILE* csv_open(const char* path, const course_device* dev, const char* command_line,
               const char* header);

/* s itself, for a text field of a row; dies if it holds a comma, quote or line break, which
 * would shift the columns that plot.gp and the ncu test read. */
const char* csv_field(const char* s);

/* Closes the file; exits with a message if anything failed to be written. */
void csv_close(FILE* f, const char* path);

#ifdef __cplusplus
}
#endif

#endif
