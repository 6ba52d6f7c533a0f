/* A chapter's pictures (--picture DIR): which lane or thread touches which element, and its bank,
 * drawn as a grid of labelled boxes from the same index functions the kernels use.
 *
 *   course_cell cells[32 * 32];
 *   size_t n = 0;
 *   for (...) cells[n++] = course_cell_at(col, row, lane, "%d", lane);
 *   static const course_picture pic = {.name = "03_float4_xor", .title = "...", ...};
 *   int rc = course_picture_draw(dir, &pic, cells, n);
 *
 * DIR/NAME.csv holds the cells (x,y,w,h,colour,label; the CSV the course commits beside the PNG,
 * and what the chapter's pictures test compares), DIR/NAME.png the picture (gnuplot, found on
 * PATH; without it the CSV is still written and the call returns EXIT_SKIPPED). A chapter with
 * several draws each one, joining their codes with course_picture_join. */
#ifndef COURSE_PICTURE_H
#define COURSE_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A box of w x h grid units at column x, row y (row 0 at the top), filled with one of 32 hues
 * (colour 0..31: a lane, a thread mod 32, a bank; -1: white) and labelled. */
typedef struct {
    double x, y, w, h;
    int colour;
    char label[16];
} course_cell;

/* A 1 x 1 cell at (x, y) with a printf-formatted label. */
course_cell course_cell_at(double x, double y, int colour, const char* fmt, ...);

typedef struct {
    const char* name;   /* the files' name: DIR/NAME.csv, DIR/NAME.png */
    const char* title;  /* the picture's title */
    const char* key;    /* a second title line: what a box's colour and label are */
    const char* xlabel; /* the axes */
    const char* ylabel;
    int columns, rows; /* the grid's extent, in units */
    int xtics, ytics;  /* a tic every this many units (0: none) */
    int width, height; /* the PNG's size in pixels */
} course_picture;

/* Writes DIR/NAME.csv and draws DIR/NAME.png. Returns EXIT_OK, EXIT_SKIPPED without gnuplot (the
 * CSV written, the message on stderr), or EXIT_CHECK_FAILED (a file could not be written, or
 * gnuplot failed). */
int course_picture_draw(const char* dir, const course_picture* pic, const course_cell* cells,
                        size_t n);

/* Two pictures' codes as one, for a chapter that draws them all whatever happens to one (without
 * gnuplot every CSV is still written): a failure wins, then EXIT_SKIPPED, then EXIT_OK. */
int course_picture_join(int so_far, int rc);

#ifdef __cplusplus
}
#endif

#endif
