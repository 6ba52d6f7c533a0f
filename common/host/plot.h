/* gnuplot from C: bankcalc and swizzlecalc (--plot FILE.png) and the chapters' pictures
 * (host/picture.h). The tool writes its data to a temporary file and
 * its gnuplot script to a pipe, and gnuplot (found on PATH) draws the PNG.
 *
 *   course_plot p;
 *   int rc = course_plot_begin(&p, "bankcalc", "--plot"); // EXIT_SKIPPED without gnuplot
 *   fprintf(p.data, ...);                             // the data, read by the script as DATA
 *   FILE* gp = course_plot_script(&p, png, 1600, 900);
 *   fprintf(gp, "plot DATA using 1:2 ...\n");
 *   rc = course_plot_end(&p);
 *
 * The caller checks FILE with course_unwritable (host/cli.h) before any work. */
#ifndef COURSE_PLOT_H
#define COURSE_PLOT_H

#include <stdio.h>

typedef struct {
    const char* tool;
    char gnuplot[4096];  /* gnuplot's path */
    char data_path[256]; /* the temporary data file, removed by course_plot_end */
    FILE* data;          /* the tool's data goes here */
    FILE* pipe;          /* gnuplot's stdin: the script */
} course_plot;

/* Finds gnuplot and opens the data file. Returns EXIT_OK, EXIT_SKIPPED without gnuplot (with
 * "TOOL: FLAG needs gnuplot: install it (...)" on stderr), or EXIT_CHECK_FAILED. */
int course_plot_begin(course_plot* p, const char* tool, const char* flag);

/* Closes the data file and starts gnuplot with a width x height PNG terminal (no enhanced text),
 * its output set to png and the string DATA set to the data file's name. Returns gnuplot's stdin,
 * for the rest of the script, or NULL (the message printed; course_plot_end still cleans up). */
FILE* course_plot_script(course_plot* p, const char* png, int width, int height);

/* Waits for gnuplot and removes the data file. Returns EXIT_OK, or EXIT_CHECK_FAILED (gnuplot
 * failed; its message is on stderr). */
int course_plot_end(course_plot* p);

/* s as a gnuplot single-quoted string ('' for each ' in it). */
void course_plot_string(FILE* f, const char* s);

#endif
